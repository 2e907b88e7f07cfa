import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { ERROR_CODES } from "filter-expr";
import { describe, expect, it } from "vitest";
import { codeRows } from "../src/ui/codes.js";

const DOCS = fileURLToPath(new URL("../../docs/", import.meta.url));
const WARNINGS = ["pointer-value", "word-is-selector", "list-by-name", "missing-key-error"];

describe("the playground's page of codes", () => {
  it("documents every code a diagnostic can show: every error code of the library and every warning", () => {
    const rows = codeRows(["api.md", "cli.md"].map((name) => ({ name, text: readFileSync(`${DOCS}${name}`, "utf8") })));
    const all = [...ERROR_CODES.syntax, ...ERROR_CODES.type, ...ERROR_CODES.evaluation, ...WARNINGS];
    expect(all.filter((code) => !rows.has(code))).toEqual([]);
    // A code used by several error classes is documented under each heading it has.
    expect(rows.get("invalid-index")!.map((r) => r.heading)).toEqual(expect.arrayContaining(["FilterSyntaxError codes", "FilterTypeError codes", "FilterEvaluationError codes"]));
  });
});
