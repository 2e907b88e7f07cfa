import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FilterEvaluationError, compile, evaluate, print, schemas, type EvaluationBudget, type Schema } from "../../src/index.js";
import { JOB_NAMES, NAMES, exprArb, jobArb, jsonArb } from "../support/arbitraries.js";
import { runs } from "../support/runs.js";

/** The outcome of a run: its answer, its error class, and for a budget error its code and span. */
function outcome(run: () => boolean): string {
  try {
    return String(run());
  } catch (e) {
    if (e instanceof FilterEvaluationError && e.code === "too-expensive") return `too-expensive@${e.span.start}-${e.span.end}`;
    return (e as Error).name;
  }
}

/** What `run` throws (undefined when it returns). */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (e) {
    return e;
  }
  return undefined;
}

const modes: { name: string; names: readonly string[]; data: fc.Arbitrary<unknown>; schema: Schema | undefined }[] = [
  { name: "plain JSON", names: NAMES, data: jsonArb(NAMES), schema: undefined },
  { name: "typed job records", names: JOB_NAMES, data: jobArb, schema: schemas.job },
];

/** Compiles without static checks (the interpreter has none), or undefined for text that does not parse. */
function tryCompile(text: string, schema: Schema | undefined): ReturnType<typeof compile> | undefined {
  try {
    return compile(text, { schema, check: false });
  } catch (e) {
    expect((e as Error).name).toBe("FilterSyntaxError");
    return undefined;
  }
}

describe.each(modes)("evaluation budgets over $name", ({ names, data, schema }) => {
  it("compiled filter and interpreter agree under random budgets: answer, too-expensive span, steps left", () => {
    fc.assert(
      fc.property(exprArb(names), fc.array(data, { minLength: 1, maxLength: 4 }), fc.nat(40), (ast, items, steps) => {
        const text = print(ast);
        const f = tryCompile(text, schema);
        if (f === undefined) return;
        // One budget shared by all items, as a server shares one per request.
        const compiled: EvaluationBudget = { steps };
        const interpreted: EvaluationBudget = { steps };
        for (const d of items) {
          expect(outcome(() => f.evaluate(d, compiled))).toBe(outcome(() => evaluate(text, d, { schema }, interpreted)));
          expect(compiled.steps).toBe(interpreted.steps);
        }
      }),
      { numRuns: runs(1500) },
    );
  });

  it("a budget never changes an answer: either the unbudgeted outcome or too-expensive", () => {
    fc.assert(
      fc.property(exprArb(names), data, fc.nat(30), (ast, d, steps) => {
        const f = tryCompile(print(ast), schema);
        if (f === undefined) return;
        const free = outcome(() => f.evaluate(d));
        const bounded = outcome(() => f.evaluate(d, { steps }));
        if (!bounded.startsWith("too-expensive")) expect(bounded).toBe(free);
      }),
      { numRuns: runs(1000) },
    );
  });

  it("more steps never hurt: what succeeds with a budget succeeds alike with a larger one, using the same steps", () => {
    fc.assert(
      fc.property(exprArb(names), data, fc.nat(30), fc.nat(30), (ast, d, steps, extra) => {
        const f = tryCompile(print(ast), schema);
        if (f === undefined) return;
        const small: EvaluationBudget = { steps };
        const large: EvaluationBudget = { steps: steps + extra };
        const a = outcome(() => f.evaluate(d, small));
        const b = outcome(() => f.evaluate(d, large));
        if (!a.startsWith("too-expensive")) {
          expect(b).toBe(a);
          expect(steps - small.steps).toBe(steps + extra - large.steps);
        }
      }),
      { numRuns: runs(1000) },
    );
  });

  it("compile's maxSteps is a fresh budget per evaluate call", () => {
    fc.assert(
      fc.property(exprArb(names), fc.array(data, { minLength: 1, maxLength: 3 }), fc.nat(30), (ast, items, steps) => {
        const text = print(ast);
        let f: ReturnType<typeof compile>;
        try {
          f = compile(text, { schema, check: false, maxSteps: steps });
        } catch {
          return;
        }
        const g = tryCompile(text, schema)!;
        for (const d of items) expect(outcome(() => f.evaluate(d))).toBe(outcome(() => g.evaluate(d, { steps })));
      }),
      { numRuns: runs(500) },
    );
  });
});

