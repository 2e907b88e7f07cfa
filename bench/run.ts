/**
 * The language benchmarks (benny), all measured in one run so ratios compare like with like:
 *  1. parse time per expression for Q1–Q6;
 *  2. for Q1–Q6 and a few mixed filters over 100,000 generated job list entries: `filter(items)`
 *     against `items.filter(handWritten)`, and `evaluate` per item against the hand-written predicate
 *     per item, on plain JSON and with the job schema; `explain` per item against `evaluate`;
 *  3. cold compile (parse + check; the closures are built on first use) of a distinct expression
 *     each time, against cel-js's parse + type check of the same tests in CEL, and the same with the
 *     closures built (compile and one evaluation); and its growth with the expression's size
 *     (or-chains of 10, 100 and 1,000 matches, with and without the replay of the reference's parse
 *     budget, and cel-js's);
 *  4. FilterTable against hand-written code (bench/table.ts, which prints its own summary);
 *  5. start-up and `filter-check --data` against jq, whole processes (bench/start.ts).
 * Results are written to bench/results/<version>/ as JSON; a summary with the ratios is printed.
 *
 *   npm run bench            (builds dist/, then about fifteen minutes)
 *   npm run bench -- --quick (shorter samples)
 */
import { Environment } from "@marcbachmann/cel-js";
import b from "benny";
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateJobs } from "./jobs.js";
import { MIXED, QUERIES } from "./queries.js";

/**
 * The library under test: the published build (`dist/`, built by `npm run bench`), not the sources
 * through tsx, whose esbuild `keepNames` slows down every closure created per call (compiles and
 * checks build many). FILTER_EXPR_BENCH_LIB points at another build, to compare two versions.
 */
const LIB = process.env.FILTER_EXPR_BENCH_LIB ?? fileURLToPath(new URL("../dist/index.js", import.meta.url));
const { compile, parse, schemas } = (await import(pathToFileURL(LIB).href)) as typeof import("../src/index.js");
console.log(`library: ${LIB}`);

