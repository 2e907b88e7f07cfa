/**
 * vitest's global setup (vitest.config.ts): the builds the tests start as processes — the library's
 * `dist/` (filter-check, and what the server's bin imports) and the server's `server/dist/main.js`, the language
 * server's `lsp/dist/main.js`, the CodeMirror package's `codemirror/dist/index.js` (its browser test bundles
 * a page from it) —
 * are made anew when a source is newer than them, so a process under test always runs the sources as
 * they are. Both projects' tests import the library's build too
 * (test/support/suite-options.ts). Processes start from the builds because a start through tsx costs
 * about six times the CPU (2.6 s against 0.45 s per server start), and the suite starts a hundred of them.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Runs scripts/build-if-stale.mjs (the library's `prepack` too) with `args`: builds a package unless it is current. */
function buildIfStale(...args: string[]): void {
  const r = spawnSync(process.execPath, [join(ROOT, "scripts/build-if-stale.mjs"), ...args], { cwd: ROOT, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`building ${args[0] ?? "the library"} failed: exit ${r.status}`);
}

// vitest runs a root global setup once per project: the first run builds, the second finds it done.
let done = false;

export function setup(): void {
  if (done) return;
  done = true;
  buildIfStale();
  buildIfStale("server", "dist/main.js", "dist/ui/index.html");
  buildIfStale("lsp", "dist/main.js");
  buildIfStale("codemirror", "dist/index.js", "dist/index.d.ts");
}
