/**
 * The web entry (filter-expr/web, src/web.ts) answers as the package's entry does: on every case of
 * the conformance corpora, its asynchronous `parse`, `compile` (with and without static checks) and
 * `evaluate` give the same answer or the same error (class, code, span, message) as the synchronous
 * ones, and its filters evaluate alike. Both from the build (dist/), as a page imports them.
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as sync from "../src/index.js";
import { loadCorpus, type ConformanceCase } from "./support/corpus.js";
import { describeError, outcome, outcomeAsync } from "./support/outcome.js";

type Web = typeof import("../src/web.js");
const web = (await import(fileURLToPath(new URL("../dist/web.js", import.meta.url)))) as Web;

const schemaOf = (c: ConformanceCase): sync.Schema | undefined => (c.kind === "json" ? undefined : sync.schemas[c.kind]);

/** The evaluation of a compiled filter, or the compile's error. */
function evaluated(compiled: () => sync.Filter, datum: unknown): string {
  let f: sync.Filter;
  try {
    f = compiled();
  } catch (e) {
    return `compile ${describeError(e)}`;
  }
  return outcome(() => f.evaluate(datum));
}

const corpora = [loadCorpus(), loadCorpus(["fidelity-cases.jsonl"]), loadCorpus(["regex-unicode-cases.jsonl"])];

describe("the web entry answers the conformance corpora as the package's entry does", () => {
  it.each(corpora.map((cases, i) => ({ i, cases })))("corpus $i: parse, compile, evaluate, errors included", async ({ cases }) => {
    const bad: string[] = [];
    for (const c of cases) {
      const schema = schemaOf(c);
      const checks: [string, string, string][] = [];
      checks.push(["parse", outcome(() => sync.parse(c.expr)), await outcomeAsync(() => web.parse(c.expr))]);
      checks.push(["evaluate", outcome(() => sync.evaluate(c.expr, c.datum, { schema })), await outcomeAsync(() => web.evaluate(c.expr, c.datum, { schema }))]);
      for (const check of [true, false]) {
        const want = evaluated(() => sync.compile(c.expr, { schema, check }), c.datum);
        let got: string;
        try {
          const f = await web.compile(c.expr, { schema, check });
          got = outcome(() => f.evaluate(c.datum));
        } catch (e) {
          got = `compile ${describeError(e)}`;
        }
        checks.push([`compile check=${check}`, want, got]);
      }
      for (const [what, want, got] of checks) if (want !== got) bad.push(`${c.id} ${what} ${JSON.stringify(c.expr).slice(0, 120)}: ${want} / web ${got}`);
    }
    expect(bad).toEqual([]);
  });

  it("keeps the options' limits and releases: the same errors from the full parser", async () => {
    const texts = ['a == 1 and "/é" == b', "a is nil", "(((a == 1)))", "a == 1 and b == 2 and c == 3", "x matches \"[\"", "", "   ", 'a == "unterminated'];
    const options: sync.CompileOptions[] = [{}, { target: "go-bexpr@0.1.12" }, { maxDepth: 2 }, { maxMatches: 2 }, { maxLength: 5 }, { maxExpressions: 50 }, { target: "nomad@1.10.5" }];
    const bad: string[] = [];
    for (const text of texts) {
      for (const o of options) {
        const want = outcome(() => sync.compile(text, o).ast);
        const got = await outcomeAsync(async () => (await web.compile(text, o)).ast);
        if (want !== got) bad.push(`${JSON.stringify(text)} ${JSON.stringify(o)}: ${want} / web ${got}`);
      }
    }
    await expect(web.compile("a == 1", { target: "bexpr@9" })).rejects.toThrow(sync.UnknownTargetError);
    expect(bad).toEqual([]);
  });

  it("diagnoses as the package's entry does", async () => {
    for (const text of ['Status = "running"', 'Name matches "("', "a == 1 and", 'Status == "running"']) {
      expect(await web.diagnose(text, { schema: sync.schemas.job })).toEqual(sync.diagnose(text, { schema: sync.schemas.job }));
    }
  });
});
