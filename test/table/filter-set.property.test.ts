/**
 * `FilterSet` answers exactly as evaluating every filter: the same matches in the order the filters
 * were added, the same failures (class and code), after adds, replacements and deletes, for typed
 * records and plain JSON; and its index spares the filters whose key leaf is false.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, FilterSet, print, schemas, type Expr, type Filter } from "../../src/index.js";
import { exprArb } from "../support/arbitraries.js";
import { compiledOrRejected, MODES } from "../support/modes.js";
import { runs } from "../support/runs.js";

const SPAN = { start: 0, end: 0 };

/** What evaluating each filter gives: matching keys in order, and failures by key and code. */
function naive(filters: readonly [number, Filter][], item: unknown) {
  const matched: number[] = [];
  const failed: [number, string][] = [];
  for (const [key, f] of filters) {
    try {
      if (f.evaluate(item)) matched.push(key);
    } catch (e) {
      failed.push([key, (e as { code: string }).code]);
    }
  }
  return { matched, failed };
}

/** A leading equality on a field (string fields of the job among them) and a random rest. */
function leadingEquality(names: readonly string[], fields: readonly string[], texts: readonly string[]): fc.Arbitrary<Expr> {
  const eq = fc.tuple(fc.constantFrom(...fields), fc.constantFrom(...texts)).map(([name, text]): Expr => ({
    kind: "match",
    op: "==",
    selector: { kind: "selector", form: "path", segments: [{ kind: "name", name, span: SPAN }], raw: "", span: SPAN },
    value: { kind: "literal", type: "string", raw: JSON.stringify(text), text, span: SPAN },
    opSpan: SPAN,
    span: SPAN,
  }));
  return fc.tuple(fc.array(eq, { minLength: 1, maxLength: 2 }), fc.option(exprArb(names, 2), { nil: undefined })).map(([eqs, rest]): Expr => {
    const parts = rest === undefined ? eqs : [...eqs, rest];
    return parts.length === 1 ? parts[0]! : { kind: "and", operands: parts, span: SPAN };
  });
}

describe.each(MODES)("FilterSet ($name)", ({ names, data, schema }) => {
  const filterArb = fc.oneof(leadingEquality(names, schema ? ["Status", "Type", "ID", "Priority", "Stop"] : names, ["running", "dead", "batch", "web-1", "/x", "", "50", "true"]), exprArb(names, 3));

  it("answers exactly as evaluating every filter, through adds, replacements and deletes", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(12), filterArb), { minLength: 1, maxLength: 24 }), fc.array(fc.nat(12), { maxLength: 4 }), fc.array(data, { minLength: 1, maxLength: 5 }), (adds, deletes, items) => {
        const set = new FilterSet<number>();
        const live = new Map<number, Filter>();
        for (const [key, ast] of adds) {
          const f = compiledOrRejected(print(ast), { schema, check: false });
          if (f === undefined) continue;
          set.add(key, f);
          live.delete(key);
          live.set(key, f);
        }
        for (const key of deletes) expect(set.delete(key)).toBe(live.delete(key));
        expect(set.size).toBe(live.size);
        for (const item of items) {
          const got = set.match(item);
          const want = naive([...live], item);
          expect({ matched: got.matched, failed: got.failed.map((x) => [x.key, x.error.code]) }).toEqual(want);
        }
      }),
      { numRuns: runs(400) },
    );
  });
});

describe.each(MODES)("FilterSet with shared filters ($name)", ({ names, data, schema }) => {
  const settingsArb = fc.constantFrom<object>({}, { maxSteps: 3 }, { target: "go-bexpr@0.1.11" }, { unknownValue: "x" }, { unknownValue: undefined });

  it("answers as evaluating every filter when many subscribers share a few expressions and settings", () => {
    fc.assert(
      fc.property(fc.array(exprArb(names, 3), { minLength: 1, maxLength: 3 }), fc.array(fc.tuple(fc.nat(2), settingsArb), { minLength: 1, maxLength: 20 }), fc.array(data, { minLength: 1, maxLength: 4 }), (asts, adds, items) => {
        const set = new FilterSet<number>();
        const live: [number, Filter][] = [];
        for (const [key, [which, settings]] of adds.entries()) {
          const ast = asts[which % asts.length]!;
          const f = compiledOrRejected(print(ast), { schema, check: false, ...settings });
          if (f === undefined) continue;
          set.add(key, f);
          live.push([key, f]);
        }
        for (const item of items) {
          const got = set.match(item);
          const want = naive(live, item);
          expect({ matched: got.matched, failed: got.failed.map((x) => [x.key, x.error.code]) }).toEqual(want);
        }
      }),
      { numRuns: runs(400) },
    );
  });
});

