import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, evaluate, FilterError, print, schemas, type CompileOptions } from "../../src/index.js";
import { exprArb } from "../support/arbitraries.js";
import { MODES, compiledOrRejected, outcome } from "../support/modes.js";
import { reshape, type Shape } from "../support/shapes.js";
import { runs } from "../support/runs.js";

// The differential law, strict: the compiled filter answers exactly as the reference interpreter
// (src/evaluate/interpret.ts, the executable specification) — the same true or false, or the same
// error: class, code, message and span — for every option, with and without a schema and static
// checks, over plain data and over data that is not plain JSON.

/** What `filter` says: the items it keeps (the same objects, in order), or its error. */
function filterOutcome(run: () => readonly unknown[]): unknown {
  try {
    return { kept: run() };
  } catch (e) {
    if (!FilterError.is(e)) throw e;
    return { name: e.name, code: e.code, message: e.message, span: e.span };
  }
}

/** The items the interpreter accepts, in order, or the first error in item order: what `filter` must say. */
function interpreterFilter(text: string, items: readonly unknown[], options: CompileOptions): unknown {
  return filterOutcome(() => items.filter((d) => evaluate(text, d, options)));
}

/** Data that is not plain JSON (`support/shapes.ts`). */
const SHAPES: readonly Shape[] = ["plain", "class", "null-prototype", "holes", "bigint"];

/** Every option the filter takes that changes answers. */
const optionsArb: fc.Arbitrary<CompileOptions> = fc.record(
  {
    check: fc.boolean(),
    unknownValue: fc.constantFrom<unknown>(null, "", "x", 0, 1, true, false),
    maxSteps: fc.integer({ min: 0, max: 40 }),
  },
  { requiredKeys: [] },
);

describe.each(MODES)("compiled = interpreter over $name, strictly", ({ names, data, schema }) => {
  it("the same answer, or the same error (class, code, message, span), with every option and data shape", () => {
    fc.assert(
      fc.property(exprArb(names), optionsArb, fc.constantFrom(...SHAPES), fc.array(data, { minLength: 1, maxLength: 3 }), (ast, given, shape, items) => {
        const text = print(ast);
        const options: CompileOptions = { ...given, schema };
        const compiled = compiledOrRejected(text, options);
        if (!compiled) return;
        const data = items.map((item) => reshape(item, shape));
        for (const datum of data) {
          expect(outcome(() => compiled.evaluate(datum))).toEqual(outcome(() => evaluate(text, datum, options)));
        }
        // `filter` runs the program over chunks of items (`evaluate/batch.ts`): the same items, or the same first error.
        expectSameItems(filterOutcome(() => compiled.filter(data)), interpreterFilter(text, data, options));
      }),
      { numRuns: runs(10_000) },
    );
  });

  it("filter over lists longer than a chunk: the items the interpreter keeps, or its first error in item order", () => {
    // Items of all kinds, repeated past a chunk's 512 (reshaped copies are new objects), so that
    // errors and kept items fall in several chunks and in any operand's turn.
    const longList = fc.tuple(fc.array(data, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 1300 }), fc.constantFrom(...SHAPES));
    fc.assert(
      fc.property(exprArb(names), fc.boolean(), longList, (ast, check, [items, length, shape]) => {
        const text = print(ast);
        const options: CompileOptions = { check, schema };
        const compiled = compiledOrRejected(text, options);
        if (!compiled) return;
        const data = Array.from({ length }, (_, i) => reshape(items[i % items.length], shape));
        expectSameItems(filterOutcome(() => compiled.filter(data)), interpreterFilter(text, data, options));
      }),
      { numRuns: runs(300) },
    );
  });
});

/** Equal outcomes, kept items compared by identity. */
function expectSameItems(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  if (actual && typeof actual === "object" && "kept" in actual) {
    const [a, b] = [(actual as { kept: unknown[] }).kept, (expected as { kept: unknown[] }).kept];
    expect(a.every((x, i) => x === b[i])).toBe(true);
  }
}

describe("regressions the strict law found", () => {
  it("a missing last key with unknownValue: `a.b is nil` on {} is true, as in the interpreter", () => {
    expect(compile("a.b is nil", { unknownValue: null }).evaluate({})).toBe(true);
    expect(evaluate("a.b is nil", {}, { unknownValue: null })).toBe(true);
  });

  it("with check: false, `JobSummary.web is empty` on a null JobSummary fails as the interpreter fails", () => {
    const text = "JobSummary.web is empty";
    const job = { JobSummary: null };
    expect(outcome(() => compile(text, { schema: schemas.job, check: false }).evaluate(job))).toEqual(
      outcome(() => evaluate(text, job, { schema: schemas.job, check: false })),
    );
    expect(outcome(() => evaluate(text, job, { schema: schemas.job }))).toMatchObject({ code: "invalid-path" });
  });
});
