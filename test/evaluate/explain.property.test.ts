import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, FilterError, print, schemas, selectorsRead, type Explanation, type Expr, type Filter, type WitnessLeaf } from "../../src/index.js";
import { NAMES, exprArb, jsonArb } from "../support/arbitraries.js";
import { MODES, compiledOrRejected, outcome } from "../support/modes.js";
import { runs } from "../support/runs.js";

// `explain`: its result is exactly `evaluate`'s (the answer, or the error: class, code, message and
// span), and its witness follows the reference's short-circuit order.

function explained(x: Explanation): unknown {
  const r = x.result;
  return typeof r === "boolean" ? r : { name: r.name, code: r.code, message: r.message, span: r.span };
}

describe.each(MODES)("explain over $name", ({ names, data, schema }) => {
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
      { numRuns: runs(3_000) },
    );
  });

  it("compiled, it explains as the interpreter does (a budget that never runs out is charged by the interpreter)", () => {
    const ample = () => ({ steps: Number.MAX_SAFE_INTEGER });
    fc.assert(
      fc.property(exprArb(names), fc.boolean(), fc.oneof(data, fc.dictionary(fc.constantFrom(...names), jsonArb(names), { maxKeys: 8 })), (ast, check, datum) => {
        const f = compiledOrRejected(print(ast), { schema, check });
        if (!f) return;
        const x = f.explain(datum);
        const y = f.explain(datum, ample());
        expect(explained(x)).toEqual(explained(y));
        expect(x.witness).toEqual(y.witness);
      }),
      { numRuns: runs(3_000) },
    );
  });
});

/** The keys of the datum that the witness leaves read: the first step of their selectors (bound names excluded). */
function rootKeys(ast: Expr, witness: readonly WitnessLeaf[]): Set<string> {
  const starts = new Set(witness.map((l) => `${l.span.start}:${l.span.end}`));
  const read = selectorsRead(ast).filter((r) => starts.has(`${r.owner.span.start}:${r.owner.span.end}`));
  return new Set(read.flatMap((r) => r.selector.segments.slice(0, 1).map((s) => s.name)));
}

/** JSON objects over the expressions' names. */
const recordArb = fc.dictionary(fc.constantFrom(...NAMES), jsonArb(NAMES), { maxKeys: 8 });

