import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { diagramsHtml, parserRuleNames } from "../../src/syntax/diagrams.js";
import { allTokens } from "../../src/syntax/tokens.js";

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), "utf8");
const ebnf = read("grammar/filter.ebnf").replace(/\(\*[^]*?\*\)/g, "");
const syntaxPart = ebnf.split(/^name\s*=/m)[0]!;
const ebnfRules = [...ebnf.matchAll(/^([a-zA-Z]+)\s*=/gm)].map((m) => m[1]!);
const syntaxRules = [...syntaxPart.matchAll(/^([a-zA-Z]+)\s*=/gm)].map((m) => m[1]!);

/** Which rules of grammar/filter.ebnf each parser rule implements. */
const IMPLEMENTS: Record<string, string[]> = {
  filter: ["filter"],
  expression: ["orExpr", "andExpr", "notExpr"],
  negation: ["notExpr"],
  collectionHead: ["collection", "binding"],
  binding: ["binding"],
  match: ["match", "compare", "emptiness"],
  inOp: ["inOp"],
  selectorAfterIn: ["selector"],
  selector: ["selector", "pointer"],
  indexSegment: ["index", "quoted"],
  value: ["value"],
  plainValue: ["plainValue", "quoted"],
  number: ["number"],
};

describe("grammar/ and the live parser", () => {
  it("grammar/diagrams.html is generated from the current parser (npm run grammar)", () => {
    expect(read("grammar/diagrams.html")).toBe(diagramsHtml());
  });

  it("every parser rule implements rules of grammar/filter.ebnf, and every syntax rule is implemented", () => {
    expect(new Set(parserRuleNames())).toEqual(new Set(Object.keys(IMPLEMENTS)));
    const implemented = new Set(Object.values(IMPLEMENTS).flat());
    for (const rule of implemented) expect(ebnfRules).toContain(rule);
    for (const rule of syntaxRules) expect(implemented).toContain(rule);
  });

  it("the grammar's keywords are exactly the parser's keyword tokens", () => {
    const words = new Set([...syntaxPart.matchAll(/"([a-z]+)"/g)].map((m) => m[1]!));
    const keywordTokens = new Set(allTokens.filter((t) => typeof t.PATTERN === "object" && /^[a-z]+$/.test((t.PATTERN as RegExp).source)).map((t) => (t.PATTERN as RegExp).source));
    expect(words).toEqual(keywordTokens);
  });

  it("the grammar's punctuation is lexed by the parser's tokens", () => {
    const punctuation = new Set([...syntaxPart.matchAll(/"([^a-zA-Z0-9"\s]+)"/g)].map((m) => m[1]!));
    const labels = new Set(allTokens.map((t) => t.LABEL?.replace(/^"|"$/g, "")));
    for (const p of punctuation) expect(labels).toContain(p);
  });
});
