import { describe, expect, it } from "vitest";
import { compile, evaluate, parse, schemas, type Schema } from "../src/index.js";
import { loadCorpus, outcome, type ConformanceCase } from "./support/corpus.js";

const corpus = loadCorpus();
const fidelity = loadCorpus(["fidelity-cases.jsonl"]);
const schemaOf = (c: ConformanceCase): Schema | undefined => (c.kind === "json" ? undefined : schemas[c.kind]);

/** Runs every case through `run` and returns the disagreements (empty when all agree). */
function disagreements(
  run: (c: ConformanceCase) => string,
  accept: (c: ConformanceCase, got: string) => boolean = (c, got) => got === c.expect,
  cases: readonly ConformanceCase[] = corpus,
) {
  const bad: string[] = [];
  for (const c of cases) {
    const got = run(c);
    if (!accept(c, got)) bad.push(`${c.id} ${JSON.stringify(c.expr)}: expected ${c.expect}, got ${got}`);
  }
  return bad;
}

describe("conformance with the reference library", () => {
  it("has the whole corpus", () => {
    expect(corpus.length).toBe(6111);
    expect(new Set(corpus.map((c) => c.expect))).toEqual(new Set(["parse-error", "eval-error", "true", "false"]));
  });

  it("agrees on every parse verdict", () => {
    const bad = disagreements(
      (c) => outcome(() => (parse(c.expr), true)),
      (c, got) => (c.expect === "parse-error") === (got === "parse-error"),
    );
    expect(bad).toEqual([]);
  });

  it("the interpreter agrees on every case, JSON and typed", () => {
    expect(disagreements((c) => outcome(() => evaluate(c.expr, c.datum, { schema: schemaOf(c) })))).toEqual([]);
  });

  it("the compiler agrees on every case without static checks", () => {
    expect(disagreements((c) => outcome(() => compile(c.expr, { schema: schemaOf(c), check: false }).evaluate(c.datum)))).toEqual([]);
  });

  it("static checks reject only expressions that fail on every record", () => {
    let rejected = 0;
    const bad = disagreements(
      (c) => outcome(() => compile(c.expr, { schema: schemaOf(c) }).evaluate(c.datum)),
      (c, got) => {
        if (got === "type-error") rejected++;
        return got === c.expect || (got === "type-error" && c.expect === "eval-error");
      },
    );
    expect(bad).toEqual([]);
    // The checks do find the reference's evaluation failures early.
    expect(rejected).toBeGreaterThan(500);
  });

  it("filter() keeps exactly the items evaluate() accepts, in order", () => {
    const jobs = corpus.filter((c) => c.kind === "job").map((c) => c.datum);
    const f = compile('Status == "running" or Type == "batch"', { schema: schemas.job });
    expect(f.filter(jobs)).toEqual(jobs.filter((j) => f.evaluate(j)));
    expect(f.filter(new Set(jobs))).toEqual(f.filter(jobs));
  });
});

// The reference's limits and byte-level rules (issue 12): answers derived from go-bexpr v0.1.16's source
// (grammar/grammar.go's parse budget, evaluate.go's placeholders, strconv and regexp on bytes).
describe("conformance: the reference's parse budget, depth, byte strings, placeholders, numbers, named groups", () => {
  const cut = (s: string) => (s.length > 60 ? `${s.slice(0, 60)}…` : s);
  it("has its cases", () => {
    expect(fidelity.length).toBeGreaterThan(70);
  });

  it("agrees on every parse verdict", () => {
    const bad = disagreements(
      (c) => outcome(() => (parse(c.expr), true)),
      (c, got) => (c.expect === "parse-error") === (got === "parse-error"),
      fidelity,
    );
    expect(bad.map(cut)).toEqual([]);
  });

  it("the interpreter agrees on every case", () => {
    expect(disagreements((c) => outcome(() => evaluate(c.expr, c.datum, { schema: schemaOf(c) })), undefined, fidelity).map(cut)).toEqual([]);
  });

  it("the compiler agrees on every case without static checks", () => {
    expect(disagreements((c) => outcome(() => compile(c.expr, { schema: schemaOf(c), check: false }).evaluate(c.datum)), undefined, fidelity).map(cut)).toEqual([]);
  });

  it("static checks reject only expressions that fail on every record", () => {
    const bad = disagreements(
      (c) => outcome(() => compile(c.expr, { schema: schemaOf(c) }).evaluate(c.datum)),
      (c, got) => got === c.expect || (got === "type-error" && c.expect === "eval-error"),
      fidelity,
    );
    expect(bad.map(cut)).toEqual([]);
  });
});
