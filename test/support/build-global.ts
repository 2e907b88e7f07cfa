/**
 * vitest's global setup (vitest.config.ts): the builds the tests start as processes — the library's
 * `dist/` (filter-check, and what the server's bin imports) and the server's `server/dist/main.js` —
 * are made anew when a source is newer than them, so a process under test always runs the sources as
 * they are. The server's tests import the library's build too (server/vitest.config.ts). Processes start from the builds because a start through tsx costs about six times the CPU
 * (2.6 s against 0.45 s per server start), and the suite starts a hundred of them.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The latest modification time under `path` (a file, or every file under a folder). */
function latest(path: string): number {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => latest(join(path, name))));
}

function run(command: string, args: readonly string[], cwd: string): void {
  const r = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} (in ${cwd}) failed: exit ${r.status}`);
}

// vitest runs a root global setup once per project: the first run builds, the second finds it done.
let done = false;

export function setup(): void {
  if (done) return;
  done = true;
  // The library: scripts/build-if-stale.mjs (also the prepack step) builds dist/ unless it is current.
  run(process.execPath, [join(ROOT, "scripts/build-if-stale.mjs")], ROOT);
  const server = join(ROOT, "server");
  const main = join(server, "dist/main.js");
  const built = existsSync(main) ? statSync(main).mtimeMs : -1;
  if (built < Math.max(latest(join(server, "src")), latest(join(server, "tsup.config.ts")), latest(join(server, "package.json")))) {
    run(join(ROOT, "node_modules/.bin/tsup"), [], server);
  }
}
