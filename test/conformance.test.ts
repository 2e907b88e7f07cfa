import { describe, expect, it } from "vitest";
import { compile, evaluate, parse, schemas, type Schema } from "../src/index.js";
import { loadCorpus, outcome, type ConformanceCase } from "./support/corpus.js";

const schemaOf = (c: ConformanceCase): Schema | undefined => (c.kind === "json" ? undefined : schemas[c.kind]);
const cut = (s: string) => (s.length > 160 ? `${s.slice(0, 160)}…` : s);

/** Runs every case through `run` and returns the disagreements (empty when all agree). */
function disagreements(
  cases: readonly ConformanceCase[],
  run: (c: ConformanceCase) => string,
  accept: (c: ConformanceCase, got: string) => boolean = (c, got) => got === c.expect,
) {
  const bad: string[] = [];
  for (const c of cases) {
    const got = run(c);
    if (!accept(c, got)) bad.push(cut(`${c.id} ${JSON.stringify(c.expr)} ${JSON.stringify(c.datum)}: expected ${c.expect}, got ${got}`));
  }
  return bad;
}

/** The corpora of test/fixtures (CONFORMANCE.md says where each one's answers come from). */
const corpora = [
  { title: "the reference's recorded corpus", cases: loadCorpus(), size: 6111 },
  {
    title: "the reference's parse budget, depth, byte strings, placeholders, numbers, named groups (answers derived from go-bexpr v0.1.16's source)",
    cases: loadCorpus(["fidelity-cases.jsonl"]),
    size: 80,
  },
  {
    title: "Go 1.23's regexp and Unicode 15.0: class names, case folding, capture names, byte-order marks, the grammar's letters (recorded from go-bexpr v0.1.16 built with Go 1.23.5)",
    cases: loadCorpus(["regex-unicode-cases.jsonl"]),
    size: 5805,
  },
  {
    title: "the allocation, node and evaluation schemas on the scheduler's structs (recorded from go-bexpr v0.1.16 built with Go 1.23.5, scripts/oracles/schema-cases.ts)",
    cases: loadCorpus(["schemas44/schema-cases.jsonl"]),
    size: 3109,
  },
];

describe.each(corpora)("conformance: $title", ({ cases, size }) => {
  it("has its cases, with every kind of answer", () => {
    expect(cases.length).toBe(size);
    expect(new Set(cases.map((c) => c.expect))).toEqual(new Set(["parse-error", "eval-error", "true", "false"]));
  });

  it("agrees on every parse verdict", () => {
    const bad = disagreements(
      cases,
      (c) => outcome(() => (parse(c.expr), true)),
      (c, got) => (c.expect === "parse-error") === (got === "parse-error"),
    );
    expect(bad).toEqual([]);
  });

  it("the interpreter agrees on every case, JSON and typed", () => {
    expect(disagreements(cases, (c) => outcome(() => evaluate(c.expr, c.datum, { schema: schemaOf(c) })))).toEqual([]);
  });

  it("the compiler agrees on every case without static checks", () => {
    expect(disagreements(cases, (c) => outcome(() => compile(c.expr, { schema: schemaOf(c), check: false }).evaluate(c.datum)))).toEqual([]);
  });

  it("static checks reject only expressions that fail on every record", () => {
    const bad = disagreements(
      cases,
      (c) => outcome(() => compile(c.expr, { schema: schemaOf(c) }).evaluate(c.datum)),
      (c, got) => got === c.expect || (got === "type-error" && c.expect === "eval-error"),
    );
    expect(bad).toEqual([]);
  });
});

describe("conformance: the allocation, node and evaluation schemas' corpus", () => {
  const cases = corpora[3]!.cases;

  it("covers each schema with every kind of answer", () => {
    for (const kind of ["allocation", "node", "evaluation"] as const) {
      const own = cases.filter((c) => c.kind === kind);
      expect(own.length, kind).toBeGreaterThan(800);
      expect(new Set(own.map((c) => c.expect)), kind).toEqual(new Set(["eval-error", "true", "false"].concat(own.some((c) => c.expect === "parse-error") ? ["parse-error"] : [])));
    }
  });

  it("reaches every field of every record of the three schemas", () => {
    const names = new Set<string>();
    const visit = (type: Schema["fields"][string]): void => {
      if (type.kind === "record") for (const [name, field] of Object.entries(type.fields)) names.add(name), visit(field);
      else if (type.kind === "list") visit(type.elem);
      else if (type.kind === "map") visit(type.value);
      else if (type.kind === "pointer") visit(type.target);
    };
    for (const schema of [schemas.allocation, schemas.node, schemas.evaluation]) visit(schema);
    const used = cases.map((c) => c.expr).join(" ");
    expect([...names].filter((name) => !new RegExp(`\\b${name}\\b`).test(used))).toEqual([]);
  });
});

describe("conformance: the recorded corpus, beyond single answers", () => {
  const corpus = corpora[0]!.cases;

  it("static checks find the reference's evaluation failures early", () => {
    const rejected = corpus.filter((c) => outcome(() => compile(c.expr, { schema: schemaOf(c) }).evaluate(c.datum)) === "type-error");
    expect(rejected.length).toBeGreaterThan(500);
  });

  it("filter() keeps exactly the items evaluate() accepts, in order", () => {
    const jobs = corpus.filter((c) => c.kind === "job").map((c) => c.datum);
    const f = compile('Status == "running" or Type == "batch"', { schema: schemas.job });
    expect(f.filter(jobs)).toEqual(jobs.filter((j) => f.evaluate(j)));
    expect(f.filter(new Set(jobs))).toEqual(f.filter(jobs));
  });
});
