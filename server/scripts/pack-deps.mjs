// npm pack/publish of the server: the workspace dependency on the library (`file:..`) becomes the
// library's version range in the tarball, and is put back afterwards.
//   node scripts/pack-deps.mjs pin       (prepack)
//   node scripts/pack-deps.mjs restore   (postpack)
import { readFileSync, writeFileSync } from "node:fs";

const own = new URL("../package.json", import.meta.url);
const library = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
const pkg = JSON.parse(readFileSync(own, "utf8"));
const WORKSPACE = "file:..";
const mode = process.argv[2];
if (mode === "pin") pkg.dependencies[library.name] = `^${library.version}`;
else if (mode === "restore") pkg.dependencies[library.name] = WORKSPACE;
else throw new Error(`usage: pack-deps.mjs pin|restore (got ${mode})`);
writeFileSync(own, `${JSON.stringify(pkg, null, 2)}\n`);
