/**
 * The package's version, read from its package.json: two folders up both from the source
 * (src/cli/version.ts) and from the built binary (dist/cli/filter-check.js).
 */
import { readFileSync } from "node:fs";

/** The `name` and `version` of the package. */
export function packageInfo(): { name: string; version: string } {
  const url = new URL("../../package.json", import.meta.url);
  const pkg = JSON.parse(readFileSync(url, "utf8")) as { name?: unknown; version?: unknown };
  return {
    name: typeof pkg.name === "string" ? pkg.name : "filter-expr",
    version: typeof pkg.version === "string" ? pkg.version : "0.0.0",
  };
}
