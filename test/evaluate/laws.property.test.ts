import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, evaluate, print, schemas, type Expr, type MatchOp, type Schema } from "../../src/index.js";
import { JOB_NAMES, NAMES, exprArb, jobArb, jsonArb, matchArb } from "../support/arbitraries.js";

/** The outcome of a run: its answer or its error class. */
function outcome(run: () => boolean): string {
  try {
    return String(run());
  } catch (e) {
    return (e as Error).name;
  }
}

const modes: { name: string; names: readonly string[]; data: fc.Arbitrary<unknown>; schema: Schema | undefined }[] = [
  { name: "plain JSON", names: NAMES, data: jsonArb(NAMES), schema: undefined },
  { name: "typed job records", names: JOB_NAMES, data: jobArb, schema: schemas.job },
];

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

describe.each(modes)("laws over $name", ({ names, data, schema }) => {
  it("the compiled filter answers as the reference interpreter, error class included", () => {
    fc.assert(
      fc.property(exprArb(names), fc.array(data, { minLength: 1, maxLength: 4 }), (ast, items) => {
        const text = print(ast);
        let f: ReturnType<typeof compile>;
        try {
          f = compile(text, { schema, check: false });
        } catch (e) {
          expect((e as Error).name).toBe("FilterSyntaxError");
          return;
        }
        for (const d of items) expect(outcome(() => f.evaluate(d))).toBe(outcome(() => evaluate(text, d, { schema })));
      }),
      { numRuns: 1500 },
    );
  });

  it("not E is the negation of E, and errors stay errors", () => {
    fc.assert(
      fc.property(exprArb(names, 3), data, (ast, d) => {
        const negated: Expr = { kind: "not", operand: ast, span: ast.span };
        const [a, b] = [print(ast), print(negated)].map((t) => outcome(() => compile(t, { schema, check: false }).evaluate(d)));
        if (a === "true" || a === "false") expect(b).toBe(a === "true" ? "false" : "true");
        else expect(b).toBe(a);
      }),
      { numRuns: 1000 },
    );
  });

  it("each operator's negated form answers the opposite, missing keys included", () => {
    fc.assert(
      fc.property(matchArb(names), data, (m, d) => {
        const flipped = print({ ...m, op: NEGATION[m.op] });
        const a = outcome(() => compile(print(m), { schema, check: false }).evaluate(d));
        const b = outcome(() => compile(flipped, { schema, check: false }).evaluate(d));
        if (a === "true" || a === "false") expect(b).toBe(a === "true" ? "false" : "true");
        else expect(b).toBe(a);
      }),
      { numRuns: 1500 },
    );
  });

  it("static checks reject only what fails on every datum", () => {
    fc.assert(
      fc.property(exprArb(names, 3), fc.array(data, { minLength: 1, maxLength: 4 }), (ast, items) => {
        const text = print(ast);
        let rejected = false;
        try {
          compile(text, { schema });
        } catch (e) {
          rejected = (e as Error).name === "FilterTypeError";
        }
        if (rejected) for (const d of items) expect(outcome(() => evaluate(text, d, { schema }))).toBe("FilterEvaluationError");
      }),
      { numRuns: 1000 },
    );
  });
});
