import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FilterSyntaxError, lineColumn, parse } from "../../src/index.js";
import { budgetSteps } from "../../src/syntax/budget.js";
import { DEFAULT_PARSE_OPTIONS, fullParse } from "../../src/syntax/parse.js";
import { REFERENCE_RULES } from "../../src/syntax/reference-grammar.js";
import { firstUnlexable, lexer, scanTokens } from "../../src/syntax/tokens.js";
import { naiveRun } from "../support/naive-budget.js";
import { runs } from "../support/runs.js";

/**
 * Long texts cost what the part that decides them costs (the reference's budget replay stops at its
 * step 2,000,001; the Chevrotain parser lexes a long text's beginning first): these laws hold the
 * answers to what the whole text, replayed node by node and lexed at once, gives.
 */

const PIECES = [
  "x", "Name", "a.b", 'a["k"]', "a.0", "any", "all", "as", "v", "_", ",", "and", "or", "not", "in", "contains", "matches", "is", "empty", "nil",
  "==", "!=", "(", ")", "{", "}", "[", "]", '"s"', "`r`", '"/p/q"', "1", "-2.5", "01", ".", "-", "=", "!", "&&", "'q'", '"', "`", ">", "\\", "$", "é",
  "\u{1F600}", "\n", "\t", "a == 1", " and ", " or ", "not ", "(a == 1)", "any a as b {", '"\\q"',
];
const piecesArb = (max: number) =>
  fc.array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom("", " ", " ")), { minLength: 1, maxLength: max }).map((ps) => ps.map(([p, ws]) => p + ws).join(""));
/** The whole text lexed at once, and no shorter parse first. */
const WHOLE = { firstLexed: Infinity, shorter: false } as const;
const fill = (unit: string, n: number): string => unit.repeat(Math.max(1, Math.ceil(n / unit.length))).slice(0, n);

/** A long text: a unit repeated, with another text at a random place (most are errors, some far in). */
const longTextArb = (size: number) =>
  fc.tuple(piecesArb(4), piecesArb(6), fc.double({ min: 0, max: 1, noNaN: true })).map(([unit, other, f]) => {
    const body = fill(unit, size);
    const at = Math.floor(f * body.length);
    return body.slice(0, at) + other + body.slice(at);
  });

/** What `fn` throws (a `FilterSyntaxError`'s code, message and span), or "parsed". */
function outcome(fn: () => unknown): unknown {
  try {
    fn();
    return "parsed";
  } catch (e) {
    expect(e).toBeInstanceOf(FilterSyntaxError);
    const err = e as FilterSyntaxError;
    return { code: err.code, message: err.message, span: err.span };
  }
}

