// `prepack` of the library: builds dist/ (with its declarations) unless it is already the build of
// the sources as they are: every file of the build exists and is newer than every source file, the
// build's configuration and package.json. `npm run build:all` before packing (as .ci/run does) then
// costs the pack nothing; a quick `npm ci` build (no declarations) or an edited source rebuilds.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = process.cwd();
const outputs = ["dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/index.d.cts", "dist/cli/filter-check.js"].map((f) => join(root, f));

/** The latest modification time of `path` (a file, or every file under a folder). */
function latest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => latest(join(path, name))));
}

const built = outputs.every(existsSync) ? Math.min(...outputs.map((f) => statSync(f).mtimeMs)) : -1;
const sources = Math.max(latest(join(root, "src")), latest(join(root, "tsup.config.ts")), latest(join(root, "package.json")));
if (built < sources) {
  const r = spawnSync(join(root, "node_modules", ".bin", "tsup"), [], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}
