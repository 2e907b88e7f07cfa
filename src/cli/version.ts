/**
 * The package's version, from the nearest package.json above this module: the package's own, both
 * from the source (src/cli/) and from the built binary (dist/cli/filter-check.js).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The `name` and `version` of the package. */
export function packageInfo(): { name: string; version: string } {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    let text: string | undefined;
    try {
      text = readFileSync(join(dir, "package.json"), "utf8");
    } catch {
      text = undefined;
    }
    if (text !== undefined) {
      const pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
      return {
        name: typeof pkg.name === "string" ? pkg.name : "filter-expr",
        version: typeof pkg.version === "string" ? pkg.version : "unknown",
      };
    }
    const parent = dirname(dir);
    if (parent === dir) return { name: "filter-expr", version: "unknown" };
    dir = parent;
  }
}
