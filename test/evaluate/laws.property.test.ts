import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, evaluate, print, schemas, type CompileOptions, type Expr, type MatchExpr, type MatchOp, type Schema } from "../../src/index.js";
import { JOB_NAMES, NAMES, exprArb, jobArb, jsonArb, matchArb, selectorArb } from "../support/arbitraries.js";
import { runs } from "../support/runs.js";

/** The outcome of a run: its answer or its error class. */
function outcome(run: () => boolean): string {
  try {
    return String(run());
  } catch (e) {
    return (e as Error).name;
  }
}

const modes: { name: string; names: readonly string[]; data: fc.Arbitrary<unknown>; schema: Schema | undefined; extra: CompileOptions }[] = [
  { name: "plain JSON", names: NAMES, data: jsonArb(NAMES), schema: undefined, extra: {} },
  { name: "plain JSON with an unknown value", names: NAMES, data: jsonArb(NAMES), schema: undefined, extra: { unknownValue: "" } },
  { name: "typed job records", names: JOB_NAMES, data: jobArb, schema: schemas.job, extra: {} },
];

const SPAN = { start: 0, end: 0 };
/** Patterns RE2 rejects (the pattern text, before quoting). */
const BROKEN_PATTERNS = ["(", "a)", "[z-a]", "x**", "(?=a)", "\\1", "a{1001}"];

/** A random expression with a `matches` of an invalid pattern first or last, maybe under `not`. */
function withBrokenPatternArb(names: readonly string[]): fc.Arbitrary<Expr> {
  const broken = fc
    .tuple(selectorArb(names), fc.constantFrom<MatchOp>("matches", "not matches"), fc.constantFrom(...BROKEN_PATTERNS))
    .map(([selector, op, text]): MatchExpr => ({ kind: "match", op, selector, value: { kind: "literal", type: "string", raw: JSON.stringify(text), text, span: SPAN }, opSpan: SPAN, span: SPAN }));
  return fc.tuple(exprArb(names, 2), broken, fc.constantFrom<"and" | "or">("and", "or"), fc.boolean(), fc.boolean()).map(([other, m, kind, first, negate]): Expr => {
    const b: Expr = negate ? { kind: "not", operand: m, span: SPAN } : m;
    return { kind, operands: first ? [b, other] : [other, b], span: SPAN };
  });
}

const NEGATION: Record<MatchOp, MatchOp> = {
  "==": "!=",
  "!=": "==",
  contains: "not contains",
  "not contains": "contains",
  in: "not in",
  "not in": "in",
  matches: "not matches",
  "not matches": "matches",
  "is empty": "is not empty",
  "is not empty": "is empty",
  "is nil": "is not nil",
  "is not nil": "is nil",
};

describe.each(modes)("laws over $name", ({ names, data, schema, extra }) => {
  it("the compiled filter answers as the reference interpreter, error class included", () => {
    fc.assert(
      fc.property(exprArb(names), fc.array(data, { minLength: 1, maxLength: 4 }), (ast, items) => {
        const text = print(ast);
        let f: ReturnType<typeof compile>;
        try {
          f = compile(text, { ...extra, schema, check: false });
        } catch (e) {
          expect((e as Error).name).toBe("FilterSyntaxError");
          return;
        }
        for (const d of items) expect(outcome(() => f.evaluate(d))).toBe(outcome(() => evaluate(text, d, { ...extra, schema })));
      }),
      { numRuns: runs(1500) },
    );
  });

  it("not E is the negation of E, and errors stay errors", () => {
    fc.assert(
      fc.property(exprArb(names, 3), data, (ast, d) => {
        const negated: Expr = { kind: "not", operand: ast, span: ast.span };
        const [a, b] = [print(ast), print(negated)].map((t) => outcome(() => compile(t, { ...extra, schema, check: false }).evaluate(d)));
        if (a === "true" || a === "false") expect(b).toBe(a === "true" ? "false" : "true");
        else expect(b).toBe(a);
      }),
      { numRuns: runs(1000) },
    );
  });

  it("each operator's negated form answers the opposite, missing keys included", () => {
    fc.assert(
      fc.property(matchArb(names), data, (m, d) => {
        const flipped = print({ ...m, op: NEGATION[m.op] });
        const a = outcome(() => compile(print(m), { ...extra, schema, check: false }).evaluate(d));
        const b = outcome(() => compile(flipped, { ...extra, schema, check: false }).evaluate(d));
        if (a === "true" || a === "false") expect(b).toBe(a === "true" ? "false" : "true");
        else expect(b).toBe(a);
      }),
      { numRuns: runs(1500) },
    );
  });

  it("static checks reject only what fails on every datum, and do reject", () => {
    let rejections = 0;
    const cases = runs(1000);
    fc.assert(
      fc.property(fc.oneof(exprArb(names, 3), withBrokenPatternArb(names)), fc.array(data, { minLength: 1, maxLength: 4 }), (ast, items) => {
        const text = print(ast);
        let rejected = false;
        try {
          compile(text, { ...extra, schema });
        } catch (e) {
          rejected = (e as Error).name === "FilterTypeError";
        }
        if (rejected) {
          rejections++;
          for (const d of items) expect(outcome(() => evaluate(text, d, { ...extra, schema }))).toBe("FilterEvaluationError");
        }
      }),
      { numRuns: cases },
    );
    // Not vacuous: a good share of the generated expressions is rejected (in plain JSON, the invalid
    // patterns on top-level names that every datum reaches).
    expect(rejections).toBeGreaterThan(cases / 20);
  });
});