const quick = process.argv.includes("--quick");
const options = { minSamples: quick ? 5 : 20, maxTime: quick ? 0.5 : 2 };
const version = (JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8")) as { version: string }).version;
const save = (file: string) => b.save({ file, folder: fileURLToPath(new URL(`./results/${version}`, import.meta.url)), version, format: "json", details: false });

/** Operations per second of each case of a finished suite. */
type Summary = { results: { name: string; ops: number }[] };
const ops = (s: Summary, name: string): number => s.results.find((r) => r.name === name)!.ops;

const jobs = generateJobs(100_000);
const lines: string[] = [];

// 1. Parse
const parseSummary = (await b.suite(
  "parse",
  ...QUERIES.map((q) => b.add(q.id, () => parse(q.expression), options)),
  b.cycle(),
  save("parse"),
)) as unknown as Summary;
lines.push("parse time per expression:");
for (const q of QUERIES) lines.push(`  ${q.id}  ${(1e6 / ops(parseSummary, q.id)).toFixed(2)} µs`);

// 2. Throughput against hand-written predicates: `filter(jobs)` against `jobs.filter(hand)`, and
// `evaluate` per item against the hand-written predicate per item, on plain JSON and with the schema.
type Ratios = { json: number[]; typed: number[] };
const filterRatios: Ratios = { json: [], typed: [] };
const itemRatios: Ratios = { json: [], typed: [] };
const explainRatios: Ratios = { json: [], typed: [] };
/** A predicate through `explain`: its result, and its witness touched (a true result always has one). */
const explained = (f: { explain: (j: Record<string, unknown>) => { result: unknown; witness: readonly unknown[] } }) => (j: Record<string, unknown>) => {
  const x = f.explain(j);
  return x.result === true && x.witness.length > 0;
};
lines.push("100,000 job list entries (time per item; ratio to hand-written code in the same run):");
lines.push("  filter(items) against items.filter(hand-written) | evaluate(item) against hand-written(item), both in a loop");
for (const q of [...QUERIES, ...MIXED]) {
  const json = compile(q.expression);
  const typed = compile(q.expression, { schema: schemas.job });
  const hand = q.handWritten;
  const counts = [jobs.filter(hand).length, json.filter(jobs).length, typed.filter(jobs).length, jobs.filter((j) => json.evaluate(j)).length];
  if (new Set(counts).size !== 1) throw new Error(`${q.id}: the filters disagree (${counts.join(", ")})`);
  const count = (f: (j: Record<string, unknown>) => boolean) => () => {
    let n = 0;
    for (let i = 0; i < jobs.length; i++) if (f(jobs[i]!)) n++;
    return n;
  };
  const s = (await b.suite(
    q.id,
    b.add("hand-written filter", () => jobs.filter(hand).length, options),
    b.add("filter, JSON", () => json.filter(jobs).length, options),
    b.add("filter, typed", () => typed.filter(jobs).length, options),
    b.add("hand-written per item", count(hand), options),
    b.add("evaluate, JSON", count(json.evaluate), options),
    b.add("evaluate, typed", count(typed.evaluate), options),
    b.add("explain, JSON", count(explained(json)), options),
    b.add("explain, typed", count(explained(typed)), options),
    b.cycle(),
    save(`filter-${q.id}`),
  )) as unknown as Summary;
  const ns = (name: string) => 1e9 / ops(s, name) / jobs.length;
  const ratio = (name: string, base: string) => ops(s, base) / ops(s, name);
  const cell = (name: string, base: string) => `${ns(name).toFixed(1)} ns (${ratio(name, base).toFixed(2)}×)`;
  filterRatios.json.push(ratio("filter, JSON", "hand-written filter"));
  filterRatios.typed.push(ratio("filter, typed", "hand-written filter"));
  itemRatios.json.push(ratio("evaluate, JSON", "hand-written per item"));
  itemRatios.typed.push(ratio("evaluate, typed", "hand-written per item"));
  explainRatios.json.push(ratio("explain, JSON", "evaluate, JSON"));
  explainRatios.typed.push(ratio("explain, typed", "evaluate, typed"));
  lines.push(
    `  ${q.id}  filter: hand ${ns("hand-written filter").toFixed(1)} ns  JSON ${cell("filter, JSON", "hand-written filter")}  typed ${cell("filter, typed", "hand-written filter")}` +
      `  | evaluate: hand ${ns("hand-written per item").toFixed(1)} ns  JSON ${cell("evaluate, JSON", "hand-written per item")}  typed ${cell("evaluate, typed", "hand-written per item")}  [${counts[0]} match]` +
      `  | explain: JSON ${cell("explain, JSON", "evaluate, JSON")}  typed ${cell("explain, typed", "evaluate, typed")} (ratio to evaluate)`,
  );
}
const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const summary = (r: Ratios, label: string) => {
  const six = (xs: number[]) => xs.slice(0, QUERIES.length);
  return `  ${label}: Q1–Q6 JSON ${geomean(six(r.json)).toFixed(2)}×, typed ${geomean(six(r.typed)).toFixed(2)}×, both ${geomean([...six(r.json), ...six(r.typed)]).toFixed(2)}×; with M1–M${MIXED.length} ${geomean([...r.json, ...r.typed]).toFixed(2)}×`;
};
lines.push("  geometric means of the ratios:");
lines.push(summary(filterRatios, "filter  "));
lines.push(summary(itemRatios, "evaluate"));
lines.push(summary(explainRatios, "explain (to evaluate)"));

// 3. Cold compile of distinct expressions, against cel-js's parse + type check of the same tests in
// CEL (an Environment declaring the job's fields), which is what a compile must at least do.
const cel = new Environment();
for (const [name, type] of Object.entries({ ID: "string", Name: "string", Namespace: "string", ParentID: "string", Status: "string", Type: "string", Priority: "int", Stop: "bool", Datacenters: "list", JobSummary: "map" })) {
  cel.registerVariable(name, type);
}
let n = 0;
const cold = (await b.suite(
  "cold compile",
  b.add("JSON", () => compile(`Priority == ${n++} and Status == "s${n}"`), options),
  b.add("typed", () => compile(`Priority == ${n++} and Status == "s${n}"`, { schema: schemas.job }), options),
  ...QUERIES.map((q) => b.add(`${q.id} typed`, () => compile(`${q.expression} or ID == "${n++}"`, { schema: schemas.job }), options)),
  ...QUERIES.map((q) => b.add(`${q.id} typed, run once`, () => compile(`${q.expression} or ID == "${n++}"`, { schema: schemas.job }).evaluate(jobs[n % jobs.length]!), options)),
  ...QUERIES.map((q) => b.add(`${q.id} cel-js`, () => cel.check(`${q.cel} || ID == "${n++}"`), options)),
  b.cycle(),
  save("compile"),
)) as unknown as Summary;
const us = (s: Summary, name: string): number => 1e6 / ops(s, name);
lines.push("cold compile (parse + check; closures built on first use) of a distinct expression; cel-js's parse + check of the same test; compile and one evaluation (closures built):");
for (const name of ["JSON", "typed"]) lines.push(`  ${name.padEnd(9)} ${us(cold, name).toFixed(2)} µs`);
const ratioTo = (name: string, q: string) => (us(cold, name) / us(cold, `${q} cel-js`)).toFixed(2);
for (const q of QUERIES) {
  lines.push(`  ${`${q.id} typed`.padEnd(9)} ${us(cold, `${q.id} typed`).toFixed(2)} µs   cel-js ${us(cold, `${q.id} cel-js`).toFixed(2)} µs (${ratioTo(`${q.id} typed`, q.id)}×)   run once ${us(cold, `${q.id} typed, run once`).toFixed(2)} µs (${ratioTo(`${q.id} typed, run once`, q.id)}×)`);
}
const ours = QUERIES.map((q) => us(cold, `${q.id} typed`));
const once = QUERIES.map((q) => us(cold, `${q.id} typed, run once`));
const theirs = QUERIES.map((q) => us(cold, `${q.id} cel-js`));
lines.push(`  geometric mean Q1–Q6 ${geomean(ours).toFixed(2)} µs, cel-js ${geomean(theirs).toFixed(2)} µs (${(geomean(ours) / geomean(theirs)).toFixed(2)}×); compile and one evaluation ${geomean(once).toFixed(2)} µs (${(geomean(once) / geomean(theirs)).toFixed(2)}×)`);

// 3b. Compile growth: an or-chain of n distinct matches; the reference's parse budget is replayed
// step by step once the text could run out of it (about 8,000 characters at depth 0).
const chain = (terms: number, or: string) => Array.from({ length: terms }, (_, i) => `Priority == ${n++ + i}`).join(or);
const growthSizes = [10, 100, 1000];
const growth = (await b.suite(
  "compile growth",
  ...growthSizes.map((terms) => b.add(`${terms} terms`, () => compile(chain(terms, " or "), { schema: schemas.job }), { ...options, minSamples: 5 })),
  ...growthSizes.map((terms) => b.add(`${terms} terms, no budget`, () => compile(chain(terms, " or "), { schema: schemas.job, maxExpressions: Infinity }), { ...options, minSamples: 5 })),
  ...growthSizes.map((terms) => b.add(`${terms} terms, cel-js`, () => cel.check(chain(terms, " || ")), { ...options, minSamples: 5 })),
  b.cycle(),
  save("compile-growth"),
)) as unknown as Summary;
lines.push("compile growth (or-chains, typed; per term):");
for (const terms of growthSizes) {
  const per = (name: string) => (us(growth, name) / terms).toFixed(2);
  const ratio = us(growth, `${terms} terms`) / us(growth, `${terms} terms, cel-js`);
  lines.push(`  ${String(terms).padStart(5)} terms  ${per(`${terms} terms`)} µs/term (${ratio.toFixed(2)}× cel-js's ${per(`${terms} terms, cel-js`)})   without the budget replay ${per(`${terms} terms, no budget`)} µs/term`);
}

console.log(`\n${lines.join("\n")}`);

// 4. FilterTable against hand-written code (bench/table.ts; the same flags)
await import("./table.js");

// 5. Start-up and filter-check --data, whole processes (bench/start.ts)
await import("./start.js");
