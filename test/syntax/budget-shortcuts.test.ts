import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { budgetSteps } from "../../src/syntax/budget.js";
import { REFERENCE_RULES } from "../../src/syntax/reference-grammar.js";
import { naiveRun } from "../support/naive-budget.js";
import { runs } from "../support/runs.js";

/**
 * The replay's shortcuts (budget.ts: results memoised by window, runs of a chain's levels, descents
 * laid out only when they return, one-character loops by class code, runs of levels or iterations
 * that read the same) against the same machine node by node (`budgetSteps(…, false)`) on long
 * repetitive texts, and against the naive port of the reference's parser on short ones.
 */

/** Pieces of the language and around it: every predicate's trigger, strings with escapes, nesting openers. */
const PIECES = [
  "x", "a.b", 'a["k"]', "a.0", "any a as b {", "all a as b {", "}", "not ", "(", ")", " and ", " or ", "a == 1", "b != 2", '"v" in c', "d is empty",
  "e is not nil", "==", "1", "1.5", "01", "1e3", "-", '"s"', '"\\q"', '"\\n"', "`r`", '"/p/q"', '"/a', "x[", '["', "]", "[1]", " ", "  ", "\n", "=", "$", "é",
];
const unitArb = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 4 }).map((p) => p.join(""));
const fill = (unit: string, n: number): string => unit.repeat(Math.max(1, Math.ceil(n / unit.length))).slice(0, n);

/** Long texts of a few repeated units: a unit over and over, a prefix and a suffix around a core, runs broken by another unit. */
function longTextArb(size: number): fc.Arbitrary<string> {
  return fc.oneof(
    unitArb.map((u) => fill(u, size)),
    fc.tuple(unitArb, unitArb, unitArb).map(([p, core, s]) => {
      const k = Math.max(1, Math.floor((size - core.length) / (p.length + s.length)));
      return p.repeat(k) + core + s.repeat(k);
    }),
    fc.tuple(unitArb, unitArb, fc.integer({ min: 1, max: 40 })).map(([a, b, k]) => fill(a.repeat(k) + b, size)),
    fc.tuple(unitArb, unitArb, fc.double({ min: 0, max: 1, noNaN: true })).map(([a, b, f]) => {
      const k = Math.floor(size * f);
      return fill(a, Math.max(1, k)) + fill(b, Math.max(1, size - k));
    }),
  );
}

describe("the replay's shortcuts", () => {
  it("answer what the replay node by node answers on long repetitive texts (64 KiB)", () => {
    fc.assert(
      fc.property(longTextArb(65_536), fc.constantFrom(2_000_000, 300_000, 13_600), (text, max) => {
        expect(budgetSteps(text, max)).toEqual(budgetSteps(text, max, REFERENCE_RULES, false));
      }),
      { numRuns: runs(60) },
    );
  });

  it("answer what the replay node by node answers on long repetitive texts (1 MiB + 4 KiB)", () => {
    fc.assert(
      fc.property(longTextArb(1_052_672), (text) => {
        expect(budgetSteps(text, 2_000_000)).toEqual(budgetSteps(text, 2_000_000, REFERENCE_RULES, false));
      }),
      { numRuns: runs(12) },
    );
  });

  it("answer what the reference's parser counts on nested and chained texts, wherever a limit stops it", () => {
    // Short enough for the naive port: a few levels of one opener (collections, parentheses, `not`s,
    // chains), an inner text from the pieces, and the levels' closers (some left open).
    const opener = fc.constantFrom("(", "not ", "any a as b { ", "x == 1 or ", "x == 1 and ", "(not ", "((");
    const closer = (o: string): string => (o.includes("(") ? ")".repeat(o.split("(").length - 1) : o.includes("{") ? " }" : "");
    const textArb = fc
      .tuple(opener, fc.integer({ min: 1, max: 40 }), unitArb, fc.integer({ min: 0, max: 2 }))
      .map(([o, k, inner, open]) => o.repeat(k) + inner + closer(o).repeat(Math.max(0, k - open)));
    fc.assert(
      fc.property(textArb, fc.double({ min: 0, max: 1, noNaN: true }), (text, f) => {
        const whole = budgetSteps(text, 20_000_000);
        fc.pre(!whole.exceeded);
        const max = Math.floor(f * whole.steps);
        const naive = naiveRun(text, REFERENCE_RULES, max);
        const r = budgetSteps(text, max);
        if ("stop" in naive) expect(r).toEqual({ exceeded: true, ...naive.stop });
        else expect(r).toEqual({ exceeded: false, ...naive });
      }),
      { numRuns: runs(300) },
    );
  });

  it("stop at the reference's step on every adversarial shape of 1 MiB + 4 KiB", () => {
    const N = 1_052_672;
    const shapes = [
      `${"(".repeat((N - 6) / 2)}a == 1${")".repeat((N - 6) / 2)}`,
      "(".repeat(N),
      "x".repeat(N),
      `a == "${"x".repeat(N - 7)}"`,
      `a == "${"\\n".repeat((N - 7) / 2)}"`,
      fill("a == 1 or ", N),
      fill("a == 1 and ", N),
      fill("not ", N - 6) + "a == 1",
      `a == ${"1".repeat(N - 5)}`,
      `a${fill('["k"]', N - 6)} == 1`,
      `a == "${fill("/ab", N - 7)}"`,
      fill("any a as b { ", N),
      fill("not  ", 30_000) + fill("1.5 ,[(", N - 30_000),
    ];
    for (const text of shapes) expect(budgetSteps(text, 2_000_000), text.slice(0, 20)).toEqual(budgetSteps(text, 2_000_000, REFERENCE_RULES, false));
  });
});