describe("evaluation budgets", () => {
  const datacenters = { Datacenters: Array.from({ length: 8 }, (_, i) => `dc${i}`) };
  /** `any Datacenters as v0 { any Datacenters as v1 { … v0 == "x" … } }`, `depth` levels deep. */
  function nested(depth: number): string {
    let body = 'v0 == "x"';
    for (let i = depth - 1; i >= 0; i--) body = `any Datacenters as v${i} { ${body} }`;
    return body;
  }

  it("a nested filter whose cost is exponential in its depth fails fast at the outermost any", () => {
    const text = `Status == "running" and (${nested(14)})`;
    const f = compile(text, { schema: schemas.job, maxSteps: 100_000 });
    const job = { ...datacenters, Status: "running" };
    const error = thrown(() => f.evaluate(job));
    expect(error).toBeInstanceOf(FilterEvaluationError);
    const e = error as FilterEvaluationError;
    expect(e.code).toBe("too-expensive");
    expect(e.span.start).toBe(text.indexOf("any"));
    expect(e.message).toMatch(/^filter too expensive: the evaluation budget .* at 1:26$/);
    expect(() => evaluate(text, job, { schema: schemas.job, maxSteps: 100_000 })).toThrow(e.message);
  });

  it("without a budget nothing changes, and a sufficient budget gives the same answers", () => {
    const text = nested(3);
    const jobs = [datacenters, { Datacenters: ["x"] }, { Datacenters: [] }];
    const free = compile(text, { schema: schemas.job });
    const bounded = compile(text, { schema: schemas.job, maxSteps: 8 ** 3 * 3 });
    expect(jobs.map((j) => bounded.evaluate(j))).toEqual(jobs.map((j) => free.evaluate(j)));
    expect(free.filter(jobs)).toEqual([jobs[1]]);
  });

  it("a shared budget counts every item: one step per match test of the top level", () => {
    const f = compile('Status == "running" or Priority == 50');
    const budget: EvaluationBudget = { steps: 5 };
    expect(f.evaluate({ Status: "running", Priority: 1 }, budget)).toBe(true);
    expect(f.evaluate({ Status: "x", Priority: 50 }, budget)).toBe(true);
    expect(budget.steps).toBe(1);
    expect(() => f.evaluate({ Status: "running", Priority: 1 }, budget)).toThrow(/filter too expensive/);
    // Once exhausted, it stays exhausted.
    expect(() => f.evaluate({ Status: "running", Priority: 1 }, budget)).toThrow(/filter too expensive/);
  });
});

describe("evaluation budgets: regular expressions cost what their text costs", () => {
  /** The steps `run` takes from a budget large enough for it. */
  const spent = (run: (b: EvaluationBudget) => unknown): number => {
    const b: EvaluationBudget = { steps: 1e12 };
    run(b);
    return 1e12 - b.steps;
  };

  it("a test on re2js costs the text's length times the program's size, charged before it runs", () => {
    // (?i)[a-z]{100}1 is 101 instructions: one step per character and instruction.
    const text = 'Name matches "(?i)[a-z]{100}1"';
    const f = compile(text, { schema: schemas.job });
    const job = { Name: `${"a".repeat(9_999)}1` };
    const cost = spent((b) => f.evaluate(job, b));
    expect(cost).toBe(1 + 10_000 * 101);
    expect(spent((b) => evaluate(text, job, { schema: schemas.job }, b))).toBe(cost);
    // One step short: too expensive, before matching, at the whole expression.
    const error = thrown(() => f.evaluate(job, { steps: cost - 1 }));
    expect((error as FilterEvaluationError).code).toBe("too-expensive");
    expect((error as FilterEvaluationError).span).toEqual({ start: 0, end: text.length });
    expect(f.evaluate(job, { steps: cost })).toBe(true);
  });

  it("a 1 MB text and a large program exhaust a budget at once instead of running for minutes", () => {
    const pattern = `(?i)${"[a-z]{100}".repeat(100)}1`;
    const f = compile(`x matches \`${pattern}\``);
    const d = { x: ("a".repeat(500) + "1").repeat(2_000) };
    expect(() => f.evaluate(d, { steps: 1_000_000 })).toThrow(/filter too expensive/);
  });

  it("exact fast paths cost a step per 64 characters; a short text costs only the match test", () => {
    for (const p of ["web", "^web-1$", "^web-[0-9]+$"]) {
      const f = compile(`Name matches "${p}"`, { schema: schemas.job });
      expect(spent((b) => f.evaluate({ Name: "web-1" }, b))).toBe(1);
      expect(spent((b) => f.evaluate({ Name: `web-${"1".repeat(6_400)}` }, b))).toBe(1 + 100);
    }
  });

  it("the compiler keeps a regular expression where the reference runs it, even before a cheaper test that cannot fail", () => {
    const text = 'Name matches "(?i)[a-z]{20}x" or Status == "running"';
    const f = compile(text, { schema: schemas.job });
    const job = { Name: "a".repeat(1000), Status: "running" };
    // Sorted cheapest first, the equality would decide first and the regex would never be charged.
    expect(spent((b) => f.evaluate(job, b))).toBe(spent((b) => evaluate(text, job, { schema: schemas.job }, b)));
    expect(spent((b) => f.evaluate(job, b))).toBe(2 + 1000 * 21);
  });

  it("inside a collection, the charge falls on the outermost any/all; the compiler keeps regular expressions where they are", () => {
    const text = 'any Datacenters as d { d matches "(?i)[a-z]{20}x" and d == "q" }';
    const f = compile(text, { schema: schemas.job });
    const job = { Datacenters: ["a".repeat(30), "q"] };
    expect(String(f.plan)).toContain("metered");
    const cost = spent((b) => f.evaluate(job, b));
    expect(spent((b) => evaluate(text, job, { schema: schemas.job }, b))).toBe(cost);
    const error = thrown(() => f.evaluate(job, { steps: cost - 1 }));
    expect((error as FilterEvaluationError).span.start).toBe(0);
  });
});
