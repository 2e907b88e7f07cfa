import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, FilterError, FilterTable, print, schemas, type CompileOptions, type Filter, type FilterTableOptions, type Schema } from "../../src/index.js";
import { JOB_NAMES, NAMES, exprArb, jobArb, jsonArb } from "../support/arbitraries.js";
import { loadCorpus } from "../support/corpus.js";
import { reshape, type Shape } from "../support/shapes.js";
import { runs } from "../support/runs.js";

// The table law: `table.filter(f)` is `f.filter(items)` — the same items in the same order, or the
// same error (class, code, message, span) — for random lists and filters, and after random changes.

function outcome(run: () => unknown): unknown {
  try {
    return run();
  } catch (e) {
    if (!FilterError.is(e)) throw e;
    return { name: e.name, code: e.code, message: e.message, span: e.span };
  }
}

const SHAPES: readonly Shape[] = ["plain", "class", "null-prototype", "holes", "bigint", "negative-zero"];

/** A list drawn from a few distinct rows (so that rows share their values, as real lists do), each reshaped or not. */
function listArb(data: fc.Arbitrary<unknown>): fc.Arbitrary<unknown[]> {
  return fc
    .tuple(fc.array(data, { minLength: 1, maxLength: 4 }), fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SHAPES)), { maxLength: 12 }))
    .map(([pool, picks]) => picks.map(([i, shape]) => reshape(pool[i % pool.length], shape)));
}

type Change = { op: "set" | "insert"; at: number; pick: number } | { op: "push"; pick: number } | { op: "delete"; at: number };
const changeArb: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ op: fc.constant("set" as const), at: fc.nat(), pick: fc.nat() }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), pick: fc.nat() }),
  fc.record({ op: fc.constant("push" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("delete" as const), at: fc.nat() }),
);

const optionsArb: fc.Arbitrary<CompileOptions> = fc.record(
  { check: fc.boolean(), unknownValue: fc.constantFrom<unknown>(null, "", "x", 0, true) },
  { requiredKeys: [] },
);

