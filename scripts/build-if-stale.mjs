// Builds a package with tsup unless its build is already that of its sources as they are: every output
// exists and is newer than every source file, the build's configuration and package.json.
//
//   node scripts/build-if-stale.mjs                      the library (its `prepare` and `prepack`): tsup
//   node scripts/build-if-stale.mjs DIR OUTPUT...        the package in DIR, judged by OUTPUTs (relative to
//                                                        DIR), built by its own `build` script
//
// `npm run build:all` before packing (as .ci/run does) then costs the pack nothing; a quick `npm ci`
// build (no declarations) or an edited source rebuilds. The tests' global setup runs it for every
// package, and every package's pack runs it: a pack during the tests never rebuilds (tsup empties
// dist/ first) a build other test files are reading.
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
  // The library with the repository's tsup directly (its configuration tells an install's quick build by
  // npm's lifecycle variables); another package by its `build` script (the server's also writes its page).
  const tsup = join(import.meta.dirname, "..", "node_modules", ".bin", "tsup");
  const r = dir === undefined ? spawnSync(tsup, [], { cwd: root, stdio: "inherit" }) : spawnSync("npm", ["run", "--silent", "build"], { cwd: root, stdio: "inherit" });
  process.exit(r.status ?? 1);
}