describe("long texts", () => {
  it("the token scan finds the lexer's first unlexable character, and steps over its tokens", () => {
    fc.assert(
      fc.property(piecesArb(30), fc.nat(40), (text, count) => {
        const lexed = lexer.tokenize(text);
        expect(firstUnlexable(text)).toBe(lexed.errors[0]?.offset ?? -1);
        const bad = lexed.errors[0]?.offset ?? text.length;
        const tokens = lexed.tokens.filter((t) => t.startOffset < bad);
        // After `count` tokens: the next one's start, or the first unlexable character, or the end.
        expect(scanTokens(text, 0, count)).toBe(tokens[count]?.startOffset ?? bad);
      }),
      { numRuns: runs(3000) },
    );
  });

  it("parsing a long text's beginning first gives the whole text's answer", () => {
    fc.assert(
      fc.property(fc.oneof(longTextArb(20_000), longTextArb(200_000)), (text) => {
        expect(outcome(() => fullParse(text, DEFAULT_PARSE_OPTIONS, { shorter: false }))).toEqual(outcome(() => fullParse(text, DEFAULT_PARSE_OPTIONS, WHOLE)));
      }),
      { numRuns: runs(150) },
    );
    // Small beginnings, so that the beginning ends in every kind of token and between any two.
    fc.assert(
      fc.property(piecesArb(40), fc.integer({ min: 1, max: 12 }), (text, first) => {
        expect(outcome(() => fullParse(text, DEFAULT_PARSE_OPTIONS, { firstLexed: first, shorter: false }))).toEqual(outcome(() => fullParse(text, DEFAULT_PARSE_OPTIONS, WHOLE)));
      }),
      { numRuns: runs(3000) },
    );
  });

  it("an error after a long run of operands is the one the whole parse finds (the parse resumes near it)", () => {
    const operand = fc.constantFrom("a == 1", "not b.c != 2", '"v" in d', "(e is empty or f == g)", "not not h contains `x`", "(any l as v { v == 1 })");
    const join = fc.constantFrom(" and ", " or ", "\n and\n", "  or ");
    const textArb = fc
      .tuple(fc.array(fc.tuple(join, operand), { minLength: 300, maxLength: 600 }), piecesArb(6), fc.boolean())
      .map(([chain, tail, joined]) => "x == 0" + chain.map(([j, o]) => j + o).join("") + (joined ? " and " : " ") + tail);
    fc.assert(
      fc.property(textArb, (text) => {
        expect(outcome(() => parse(text, { maxExpressions: Infinity }))).toEqual(outcome(() => fullParse(text, DEFAULT_PARSE_OPTIONS, WHOLE)));
      }),
      { numRuns: runs(300) },
    );
  });

  it("an error inside many groups opened first is the one the whole parse finds (most are left out first)", () => {
    const opener = fc.constantFrom("(", "( ", "not ", "not  (", "\n(");
    const textArb = fc
      .tuple(fc.array(opener, { minLength: 100, maxLength: 400 }), piecesArb(8), fc.integer({ min: 0, max: 500 }), piecesArb(4))
      .map(([openers, inner, closers, after]) => openers.join("") + inner + ")".repeat(closers) + after);
    fc.assert(
      fc.property(textArb, (text) => {
        expect(outcome(() => parse(text, { maxExpressions: Infinity }))).toEqual(outcome(() => fullParse(text, DEFAULT_PARSE_OPTIONS, WHOLE)));
      }),
      { numRuns: runs(600) },
    );
  });

  it("a text of 1 MiB + 4 KiB gets the error that its whole replay and its whole lexing give", () => {
    const slow = (text: string): unknown => {
      const r = budgetSteps(text, 2_000_000, REFERENCE_RULES, false);
      if (r.exceeded && !r.afterError) return { code: "too-many-expressions", offset: r.offset };
      const e = outcome(() => fullParse(text, DEFAULT_PARSE_OPTIONS, WHOLE)) as { code: string; message: string };
      if (!r.exceeded) return { code: e.code, lines: 1 };
      const { line, column } = lineColumn(text, r.offset);
      return { code: e.code, lines: 2, budget: `(rule ${r.rule}); nest fewer parentheses or write a shorter expression at ${line}:${column}` };
    };
    const fast = (text: string): unknown => {
      const e = outcome(() => parse(text, { maxLength: Infinity })) as { code: string; message: string; span: { start: number } };
      const lines = e.message.split("\n");
      if (e.code === "too-many-expressions") return { code: e.code, offset: e.span.start };
      return lines.length === 1 ? { code: e.code, lines: 1 } : { code: e.code, lines: 2, budget: lines[1]!.slice(lines[1]!.indexOf("(rule ")) };
    };
    fc.assert(
      fc.property(longTextArb(1_052_672), (text) => {
        expect(fast(text)).toEqual(slow(text));
      }),
      { numRuns: runs(10) },
    );
  });

  it("the budget's line: alone where the reference ran out before an error, second where after, at the reference's step", () => {
    // Broken texts inside parentheses (each predicate of the grammar, a bad escape, pieces), as the
    // reference's port counts them under random budgets.
    const core = fc.constantFrom('x["a" == 1', "x[1] == 2", "x != 1e3", "x == 01", '"a" in 1', 'x == "\\q"', "(x == 1", "x ==", "x $ 1");
    const match = fc.constantFrom("a == 1", '"v" in c', "d is empty");
    const innerArb = fc.oneof(
      piecesArb(5),
      fc.tuple(fc.option(match), core, fc.option(match), fc.constantFrom(" and ", " or ")).map(([b, c, a, j]) => [b, c, a].filter((x) => x !== null).join(j)),
    );
    const textArb = fc
      .tuple(fc.integer({ min: 0, max: 5 }), innerArb, fc.boolean())
      .map(([depth, inner, open]) => "(".repeat(depth) + inner + ")".repeat(Math.max(0, depth - (open ? 1 : 0))));
    let twoLines = 0;
    fc.assert(
      fc.property(textArb, fc.double({ min: 0, max: 1.2, noNaN: true }), fc.boolean(), (text, f, afterError) => {
        fc.pre(text.trim() !== "");
        const whole = budgetSteps(text, Infinity);
        fc.pre(!whole.exceeded && whole.steps < 3_000_000);
        // Half the budgets between the reference's first error and its last step, where it gives both lines.
        let from = 0;
        if (afterError) {
          for (let lo = 1, hi = whole.steps; lo <= hi; ) {
            const mid = Math.floor((lo + hi) / 2);
            const r = budgetSteps(text, mid);
            if (r.exceeded && r.afterError) (from = mid), (hi = mid - 1);
            else lo = mid + 1;
          }
        }
        const max = from > 0 ? from + Math.floor(f * (whole.steps - from)) : Math.max(1, Math.floor(f * whole.steps));
        const naive = naiveRun(text, REFERENCE_RULES, max);
        const e = outcome(() => parse(text, { maxExpressions: max }));
        if (e === "parsed") {
          expect("stop" in naive).toBe(false);
          return;
        }
        const { code, message } = e as { code: string; message: string };
        const lines = message.split("\n");
        if (!("stop" in naive)) {
          expect(lines).toHaveLength(1);
          expect(code).not.toBe("too-many-expressions");
          return;
        }
        const { line, column } = lineColumn(text, naive.stop.offset);
        const budgetLine = `(rule ${naive.stop.rule}); nest fewer parentheses or write a shorter expression at ${line}:${column}`;
        if (naive.stop.afterError) {
          twoLines++;
          expect(lines).toHaveLength(2);
          expect(code).not.toBe("too-many-expressions");
          expect(lines[1]!.endsWith(budgetLine)).toBe(true);
        } else {
          expect(lines).toHaveLength(1);
          expect(code).toBe("too-many-expressions");
          expect(lines[0]!.endsWith(budgetLine)).toBe(true);
        }
      }),
      { numRuns: runs(1500) },
    );
    expect(twoLines).toBeGreaterThan(50);
  });
});
