import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FilterError, t, type Type } from "../../src/index.js";
import { OPERATIONS, applyOperator, impossibleOn, staticTest, type BaseOp } from "../../src/semantics/table.js";
import type { Site } from "../../src/semantics/match-errors.js";
import { literalValue } from "../../src/semantics/values.js";
import { compilePattern } from "../../src/semantics/regex.js";
import { typed } from "../../src/semantics/select.js";
import { runs } from "../support/runs.js";

// The operator table (src/semantics/table.ts) is the only statement of what each operator means on
// each kind; its consumers rely on three promises, checked here over every base operation, a spread
// of static types (the job schema covers few of them) and raw values of every shape:
// - a test the table says cannot fail (`staticTest`) never throws, answers as the interpreter, and
//   reads a raw record field (absent, mistyped) as `typed` reads it (the fast paths and SQL's zero
//   values read raw values through it);
// - a match the static checker calls impossible (`impossibleOn`) fails on every value of the type.

const BASES = Object.keys(OPERATIONS) as BaseOp[];
const SCALARS: Type[] = [t.string, t.int, t.uint, t.float, t.bool];
const RECORD = t.record("R", { A: t.int });
const TYPES: Type[] = [
  ...SCALARS,
  t.any,
  RECORD,
  t.map(t.any),
  t.map(t.string),
  t.list(t.any),
  t.list(RECORD),
  t.list(t.map(t.any)),
  t.list(t.pointer(t.int)),
  t.list(t.pointer(t.float)),
  t.list(t.pointer(t.string)),
  ...SCALARS.map((s) => t.list(s)),
  ...[...SCALARS, RECORD, t.list(t.string), t.map(t.any)].map((s) => t.pointer(s)),
];

const scalar = fc.oneof(
  fc.constantFrom<unknown>("", "x", "1", "true", 0, 1, -1, 1.5, Number.NaN, 0n, 1n, 2n ** 64n, true, false, null, undefined),
  fc.string({ maxLength: 3 }),
);
const valueArb = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom("x", "1", "", "A"), scalar, { maxKeys: 2 }));
const literalArb = fc.constantFrom("", "0", "1", "-1", "x", "true", "False", "1.5", "1e400", "18446744073709551616", "9007199254740993", "(", "^x");
const site: Site = { source: "X", span: { start: 0, end: 1 }, selector: "X", op: "==" };

function outcome(run: () => boolean): unknown {
  try {
    return run();
  } catch (e) {
    if (!FilterError.is(e)) throw e;
    return { code: e.code, message: e.message };
  }
}

describe("the operator table", () => {
  it("tests it calls infallible never fail, answer as the interpreter, and read raw fields as typed values", () => {
    fc.assert(
      fc.property(fc.constantFrom(...BASES), fc.constantFrom(...TYPES), literalArb, fc.array(valueArb, { maxLength: 8 }), (base, type, text, raws) => {
        const lit = literalValue(text);
        const pattern = base === "matches" ? compilePattern(text) : undefined;
        const known = staticTest(base, { site, type, lit, pattern });
        if (known === undefined) return;
        for (const raw of raws) {
          const value = typed(type, raw);
          const answer = applyOperator(base, site, type, value, lit, pattern);
          expect(known.test(value)).toBe(answer);
          expect(known.test(raw)).toBe(answer);
        }
      }),
      { numRuns: runs(3000) },
    );
  });

  it("a match the static checker calls impossible fails on every value of the type", () => {
    let judged = 0;
    fc.assert(
      fc.property(fc.constantFrom(...BASES), fc.constantFrom(...TYPES), literalArb, fc.array(valueArb, { maxLength: 8 }), (base, type, text, raws) => {
        const lit = literalValue(text);
        if (impossibleOn(base, type, lit) === undefined) return;
        judged++;
        const pattern = base === "matches" ? compilePattern(text) : undefined;
        for (const raw of raws) {
          const r = outcome(() => applyOperator(base, site, type, typed(type, raw), lit, pattern));
          expect(typeof r).toBe("object");
        }
      }),
      { numRuns: runs(3000) },
    );
    expect(judged).toBeGreaterThan(100);
  });
});
