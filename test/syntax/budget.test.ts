import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FilterSyntaxError, parse, print } from "../../src/index.js";
import { budgetMayExceed, budgetSteps, budgetWeight } from "../../src/syntax/budget.js";
import { REFERENCE_RULES } from "../../src/syntax/reference-grammar.js";
import { NAMES, exprArb } from "../support/arbitraries.js";
import { loadCorpus } from "../support/corpus.js";
import { naiveRun, naiveSteps } from "../support/naive-budget.js";
import { runs } from "../support/runs.js";

const BUDGET = 2_000_000;


const accepts = (text: string, options = {}): boolean => {
  try {
    parse(text, options);
    return true;
  } catch (e) {
    expect(e).toBeInstanceOf(FilterSyntaxError);
    return false;
  }
};
const budgetError = (text: string): FilterSyntaxError => {
  try {
    parse(text);
  } catch (e) {
    expect(e).toBeInstanceOf(FilterSyntaxError);
    return e as FilterSyntaxError;
  }
  throw new Error(`parsed: ${text.slice(0, 40)}`);
};
const nest = (d: number, inner = "x == 1"): string => `${"(".repeat(d)}${inner}${")".repeat(d)}`;
/**
 * Chains of terms from a small pool, which recur within a text and across texts: most rules are then
 * answered by the window memo, and the chain's spine by the recorded state of its recursion. Numbers
 * with and without zeros, keys that differ only where the grammar looks, and a dangling operator.
 */
const chainArb = fc
  .tuple(
    fc.array(fc.constantFrom("a == 1", "a == 7", "a == 10", "b == 01", 'x["k"] == "v"', '"v" in y', "z is empty", "not a == 2", "(a == 1)", "((b != 3))", "a.0 == 1.5", "any a as b { b == 1 }"), { minLength: 1, maxLength: 40 }),
    fc.array(fc.constantFrom(" or ", " and ", "  or\n", " and  "), { minLength: 40, maxLength: 40 }),
    fc.boolean(),
  )
  .map(([terms, joins, tail]) => terms.map((t, i) => (i === 0 ? t : joins[i]! + t)).join("") + (tail ? " and" : ""));
const textArb = fc.tuple(exprArb(NAMES, 3), fc.constantFrom(" ", "  ", "\n", "\t ")).map(([ast, ws]) => print(ast).replace(/ /g, ws));

