// Builds a package with tsup unless its build is already that of its sources as they are: every output
// exists and is newer than every source file, the build's configuration and package.json.
//
//   node scripts/build-if-stale.mjs                      the library (its `prepack`): dist/ with declarations
//   node scripts/build-if-stale.mjs DIR OUTPUT...        the package in DIR, judged by OUTPUTs (relative to DIR)
//
// `npm run build:all` before packing (as .ci/run does) then costs the pack nothing; a quick `npm ci`
// build (no declarations) or an edited source rebuilds. The tests' global setup runs it for both packages.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

const LIBRARY_OUTPUTS = ["dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/index.d.cts", "dist/cli/filter-check.js"];
const [dir, ...named] = process.argv.slice(2);
const root = dir === undefined ? process.cwd() : resolve(dir);
const outputs = (named.length > 0 ? named : LIBRARY_OUTPUTS).map((f) => join(root, f));

/** The latest modification time of `path` (a file, or every file under a folder; 0 when absent). */
function latest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => latest(join(path, name))));
}

const built = outputs.every(existsSync) ? Math.min(...outputs.map((f) => statSync(f).mtimeMs)) : -1;
const sources = Math.max(latest(join(root, "src")), latest(join(root, "tsup.config.ts")), latest(join(root, "package.json")));
if (built < sources) {
  // The repository's tsup (the workspaces share the root's node_modules).
  const tsup = join(import.meta.dirname, "..", "node_modules", ".bin", "tsup");
  const r = spawnSync(tsup, [], { cwd: root, stdio: "inherit" });
  process.exit(r.status ?? 1);
}
