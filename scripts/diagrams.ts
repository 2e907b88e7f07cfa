/** Writes grammar/diagrams.html from the live parser: `npm run grammar`. */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { diagramsHtml } from "../src/syntax/diagrams.js";

const target = fileURLToPath(new URL("../grammar/diagrams.html", import.meta.url));
writeFileSync(target, diagramsHtml());
console.log(`wrote ${target}`);
