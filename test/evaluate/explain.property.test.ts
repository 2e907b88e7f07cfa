import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, FilterError, print, schemas, type CompileOptions, type Explanation, type Filter, type Schema } from "../../src/index.js";
import { JOB_NAMES, NAMES, exprArb, jobArb, jsonArb } from "../support/arbitraries.js";

// `explain`: its result is exactly `evaluate`'s (the answer, or the error: class, code, message and
// span), and its witness follows the reference's short-circuit order.

function outcome(run: () => boolean): unknown {
  try {
    return run();
  } catch (e) {
    if (!FilterError.is(e)) throw e;
    return { name: e.name, code: e.code, message: e.message, span: e.span };
  }
}

function explained(x: Explanation): unknown {
  const r = x.result;
  return typeof r === "boolean" ? r : { name: r.name, code: r.code, message: r.message, span: r.span };
}

function compiledOrRejected(text: string, options: CompileOptions): Filter | undefined {
  try {
    return compile(text, options);
  } catch (e) {
    if (!FilterError.is(e) || e.name === "FilterEvaluationError") throw e;
    return undefined;
  }
}

const modes: { name: string; names: readonly string[]; data: fc.Arbitrary<unknown>; schema: Schema | undefined }[] = [
  { name: "plain JSON", names: NAMES, data: jsonArb(NAMES), schema: undefined },
  { name: "typed job records", names: JOB_NAMES, data: jobArb, schema: schemas.job },
];

describe.each(modes)("explain over $name", ({ names, data, schema }) => {
  it("its result is evaluate's: the same answer, or the same error", () => {
    fc.assert(
      fc.property(exprArb(names), fc.boolean(), fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }), data, (ast, check, maxSteps, datum) => {
        const text = print(ast);
        const f = compiledOrRejected(text, { schema, check, maxSteps });
        if (!f) return;
        const x = f.explain(datum);
        expect(explained(x)).toEqual(outcome(() => f.evaluate(datum)));
        // An answer has a witness of leaves inside the text; an error, the leaf that raised it (if any).
        for (const leaf of x.witness) {
          expect(leaf.span.start).toBeGreaterThanOrEqual(0);
          expect(leaf.span.end).toBeLessThanOrEqual(text.length);
        }
        if (typeof x.result === "boolean") expect(x.witness.length).toBeGreaterThan(0);
        else expect(x.witness.every((l) => l.outcome === "error")).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });
});

describe("explain's witness", () => {
  const f = compile('Status == "running" and "dc1" in Datacenters and Priority == 50', { schema: schemas.job });
  const job = { ID: "a", Status: "running", Datacenters: ["dc2"], Priority: 50 };

  it("a false and is its first false operand", () => {
    const x = f.explain(job);
    expect(x.result).toBe(false);
    expect(x.witness).toEqual([
      { kind: "match", span: { start: 24, end: 44 }, selector: "Datacenters", op: "in", read: { value: ["dc2"] }, literal: "dc1", outcome: false, elements: [] },
    ]);
  });

  it("a true and is all of its operands, in order, with the values read", () => {
    const x = f.explain({ ...job, Datacenters: ["dc1"] });
    expect(x.result).toBe(true);
    expect(x.witness.map((l) => [l.selector, l.read, l.outcome])).toEqual([
      ["Status", { value: "running" }, true],
      ["Datacenters", { value: ["dc1"] }, true],
      ["Priority", { value: 50 }, true],
    ]);
  });

  it("or is the mirror; not is its operand's, the leaf's own outcome kept", () => {
    const g = compile("not (Type == batch or Stop == true)", { schema: schemas.job });
    const x = g.explain({ Type: "batch" });
    expect(x.result).toBe(false);
    expect(x.witness.map((l) => [l.selector, l.outcome])).toEqual([["Type", true]]);
    const y = g.explain({ Type: "service", Stop: false });
    expect(y.result).toBe(true);
    expect(y.witness.map((l) => [l.selector, l.outcome])).toEqual([
      ["Type", false],
      ["Stop", false],
    ]);
  });

  it("any is the deciding element (its key) and its body's witness; a missing key is read as missing", () => {
    const g = compile("any JobSummary.Summary as _, s { s.Running == 3 }", { schema: schemas.job });
    const x = g.explain({ JobSummary: { Summary: { api: { Running: 1 }, web: { Running: 3 } } } });
    expect(x.result).toBe(true);
    expect(x.witness.map((l) => [l.kind, l.selector, l.outcome, l.elements])).toEqual([
      ["collection", "JobSummary.Summary", true, []],
      ["match", "s.Running", true, ["web"]],
    ]);
    const none = g.explain({ JobSummary: { Summary: { api: { Running: 1 } } } });
    expect(none.witness.map((l) => [l.kind, l.outcome, l.elements])).toEqual([
      ["collection", false, []],
      ["match", false, ["api"]],
    ]);
    const json = compile('a.b == "x"').explain({ a: {} });
    expect(json.result).toBe(false);
    expect(json.witness).toMatchObject([{ selector: "a.b", read: { missing: true }, outcome: false }]);
  });

  it("an error is the leaf that raised it, and the result is the error evaluate throws", () => {
    const g = compile("JobSummary.Summary.web.Running == 1 or Stop == true", { schema: schemas.job });
    const x = g.explain({ JobSummary: { Summary: {} } });
    expect(x.result).toBeInstanceOf(FilterError);
    expect((x.result as FilterError).code).toBe("missing-key");
    expect(x.witness).toMatchObject([{ selector: "JobSummary.Summary.web.Running", read: undefined, outcome: "error" }]);
  });
});
