import { AclFileError } from "./acl.js";
import { ConfigError, configOptions, loadConfigFile } from "./ops/config.js";
import { StartupError, packageVersion, startServer } from "./ops/start.js";
import { DataFileError } from "./lists/load.js";
import { DataDirError } from "./store/memory/persist.js";
import { USAGE, UsageError, parseCommandLine, resolveOptions } from "./options.js";

/** The `filter-server` command: parses the command line, starts both listeners, stops cleanly on SIGTERM/SIGINT. */
async function main(argv: readonly string[]): Promise<number> {
  let command;
  try {
    command = parseCommandLine(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`filter-server: ${e.message}\n\n${USAGE}`);
    return 2;
  }
  if (command.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command.version) {
    process.stdout.write(`filter-server ${packageVersion()}\n`);
    return 0;
  }
  try {
    const config = command.given.configFile === undefined ? undefined : await loadConfigFile(command.given.configFile);
    const options = resolveOptions(command.given, config === undefined ? {} : configOptions(config));
    // Handlers first: a signal that comes while the server starts (its "listening" line may be out
    // already) stops it once it is up, never by the default action.
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    let early: string | undefined;
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => (server === undefined ? (early ??= signal) : server.lifecycle.signal(signal)));
    server = await startServer(options, config);
    if (early !== undefined) server.lifecycle.signal(early);
    await server.lifecycle.done;
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`filter-server: ${e.message}\n`);
      return 2;
    }
    if (e instanceof ConfigError || e instanceof DataFileError || e instanceof AclFileError || e instanceof StartupError || e instanceof DataDirError) {
      process.stderr.write(`filter-server: ${e.message}\n`);
      return 1;
    }
    if ((e as NodeJS.ErrnoException).code === "EADDRINUSE" || (e as NodeJS.ErrnoException).code === "EACCES") {
      process.stderr.write(`filter-server: ${(e as Error).message}\n`);
      return 1;
    }
    throw e;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`filter-server: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
