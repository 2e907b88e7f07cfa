import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate, nearMissFilters, parse, print, type Expr } from "../../src/index.js";
import { NAMES, exprArb, jsonArb } from "../support/arbitraries.js";
import { outcome } from "../support/modes.js";
import { runs } from "../support/runs.js";

// nearMissFilters: the filter of part i keeps exactly the items that fail part i and pass the others.

/** The operands of the top-level and, nested ones flattened. */
function partsOf(e: Expr): Expr[] {
  return e.kind === "and" ? e.operands.flatMap(partsOf) : [e];
}

/** The answer, or the code of the error. */
function answer(run: () => boolean): boolean | string {
  const o = outcome(run);
  return typeof o === "boolean" ? o : (o as { code: string }).code;
}

const recordArb = fc.dictionary(fc.constantFrom(...NAMES), jsonArb(NAMES), { maxKeys: 8 });

describe("near-miss filters", () => {
  it("keep exactly the items that fail one part and pass every other", () => {
    let decided = 0;
    fc.assert(
      fc.property(exprArb(NAMES), recordArb, (ast, datum) => {
        const text = print(ast);
        // A generated tree whose text reads otherwise (a selector named `not` before `not matches`) is no filter.
        fc.pre(answer(() => (parse(text), true)) === true);
        const misses = nearMissFilters(text);
        const partTexts = partsOf(parse(text)).map((p) => `(${print(p)})`);
        expect(partTexts).toHaveLength(misses.length);
        const parts = partTexts.map((p) => answer(() => evaluate(p, datum)));
        // The parts, in parentheses, joined by and, are the filter (errors compared by code: the spans move).
        expect(answer(() => evaluate(partTexts.join(" and "), datum))).toEqual(answer(() => evaluate(text, datum)));
        if (!parts.every((p) => typeof p === "boolean")) return;
        decided++;
        misses.forEach((m, i) => {
          expect(() => parse(m.filter)).not.toThrow();
          expect(evaluate(m.filter, datum)).toBe(parts.every((p, j) => p === (j !== i)));
        });
      }),
      { numRuns: runs(2_000) },
    );
    // Random filters mostly fail on random records; enough of them answer.
    expect(decided).toBeGreaterThan(100);
  });

  it("split the top-level and, nested ones too, and negate one part each", () => {
    const text = 'Status == "running" and ("dc1" in Datacenters and Priority == 50) and (Type == batch or Stop == true)';
    expect(nearMissFilters(text).map((m) => m.filter)).toEqual([
      'not (Status == "running") and ("dc1" in Datacenters) and (Priority == 50) and (Type == batch or Stop == true)',
      '(Status == "running") and not ("dc1" in Datacenters) and (Priority == 50) and (Type == batch or Stop == true)',
      '(Status == "running") and ("dc1" in Datacenters) and not (Priority == 50) and (Type == batch or Stop == true)',
      '(Status == "running") and ("dc1" in Datacenters) and (Priority == 50) and not (Type == batch or Stop == true)',
    ]);
    expect(nearMissFilters("any Datacenters as d { d == dc1 }")).toEqual([{ part: { start: 0, end: 33 }, filter: "not (any Datacenters as d { d == dc1 })" }]);
  });
});