describe.each(MODES)("FilterSet with a budget per evaluation ($name)", ({ names, data, schema }) => {
  const filterArb = fc.oneof(leadingEquality(names, schema ? ["Status", "Type", "ID", "Priority", "Stop"] : names, ["running", "dead", "batch", "web-1", "", "50"]), exprArb(names, 3));

  it("answers as evaluating every filter with the same budget, too-expensive included", () => {
    fc.assert(
      fc.property(fc.array(filterArb, { minLength: 1, maxLength: 16 }), fc.integer({ min: 0, max: 12 }), fc.array(data, { minLength: 1, maxLength: 5 }), (asts, steps, items) => {
        const set = new FilterSet<number>();
        const live: [number, Filter][] = [];
        for (const [key, ast] of asts.entries()) {
          const f = compiledOrRejected(print(ast), { schema, check: false });
          if (f === undefined) continue;
          set.add(key, f, (item) => f.evaluate(item, { steps }), steps);
          live.push([key, { ...f, evaluate: (item: unknown) => f.evaluate(item, { steps }) } as Filter]);
        }
        for (const item of items) {
          const got = set.match(item);
          const want = naive(live, item);
          expect({ matched: got.matched, failed: got.failed.map((x) => [x.key, x.error.code]) }).toEqual(want);
        }
      }),
      { numRuns: runs(400) },
    );
  });

});

describe("FilterSet's index with a budget", () => {
  it("keeps indexing where the budget covers the steps before the key leaf", () => {
    const f = compile('Status == "running" and Priority == 5', { schema: schemas.job });
    const set = new FilterSet<string>();
    set.add("f", f, (item) => f.evaluate(item, { steps: 2 }), 2);
    expect(set.match({ Status: "dead", Priority: 5 }).evaluated).toBe(0);
    // One step fewer than the top level's two match tests: every evaluation fails, so each is run.
    set.add("f", f, (item) => f.evaluate(item, { steps: 1 }), 1);
    const r = set.match({ Status: "dead", Priority: 5 });
    expect([r.evaluated, r.failed.map((x) => x.error.code)]).toEqual([1, ["too-expensive"]]);
  });
});

describe("FilterSet's shared evaluations", () => {
  it("evaluates a filter many subscribers share once per item", () => {
    const set = new FilterSet<number>();
    for (let i = 0; i < 50; i++) set.add(i, compile("Datacenters is empty or Stop == true", { schema: schemas.job }));
    set.add(50, compile("Datacenters is empty or Stop == true", { schema: schemas.job, maxSteps: 10 }));
    const r = set.match({ Datacenters: [], Stop: false });
    expect([r.matched.length, r.evaluated]).toEqual([51, 2]);
  });
});

describe("FilterSet's index", () => {
  it("evaluates only the filters whose key leaf holds", () => {
    const set = new FilterSet<string>();
    const statuses = ["running", "pending", "dead"];
    for (let i = 0; i < 300; i++) set.add(`s${i}`, compile(`Status == "${statuses[i % 3]}" and Priority == ${i}`, { schema: schemas.job }));
    // Priority is an int field: one leaf per distinct text, evaluated once per item.
    for (let i = 0; i < 30; i++) set.add(`p${i}`, compile(`Priority == ${i} and Status == "running"`, { schema: schemas.job }));
    // No key leaf (a pointer on the way can fail): evaluated on every item.
    set.add("summary", compile("JobSummary.Children.Running == 1", { schema: schemas.job }));
    const r = set.match({ Status: "running", Priority: 3 });
    expect(r.matched).toEqual(["s3", "p3"]);
    expect(r.evaluated).toBe(100 + 1 + 1);
  });
});

describe("FilterSet, as docs/api.md shows it", () => {
  it("matches, deletes and counts what it evaluated", () => {
    const set = new FilterSet<string>();
    set.add("tail-web", compile('ID == "web" and Status != "dead"', { schema: schemas.job }));
    set.add("batch", compile('Type == "batch"', { schema: schemas.job }));
    expect(set.match({ ID: "api", Type: "batch" })).toEqual({ matched: ["batch"], failed: [], evaluated: 1 });
    expect(set.delete("batch")).toBe(true);
    expect(set.match({ ID: "api", Type: "batch" })).toEqual({ matched: [], failed: [], evaluated: 0 });
  });
});
