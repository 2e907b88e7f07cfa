#!/usr/bin/env node
/**
 * The `filter-check` command (built to dist/cli/filter-check.js with a shebang). See docs/cli.md.
 */
import { run } from "./main.js";

// A reader that went away (`filter-check ... | head`) is not an error: stop quietly.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

run(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env }).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`filter-check: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 70;
  },
);
