import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { FilterSyntaxError, parse } from "../../src/index.js";

/**
 * What go-bexpr 0.1.15 and 0.1.16 said (recorded by scripts/oracles/budget-lines.ts) when a broken
 * expression inside parentheses runs out of their parse budget, before its error, after it, or not:
 * their message lists the errors of the grammar they recorded, then, where the budget ran out,
 * "L:C (offset): rule R: max number of expressions parsed".
 */
interface Recorded {
  readonly id: string;
  readonly expr: string;
  readonly maxExpressions: number;
  readonly goError: Readonly<Record<"0.1.15" | "0.1.16", string>>;
}
const CASES: readonly Recorded[] = readFileSync(new URL("../fixtures/targets/budget-lines.jsonl", import.meta.url), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as Recorded);

/** Where the reference's message says its budget ran out: line, column, offset, rule (without quotes). */
const REFERENCE_BUDGET = /^(\d+):(\d+) \((\d+)\): rule "?([^":]+)"?: max number of expres+ions parsed$/;
/** The library's line for the same. */
const LIBRARY_BUDGET = /^max number of expressions parsed: the reference's parser gives up here, after [\d,]+ steps \(rule ([^)]+)\); .* at (\d+):(\d+)$/;

const rejection = (text: string, options: object): FilterSyntaxError => {
  try {
    parse(text, options);
  } catch (e) {
    expect(e).toBeInstanceOf(FilterSyntaxError);
    return e as FilterSyntaxError;
  }
  throw new Error(`parsed: ${text}`);
};

describe("an error of the grammar, then the parse budget (go-bexpr's message of two lines)", () => {
  it("the fixture holds all three outcomes", () => {
    const ends = CASES.map((c) => c.goError["0.1.16"].split("\n"));
    expect(ends.filter((l) => l.length > 1 && REFERENCE_BUDGET.test(l.at(-1)!)).length).toBeGreaterThan(200);
    expect(ends.filter((l) => l.length === 1 && REFERENCE_BUDGET.test(l[0]!)).length).toBeGreaterThan(200);
    expect(ends.filter((l) => !REFERENCE_BUDGET.test(l.at(-1)!)).length).toBeGreaterThan(200);
  });

  for (const release of ["0.1.15", "0.1.16"] as const) {
    it(`says what ${release} says: the budget's line last, after the error's or alone, at its position and rule`, () => {
      for (const c of CASES) {
        const e = rejection(c.expr, { maxExpressions: c.maxExpressions, target: `go-bexpr@${release}` });
        const reference = c.goError[release].split("\n");
        const lines = e.message.split("\n");
        const at = `${c.id} ${c.expr} (${c.maxExpressions}): ${c.goError[release]} / ${e.message}`;
        // The first line is always the error's own: its summary at its position.
        expect(lines[0], at).toBe(`${e.summary} at ${e.line}:${e.column}`);
        const budget = REFERENCE_BUDGET.exec(reference.at(-1)!);
        if (budget === null) {
          expect(lines, at).toHaveLength(1);
          expect(e.code, at).not.toBe("too-many-expressions");
          continue;
        }
        const [, line, column, , rule] = budget;
        if (reference.length === 1) {
          // The budget ran out before any error: that is the whole answer.
          expect(lines, at).toHaveLength(1);
          expect(e.code, at).toBe("too-many-expressions");
          expect(LIBRARY_BUDGET.exec(lines[0]!)?.slice(1), at).toEqual([rule, line, column]);
        } else {
          // After an error: the library's error, then the budget's line.
          expect(lines, at).toHaveLength(2);
          expect(e.code, at).not.toBe("too-many-expressions");
          expect(LIBRARY_BUDGET.exec(lines[1]!)?.slice(1), at).toEqual([rule, line, column]);
        }
      }
    });
  }
});