describe("the reference's parse budget (go-bexpr's MaxExpressions(2000000))", () => {
  it("the transcribed grammar has every rule of grammar.peg, in order", () => {
    expect(REFERENCE_RULES.map((r) => r.name).slice(0, 5)).toEqual(["Input", "OrExpression", "AndExpression", "NotExpression", "CollectionExpression"]);
    expect(REFERENCE_RULES).toHaveLength(39);
  });

  it("six parentheses around x == 1 parse, seven are 'max number of expressions parsed' at 1:13", () => {
    const six = budgetSteps(nest(6), BUDGET);
    expect(six).toEqual({ exceeded: false, steps: 542_023, matched: true });
    expect(accepts(nest(6))).toBe(true);
    const e = budgetError(nest(7));
    expect(e).toMatchObject({ code: "too-many-expressions", line: 1, column: 13, offset: 12 });
    expect(e.message).toMatch(/^max number of expressions parsed/);
    // Each level costs about four times the one inside it.
    const counts = [2, 3, 4, 5].map((d) => (budgetSteps(nest(d), BUDGET) as { steps: number }).steps);
    expect(counts).toEqual([2103, 8455, 33_863, 135_495]);
  });

  it("or-chains of 7,789 terms parse and of 7,790 do not; string literals up to 99,971 bytes", () => {
    const chain = (k: number) => Array.from({ length: k }, (_, i) => `x == ${i}`).join(" or ");
    expect(accepts(chain(7789))).toBe(true);
    expect(budgetError(chain(7790)).code).toBe("too-many-expressions");
    expect(accepts(`x == "${"a".repeat(99_971)}"`)).toBe(true);
    expect(budgetError(`x == "${"a".repeat(99_972)}"`).code).toBe("too-many-expressions");
  });

  it("the budget is an option: the reference's WithMaxExpressions, 0 meaning its default, Infinity none", () => {
    expect(accepts(nest(7), { maxExpressions: 3_000_000 })).toBe(true);
    expect(accepts(nest(7), { maxExpressions: 0 })).toBe(false);
    expect(accepts(nest(12), { maxExpressions: Infinity })).toBe(true);
    expect(accepts("x == 1", { maxExpressions: 507 })).toBe(false);
    expect(accepts("x == 1", { maxExpressions: 508 })).toBe(true);
  });

  it("the memoised replay counts exactly what the reference's parser counts", () => {
    fc.assert(
      fc.property(textArb, (text) => {
        const naive = naiveSteps(text);
        const r = budgetSteps(text, BUDGET);
        expect(r).toEqual({ exceeded: false, steps: naive.steps, matched: naive.matched });
      }),
      { numRuns: runs(150) },
    );
    for (const text of ["x ==", "(x == 1", "((a) or b", 'a["b" == 1', "not not not", "any x as y { y == 1 } and z == 1", "x == 01", '"/a" in b']) {
      expect((budgetSteps(text, BUDGET) as { steps: number }).steps).toBe(naiveSteps(text).steps);
    }
  });

  it("results memoised by the characters a rule read are exact, across positions and across texts", () => {
    fc.assert(
      fc.property(chainArb, (t) => {
        const naive = naiveSteps(t);
        expect(budgetSteps(t, BUDGET)).toEqual({ exceeded: false, steps: naive.steps, matched: naive.matched });
        // The same text again (every rule now memoised by content) and with a fresh memo.
        expect(budgetSteps(t, BUDGET)).toEqual({ exceeded: false, steps: naive.steps, matched: naive.matched });
        expect(budgetSteps(t, BUDGET, [...REFERENCE_RULES])).toEqual({ exceeded: false, steps: naive.steps, matched: naive.matched });
      }),
      { numRuns: runs(200) },
    );
  });

  it("stops where the reference stops: the first step past any limit, at its offset and in its rule", () => {
    fc.assert(
      fc.property(fc.oneof(textArb, chainArb), fc.double({ min: 0, max: 1, noNaN: true }), (text, f) => {
        const total = (budgetSteps(text, BUDGET) as { steps: number }).steps;
        const max = Math.floor(total * f);
        const r = budgetSteps(text, max);
        expect(r.exceeded).toBe(max < total);
        const naive = naiveRun(text, REFERENCE_RULES, max);
        if ("stop" in naive) expect(r).toEqual({ exceeded: true, ...naive.stop });
        expect(budgetSteps(text, total).exceeded).toBe(false);
      }),
      { numRuns: runs(100) },
    );
  });

  it("a pair of parentheses around an operand never lowers the count", () => {
    // (At the very start, `(a) and b` costs more than `((a) and b)`: the reference's Input rule tries
    // "( expression ) EOF" first, so an operand is the right place for this law.)
    fc.assert(
      fc.property(textArb, (text) => {
        const plain = budgetSteps(`a == 1 and (${text})`, Infinity) as { steps: number; matched: boolean };
        const wrapped = budgetSteps(`a == 1 and ((${text}))`, Infinity) as { steps: number; matched: boolean };
        expect(wrapped.steps).toBeGreaterThanOrEqual(plain.steps);
      }),
      { numRuns: runs(150) },
    );
  });

  it("the cheap weight bounds the count of every accepted expression (250 steps per unit)", () => {
    const ratio = (text: string) => (budgetSteps(text, Infinity) as { steps: number }).steps / budgetWeight(text);
    fc.assert(
      fc.property(textArb, fc.integer({ min: 100, max: 50_000 }), (text, max) => {
        expect(ratio(text)).toBeLessThan(120);
        // The test that decides whether to replay never skips an expression that runs out.
        if (budgetSteps(text, max).exceeded) expect(budgetMayExceed(text, max)).toBe(true);
      }),
      { numRuns: runs(200) },
    );
    const families = [
      `${"any a as b { ".repeat(200)}x == 1${" }".repeat(200)}`,
      `x${'["a"]'.repeat(300)} is empty`,
      `"${"/a".repeat(300)}" in x`,
      `a${".b".repeat(300)} is empty`,
      `${"not ".repeat(300)}x == 1`,
      nest(5, Array.from({ length: 20 }, (_, i) => `(x == ${i})`).join(" or ")),
    ];
    for (const text of families) expect(ratio(text)).toBeLessThan(120);
  });

  it("agrees with the corpus: what the reference's grammar does not match is a parse error", () => {
    for (const c of loadCorpus()) {
      const r = budgetSteps(c.expr, BUDGET);
      if (r.exceeded || !r.matched) expect(c.expect).toBe("parse-error");
      if (accepts(c.expr)) expect(r).toMatchObject({ exceeded: false, matched: true });
    }
  });
});
