import { describe, expect, it } from "vitest";
import { compile, evaluate, parse, schemas, type Schema } from "../src/index.js";
import { loadCorpus, outcome, type ConformanceCase } from "./support/corpus.js";

const corpus = loadCorpus();
const schemaOf = (c: ConformanceCase): Schema | undefined => (c.kind === "json" ? undefined : schemas[c.kind]);

/** Runs every case through `run` and returns the disagreements (empty when all agree). */
function disagreements(run: (c: ConformanceCase) => string, accept: (c: ConformanceCase, got: string) => boolean = (c, got) => got === c.expect) {
  const bad: string[] = [];
  for (const c of corpus) {
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
