/**
 * Railroad diagrams of the live parser (Chevrotain's serialized grammar), for grammar/diagrams.html.
 * The page is self-contained: Chevrotain's diagram scripts and styles are inlined from the package.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createSyntaxDiagramsCode } from "chevrotain";
import { sharedParser } from "./parse.js";

/** The rules of the parser, by name (as Chevrotain recorded them). */
export function parserRuleNames(): string[] {
  return sharedParser()
    .getSerializedGastProductions()
    .map((r) => (r as unknown as { name: string }).name);
}

/** Where Chevrotain keeps its diagram resources. */
function resourceDir(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", "chevrotain", "diagrams");
    if (existsSync(join(candidate, "diagrams.css"))) return candidate;
    if (dirname(dir) === dir) throw new Error("Chevrotain's diagram resources were not found");
  }
}

/** A self-contained HTML page with the railroad diagram of every parser rule. */
export function diagramsHtml(): string {
  const base = "chevrotain-resources/";
  const html = createSyntaxDiagramsCode(sharedParser().getSerializedGastProductions(), {
    resourceBase: base,
    css: `${base}diagrams.css`,
  });
  const dir = resourceDir();
  return html
    .replace(/<link rel='stylesheet' href='chevrotain-resources\/([^']+)'>/g, (_m, file: string) => `<style>\n${readFileSync(join(dir, file), "utf8")}\n</style>`)
    .replace(/<script src='chevrotain-resources\/([^']+)'><\/script>/g, (_m, file: string) => `<script>\n${readFileSync(join(dir, file), "utf8")}\n</script>`);
}