/** Tables with columns given, built on first use, bounded or not built at all (parts then run row by row). */
const tableOptionsArb = (names: readonly string[]): fc.Arbitrary<FilterTableOptions> =>
  fc.record(
    {
      columns: fc.array(fc.array(fc.constantFrom(...names), { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
      autoColumns: fc.boolean(),
      maxColumns: fc.nat(3),
    },
    { requiredKeys: [] },
  );

const modes: { name: string; names: readonly string[]; data: fc.Arbitrary<unknown>; schema: Schema | undefined }[] = [
  { name: "plain JSON", names: NAMES, data: jsonArb(NAMES), schema: undefined },
  { name: "typed job records", names: JOB_NAMES, data: jobArb, schema: schemas.job },
];

function compiled(text: string, options: CompileOptions): Filter | undefined {
  try {
    return compile(text, options);
  } catch (e) {
    if (!FilterError.is(e) || e.name === "FilterEvaluationError") throw e;
    return undefined; // rejected at compile time: nothing to filter with
  }
}

describe.each(modes)("table.filter(f) = f.filter(items) over $name", ({ names, data, schema }) => {
  it("the same items or the same error, for random lists, filters and options (also as row numbers, and as f.count); a matcher and answers() give each row's answer as f.evaluate", () => {
    fc.assert(
      fc.property(fc.array(exprArb(names), { minLength: 1, maxLength: 3 }), optionsArb, listArb(data), tableOptionsArb(names), (asts, given, items, tableOptions) => {
        const table = FilterTable.from(items, schema === undefined ? tableOptions : { ...tableOptions, schema });
        for (const ast of asts) {
          const f = compiled(print(ast), { ...given, schema });
          if (f === undefined) continue;
          const whole = outcome(() => f.filter(items));
          expect(outcome(() => table.filter(f))).toEqual(whole);
          // Row numbers and counts without the array: the same rows, the same error.
          expect(outcome(() => [...table.indexes(f)].map((i) => table.at(i)))).toEqual(whole);
          const length = Array.isArray(whole) ? whole.length : whole;
          expect(outcome(() => f.count(items))).toEqual(length);
          expect(outcome(() => f.count(items.values()))).toEqual(length);
          // Row by row through a matcher: each row's own answer or error, as f.evaluate gives it.
          const test = table.matcher(f);
          items.forEach((item, i) => expect(outcome(() => test(i))).toEqual(outcome(() => f.evaluate(item))));
          // All at once, over any range: 1, 0, or 2 where f.evaluate throws.
          const from = Math.floor(items.length / 3);
          const states = table.answers(f, from);
          expect([...states]).toEqual(items.slice(from).map((item) => {
            const o = outcome(() => f.evaluate(item));
            return o === true ? 1 : o === false ? 0 : 2;
          }));
        }
      }),
      { numRuns: runs(3_000) },
    );
  });

  it("stays exact after random set, push, insert and delete (answers kept from before the changes included)", () => {
    fc.assert(
      fc.property(fc.array(exprArb(names), { minLength: 1, maxLength: 3 }), listArb(data), fc.array(data, { minLength: 1, maxLength: 4 }), fc.array(changeArb, { maxLength: 8 }), (asts, items, pool, changes) => {
        const filters = asts.map((ast) => compiled(print(ast), { schema })).filter((f) => f !== undefined);
        const table = FilterTable.from(items);
        const list = [...items];
        const agree = () => {
          for (const f of filters) expect(outcome(() => table.filter(f))).toEqual(outcome(() => f.filter(list)));
        };
        agree();
        const versions = [table.version];
        const applied: number[] = [];
        for (const c of changes) {
          applied.push(c.op === "push" || c.op === "insert" || list.length > 0 ? 1 : 0);
          if (c.op === "push") {
            const item = pool[c.pick % pool.length];
            table.push(item);
            list.push(item);
          } else if (c.op === "insert") {
            const item = pool[c.pick % pool.length];
            const at = c.at % (list.length + 1);
            table.insert(at, item);
            list.splice(at, 0, item);
          } else if (list.length > 0) {
            const at = c.at % list.length;
            if (c.op === "set") {
              const item = pool[c.pick % pool.length];
              table.set(at, item);
              list[at] = item;
            } else {
              table.delete(at);
              list.splice(at, 1);
            }
          }
          agree();
          versions.push(table.version);
        }
        expect(table.items()).toEqual(list);
        // Each change moved the version on (a set or delete on an empty list is no change).
        for (let k = 1; k < versions.length; k++) expect(versions[k]! - versions[k - 1]!).toBe(applied[k - 1]);
      }),
      { numRuns: runs(2_000) },
    );
  });
});

describe("FilterTable over the conformance corpora", () => {
  const cases = [...loadCorpus(), ...loadCorpus(["fidelity-cases.jsonl", "regex-unicode-cases.jsonl"])].filter((c) => c.expect !== "parse-error");

  it("answers every case as the reference does, one table per expression over all its data", () => {
    const byExpression = new Map<string, typeof cases>();
    for (const c of cases) byExpression.set(`${c.kind}\u0000${c.expr}`, [...(byExpression.get(`${c.kind}\u0000${c.expr}`) ?? []), c]);
    const bad: string[] = [];
    for (const group of byExpression.values()) {
      const kind = group[0]!.kind;
      const f = compiled(group[0]!.expr, { schema: kind === "json" ? undefined : schemas[kind], check: false });
      if (f === undefined) continue;
      // Each case alone (the reference's answer), then all the expression's data in one table (filter's answer).
      for (const c of group) {
        let got: string;
        try {
          got = String(FilterTable.from([c.datum]).filter(f).length === 1);
        } catch (e) {
          got = FilterError.is(e) ? "eval-error" : "crash";
        }
        if (got !== c.expect) bad.push(`${c.id} ${c.expr}: expected ${c.expect}, got ${got}`);
      }
      const data = group.map((c) => c.datum);
      expect(outcome(() => FilterTable.from(data).filter(f))).toEqual(outcome(() => f.filter(data)));
    }
    expect(bad).toEqual([]);
    expect(byExpression.size).toBeGreaterThan(1000);
  });
});

describe("FilterTable: a negated group between other operands", () => {
  // Found by the first property above (seed -1354407186): the middle operands of an and/or are asked
  // about the rows in an array they also list their kept rows in, and a `not` read the rows it was
  // asked about from it after its operand had overwritten them.
  it.each([
    'Name == "" and not (ID == "" or Stop == true) and ID is empty',
    'ID not matches ID and not (ID == "" or JobSummary is not nil) and ID is empty',
    'Name != "x" or not (ID != "" and Stop == false) or ID == "web-1"',
    'Name == "" and not (not (ID == "" or Stop == true)) and ID is empty and Type == ""',
  ])("%s: the rows f.filter keeps, as row numbers, row by row and as answers", (text) => {
    const items = [{}, { ID: "web-1" }, { ID: "web-2", Stop: true }, {}, { ID: "", Name: "x" }];
    const f = compile(text, { schema: schemas.job, check: false });
    const table = FilterTable.from(items, { schema: schemas.job });
    expect(table.filter(f)).toEqual(f.filter(items));
    expect([...table.indexes(f)].map((i) => table.at(i))).toEqual(f.filter(items));
    const test = table.matcher(f);
    expect(items.map((_, i) => test(i))).toEqual(items.map((item) => f.evaluate(item)));
    expect([...table.answers(f)]).toEqual(items.map((item) => (f.evaluate(item) ? 1 : 0)));
  });
});
