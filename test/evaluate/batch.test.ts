import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { clonesSource, columnStepsSource, fieldTestsSource, schemaFieldNames } from "../../scripts/field-code.js";
import { compile, FilterError, schemas } from "../../src/index.js";

// `filter(items)` evaluates in chunks, operand by operand (src/evaluate/batch.ts); the differential
// law checks it against the interpreter on random expressions and lists. These are the cases a reader
// would ask about first.

const errorOf = (run: () => unknown): unknown => {
  try {
    run();
    return undefined;
  } catch (e) {
    if (!FilterError.is(e)) throw e;
    return { code: e.code, message: e.message };
  }
};

describe("filter over chunks", () => {
  it("throws the error of the first failing item, even when a later item fails in an earlier operand", () => {
    // `a == 1` fails on a list; `b == 1` runs only where `a == 1` holds and fails on a list too.
    const items: Record<string, unknown>[] = Array.from({ length: 1500 }, (_, i) => ({ a: 1, b: 1, i }));
    items[700] = { a: [1], b: 1, i: 700 }; // fails in the first operand, in the second chunk
    items[600] = { a: 1, b: [1], i: 600 }; // fails in the second operand, in the same chunk, earlier
    const f = compile("a == 1 and b == 1");
    const first = errorOf(() => f.filter(items));
    expect(first).toEqual(errorOf(() => items.forEach((d) => f.evaluate(d))));
    expect(first).toMatchObject({ message: expect.stringContaining("b") });
  });

  it("keeps the items `or` accepts from any operand, in order, across chunks", () => {
    const items = Array.from({ length: 2000 }, (_, i) => ({ Status: i % 3 === 0 ? "running" : "dead", Priority: i % 5 === 0 ? 50 : 10 }));
    const f = compile('Status == "running" or Priority == 50', { schema: schemas.job });
    const kept = f.filter(items);
    expect(kept).toEqual(items.filter((d) => f.evaluate(d)));
    expect(kept.length).toBe(items.filter((_, i) => i % 3 === 0 || i % 5 === 0).length);
  });

  it("evaluates item by item under a step budget per item (maxSteps)", () => {
    const items = Array.from({ length: 600 }, (_, i) => ({ tags: Array.from({ length: i % 7 }, () => "x") }));
    const f = compile('all tags as t { t == "x" }', { maxSteps: 4 });
    expect(errorOf(() => f.filter(items))).toMatchObject({ code: "too-expensive" });
    expect(compile('all tags as t { t == "x" }').filter(items)).toHaveLength(600);
  });
});

describe("code generated per field name", () => {
  it.each([
    ["column-steps.ts", columnStepsSource],
    ["field-tests.ts", fieldTestsSource],
    ["clones.ts", clonesSource],
  ])("src/evaluate/generated/%s is generated from the current schemas (npm run generate)", (file, source) => {
    expect(readFileSync(new URL(`../../src/evaluate/generated/${file}`, import.meta.url), "utf8")).toBe(source());
  });

  it("cover every field name of the built-in schemas", () => {
    expect(schemaFieldNames()).toEqual(expect.arrayContaining(["Status", "JobSummary", "Summary", "Running", "TaskGroups", "PlacedCanaries"]));
  });
});
