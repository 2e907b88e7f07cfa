import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, FilterSyntaxError, parse } from "../src/index.js";

const api = readFileSync(fileURLToPath(new URL("../docs/api.md", import.meta.url)), "utf8");

/** The text of the docs/api.md section under `heading`, up to the next heading. */
function section(heading: string): string {
  const start = api.indexOf(`### ${heading}\n`);
  expect(start).toBeGreaterThanOrEqual(0);
  const rest = api.slice(start + heading.length + 5);
  return rest.slice(0, rest.search(/^#{2,3} /m));
}

/** The codes a section names: the code spans of its table's first column, or of its paragraph. */
function documentedCodes(heading: string): string[] {
  const text = section(heading);
  const rows = text.split("\n").filter((l) => l.startsWith("| `"));
  // Without a table, the list of codes is the paragraph's first sentence.
  const cells = rows.length > 0 ? rows.map((r) => r.split(" | ")[0]!) : [text.split(". ")[0]!];
  return cells.flatMap((c) => [...c.matchAll(/`([a-z]+(?:-[a-z]+)*)`/g)].map((m) => m[1]!));
}

describe("the error catalogue", () => {
  it("docs/api.md names exactly the codes each error class can carry", () => {
    expect(new Set(documentedCodes("`FilterSyntaxError` codes"))).toEqual(new Set(ERROR_CODES.syntax));
    expect(new Set(documentedCodes("`FilterTypeError` codes"))).toEqual(new Set(ERROR_CODES.type));
    expect(new Set(documentedCodes("`FilterEvaluationError` codes"))).toEqual(new Set(ERROR_CODES.evaluation));
  });

  it("every example of a syntax error code in docs/api.md raises that code", () => {
    const rows = section("`FilterSyntaxError` codes").split("\n").filter((l) => l.startsWith("| `"));
    let checked = 0;
    for (const row of rows) {
      const [codeCell, exampleCell = ""] = row.slice(2).split(" | ");
      const codes = [...codeCell!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]!);
      // The examples are the code spans before any explanation in parentheses.
      const examples = [...exampleCell.split(" (")[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      for (const example of examples) {
        const text = example.startsWith('"') ? (JSON.parse(example) as string) : example;
        let code: string | undefined;
        try {
          parse(text);
        } catch (e) {
          expect(e).toBeInstanceOf(FilterSyntaxError);
          code = (e as FilterSyntaxError).code;
        }
        expect({ example, code }).toEqual({ example, code: codes[0] });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });
});