describe("explain's law of sufficiency", () => {
  it("keeping what the witness leaves read and changing everything else never changes the answer, while the same leaves decide", () => {
    let checked = 0;
    fc.assert(
      fc.property(exprArb(NAMES), recordArb, recordArb, (ast, first, other) => {
        const f = compiledOrRejected(print(ast), { check: false });
        if (!f) return;
        const x = f.explain(first);
        if (typeof x.result !== "boolean") return;
        // The witness leaves' inputs from the first datum, every other key from the other one.
        const keep = rootKeys(f.ast, x.witness);
        const mixed: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(other)) if (!keep.has(k)) mixed[k] = v;
        for (const k of keep) if (Object.prototype.hasOwnProperty.call(first, k)) mixed[k] = first[k];
        const y = f.explain(mixed);
        if (typeof y.result !== "boolean") return;
        const reached = x.witness.every((l) => y.witness.some((m) => m.span.start === l.span.start && m.span.end === l.span.end && JSON.stringify(m.elements) === JSON.stringify(l.elements)));
        if (!reached) return;
        checked++;
        expect(y.result).toBe(x.result);
      }),
      { numRuns: runs(6_000) },
    );
    // The law is not vacuous: most cases reach it.
    expect(checked).toBeGreaterThan(300);
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

/**
 * And/or/not over leaves that each read a key of their own and can be made true or false by it (a
 * match, or an any/all with its body): the witness is exactly what decides the answer, compiled and
 * interpreted alike. Every assignment of the leaves is enumerated.
 */
describe("explain's witness over and/or chains, every assignment enumerated", () => {
  /** A leaf's template over its key, with a value that makes it true and one that makes it false. */
  const LEAVES: readonly { text: (k: string) => string; yes: unknown; no: unknown }[] = [
    { text: (k) => `${k} == "x"`, yes: "x", no: "y" },
    { text: (k) => `${k} != "x"`, yes: "y", no: "x" },
    { text: (k) => `"x" in ${k}`, yes: ["x"], no: [] },
    { text: (k) => `${k} is empty`, yes: [], no: ["a"] },
    { text: (k) => `${k} matches "^x"`, yes: "xa", no: "ya" },
    { text: (k) => `${k} == 3`, yes: 3, no: 4 },
    { text: (k) => `${k} == true`, yes: true, no: false },
    { text: (k) => `${k}.b == "x"`, yes: { b: "x" }, no: {} },
    // An any/all comes last in its group, so it is in parentheses of its own.
    { text: (k) => `(any ${k} as e { e == "x" })`, yes: ["y", "x"], no: ["y"] },
    { text: (k) => `(all ${k} as _, v { v.a == 1 })`, yes: { p: { a: 1 } }, no: { p: { a: 1 }, q: { a: 2 } } },
    { text: (k) => `(any ${k} as i { i == "p" })`, yes: { q: 1, p: 2 }, no: { q: 1 } },
  ];
  type Template = (typeof LEAVES)[number];
  type Tree = { leaf: number } | { not: Tree } | { op: "and" | "or"; operands: Tree[] };
  const treeArb = fc.letrec<{ tree: Tree }>((tie) => ({
    tree: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.record({ leaf: fc.integer({ min: 0, max: LEAVES.length - 1 }) }),
      fc.record({ not: tie("tree") }),
      fc.record({ op: fc.constantFrom("and" as const, "or" as const), operands: fc.array(tie("tree"), { minLength: 2, maxLength: 3 }) }),
    ),
  })).tree;

  /** The text, with keys k0, k1, … in order, and each key's leaf template. */
  function render(t: Tree, templates: Template[]): string {
    if ("leaf" in t) {
      const template = LEAVES[t.leaf]!;
      templates.push(template);
      return template.text(`k${templates.length - 1}`);
    }
    // Parentheses only where precedence needs them (each pair costs the reference's parser dearly).
    if ("not" in t) return "leaf" in t.not ? `not ${render(t.not, templates)}` : `not (${render(t.not, templates)})`;
    const op = t.op;
    return t.operands.map((o) => ("op" in o && o.op === "or" && op === "and" ? `(${render(o, templates)})` : render(o, templates))).join(` ${op} `);
  }

  /** The datum of an assignment: leaf i true where bit i is set. */
  const datum = (templates: readonly Template[], bits: number): Record<string, unknown> =>
    Object.fromEntries(templates.map((t, i) => [`k${i}`, bits & (1 << i) ? t.yes : t.no]));
  /** The assignments that keep the bits of `kept` as in `bits` and vary every other leaf. */
  function* variations(count: number, bits: number, kept: number): Generator<number> {
    for (let b = 0; b < 1 << count; b++) if ((b & kept) === (bits & kept)) yield b;
  }

  it("the witness decides the answer, and no leaf of it can be left out", () => {
    const ample = () => ({ steps: Number.MAX_SAFE_INTEGER });
    fc.assert(
      fc.property(treeArb, fc.nat(), (tree, seed) => {
        const templates: Template[] = [];
        const text = render(tree, templates);
        fc.pre(templates.length <= 7);
        let f: Filter;
        try {
          f = compile(text);
        } catch (e) {
          // Parentheses nested deep enough run out of the reference's parse budget (its answer too).
          fc.pre(!(FilterError.is(e) && e.code === "too-many-expressions"));
          throw e;
        }
        const ranges = templates.map((t, i) => {
          const start = text.indexOf(t.text(`k${i}`));
          return [start, start + t.text(`k${i}`).length] as const;
        });
        /** The leaves (keys) a witness reads. */
        const keysOf = (x: Explanation) => new Set(x.witness.map((l) => ranges.findIndex(([s, e]) => l.span.start >= s && l.span.end <= e)));
        const explain = (b: number) => {
          const compiled = f.explain(datum(templates, b));
          expect(compiled).toEqual(f.explain(datum(templates, b), ample()));
          return compiled;
        };
        const bits = seed % (1 << templates.length);
        const x = explain(bits);
        expect(typeof x.result).toBe("boolean");
        const witness = [...keysOf(x)];
        const mask = (leaves: readonly number[]) => leaves.reduce((m, i) => m | (1 << i), 0);
        // Sufficiency: whatever the other leaves, the answer stays.
        for (const b of variations(templates.length, bits, mask(witness))) expect(explain(b).result).toBe(x.result);
        // Minimality: with any one witness leaf left free too, some assignment changes the answer.
        for (const leaf of witness) {
          const others = mask(witness.filter((l) => l !== leaf));
          expect([...variations(templates.length, bits, others)].some((b) => explain(b).result !== x.result)).toBe(true);
        }
      }),
      { numRuns: runs(400) },
    );
  });
});
