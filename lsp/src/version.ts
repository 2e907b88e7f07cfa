/** The package's version (from its package.json, one folder above both src/ and dist/). */
import { readFileSync } from "node:fs";

export const VERSION: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
