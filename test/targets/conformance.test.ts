/**
 * Every release the scheduler shipped, against its own answers: the corpora of test/fixtures
 * re-answered by go-bexpr 0.1.11–0.1.16 built from source (scripts/oracles), and the version-sensitive
 * cases generated for them. Both evaluators, compiled and interpreted, agree with each release on
 * every case it answered.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BEXPR_VERSIONS, compile, evaluate, parseJson, schemas, type BexprVersion, type Schema } from "../../src/index.js";
import { loadCorpus, outcome, type ConformanceCase } from "../support/corpus.js";

type Answer = ConformanceCase["expect"];
interface VersionCase extends Omit<ConformanceCase, "expect"> {
  readonly expect: Partial<Record<BexprVersion, Answer>>;
}

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/targets/${name}`, import.meta.url));
const lines = (name: string): unknown[] => readFileSync(fixture(name), "utf8").split("\n").filter((l) => l.trim()).map((l) => parseJson(l));

/** The corpora with each release's answers in place of the newest's. */
function corpusCases(): VersionCase[] {
  const byFile = new Map<string, Map<string | number, ConformanceCase>>();
  for (const file of ["bexpr-cases.jsonl", "edge-cases.jsonl", "regex-unicode-cases.jsonl", "fidelity-cases.jsonl"]) {
    byFile.set(file, new Map(loadCorpus([file]).map((c) => [c.id, c])));
  }
  return (lines("corpus-answers.jsonl") as { file: string; id: string | number; expect: VersionCase["expect"] }[]).map((a) => {
    const c = byFile.get(a.file)?.get(a.id);
    if (c === undefined) throw new Error(`corpus-answers.jsonl: no case ${a.id} in ${a.file}`);
    return { ...c, id: `${a.file}#${a.id}`, expect: a.expect };
  });
}

const sets = [
  { title: "the corpora re-answered by each release", cases: corpusCases(), size: 11_996 },
  { title: "the version-sensitive cases generated for them", cases: lines("version-cases.jsonl") as VersionCase[], size: 2_442 },
];

const schemaOf = (c: VersionCase): Schema | undefined => (c.kind === "json" ? undefined : schemas[c.kind]);
const cut = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

describe.each(sets)("conformance per release: $title", ({ cases, size }) => {
  it("has its cases", () => expect(cases.length).toBe(size));

  it.each(BEXPR_VERSIONS)("go-bexpr %s: the compiler and the interpreter give its answer on every case", (v) => {
    const target = `go-bexpr@${v}`;
    const bad: string[] = [];
    let answered = 0;
    for (const c of cases) {
      const want = c.expect[v];
      if (want === undefined) continue;
      answered++;
      const schema = schemaOf(c);
      const interpreted = outcome(() => evaluate(c.expr, c.datum, { schema, target }));
      const compiled = outcome(() => compile(c.expr, { schema, target, check: false }).evaluate(c.datum));
      if (interpreted !== want || compiled !== want) bad.push(cut(`${c.id} ${JSON.stringify(c.expr)}: ${v} answers ${want}; interpreted ${interpreted}, compiled ${compiled}`));
    }
    expect(bad).toEqual([]);
    expect(answered).toBeGreaterThan(cases.length * 0.99);
  });
});
