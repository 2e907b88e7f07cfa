/**
 * The language benchmarks, each figure a ratio between cases timed in the same rounds of one process
 * (bench/rounds.ts: interleaved, the order rotating, CPU time, median and spread):
 *  1. parse time per expression, Q1–Q6;
 *  2. per item, over 100,000 job list entries of two data sets (the few values of `generateJobs`, and
 *     `generateRealisticJobs`'s real cardinalities), for Q1–Q6 and M1–M3:
 *     - the baseline: the count a user writes for that one query, a loop of its own with the test
 *       inline (bench/queries.ts `inline`), and `jobs.filter(hand-written)`;
 *     - `evaluate` typed (job schema) and on plain JSON, each called from a loop of its own per query
 *       and mode (as the baseline's loop is its own), `f.count(jobs)` and `f.filter(jobs)`;
 *     - `explain` typed and JSON (reading its result and witness), against `evaluate`;
 *  3. compile (parse + check; closures are built on first use) of a distinct expression each time,
 *     against cel-js's `check` (parse + type check) of the same test in CEL; compile and the first
 *     evaluation, against cel-js's `parse` and its first evaluation; and the growth with size
 *     (or-chains of 10, 100, 1,000 terms).
 * Every baseline is checked first: the hand-written counts, `jobs.filter`, `count`, `filter`,
 * `evaluate` and `explain` must give the same answer on every job, and cel-js's answer must be ours on
 * 1,000 jobs; a difference fails the run (exit 1) before anything is timed. The goals (evaluate ≤ 1.5×
 * the inline baseline, explain ≤ 3× evaluate, compile and first evaluation ≤ 2× cel-js's parse and
 * first evaluation) are reported as met or MISSED.
 *
 * Then FilterTable (bench/table.ts), count and indexes (bench/counts.ts) and whole processes against
 * jq (bench/start.ts). Results are written to bench/results/<version>/run.json.
 *
 *   npm run bench                  (builds dist/, then about fifteen minutes)
 *   npm run bench -- --quick       (fewer rounds)
 *   npm run bench -- --no-table    (without bench/table.ts, the longest part)
 */
import { Environment } from "@marcbachmann/cel-js";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateJobs, generateRealisticJobs } from "./jobs.js";
import { MIXED, QUERIES, type Query } from "./queries.js";
import { duration, geomean, interleave, machine, timing, type Timing } from "./rounds.js";

/**
 * The library under test: the published build (`dist/`, built by `npm run bench`), not the sources
 * through tsx. FILTER_EXPR_BENCH_LIB points at another build, to compare two versions.
 */
const LIB = process.env.FILTER_EXPR_BENCH_LIB ?? fileURLToPath(new URL("../dist/index.js", import.meta.url));
const { compile, parse, schemas } = (await import(pathToFileURL(LIB).href)) as typeof import("../src/index.js");

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 15;
const version = (JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8")) as { version: string }).version;
type Job = Record<string, unknown>;

const out: string[] = [];
const say = (line = ""): void => {
  out.push(line);
  console.log(line);
};
const results: Record<string, unknown> = { library: LIB, machine: await machine(), rounds: ROUNDS };
const missed: string[] = [];
const goal = (met: boolean, what: string): string => {
  if (!met) missed.push(what);
  return met ? "met" : "**MISSED**";
};
const x = (a: number, b: number): string => `${(a / b).toFixed(2)}×`;
const spread = (t: Timing, per = 1): string => `${duration(t.ns / per)} (${duration(t.minNs / per)}–${duration(t.maxNs / per)})`;

say(`library: ${LIB}`);
say(`machine: ${results.machine as string}`);
say(`${ROUNDS} interleaved rounds per table, CPU time; medians (lowest–highest sample)`);

// 1. Parse
{
  const t = interleave(
    QUERIES.map((q) => ({ name: q.id, run: () => parse(q.expression) })),
    { rounds: ROUNDS },
  );
  say("\n### Parse, per expression\n");
  say("| query | parse |");
  say("|---|---|");
  for (const q of QUERIES) say(`| ${q.id} | ${spread(timing(t, q.id))} |`);
  results.parse = t;
}

// 2. Per item
/** A loop of its own (its own code, so its call site sees one function), calling `run` on every job. */
let loops = 0;
const ownLoop = (): ((run: (j: Job) => unknown, jobs: readonly Job[]) => number) =>
  // A new function of its own text each time (a number in a comment: V8 caches compiled code by
  // source text, and two loops of the same text would share their call site's feedback), so that
  // each query and mode has a loop that sees one filter, as the inline baseline's loop does (one
  // loop shared by every filter would inline none). Bench code only.
  new Function("run", "jobs", `/* loop ${++loops} */ let n = 0; for (let i = 0; i < jobs.length; i++) if (run(jobs[i])) n++; return n;`) as never;

/** `explain`'s answer as a predicate: its result, with its witness read (a true result always has one). */
const explained =
  (f: { explain: (j: Job) => { result: unknown; witness: readonly unknown[] } }) =>
  (j: Job): boolean => {
    const e = f.explain(j);
    return e.result === true && e.witness.length > 0;
  };

const perItem: Record<string, unknown> = {};
for (const [set, jobs] of [
  ["few values (generateJobs)", generateJobs(100_000)],
  ["real cardinalities (generateRealisticJobs)", generateRealisticJobs(100_000)],
] as const) {
  say(`\n### Per item, 100,000 jobs, ${set}\n`);
  say("Time per item. Ratios: evaluate and count to the inline loop, filter to `jobs.filter(hand-written)`, explain to evaluate in the same mode.\n");
  say("| query | matches | inline loop | jobs.filter(hand) | evaluate typed | evaluate JSON | count typed | filter typed | explain typed | explain JSON |");
  say("|---|---|---|---|---|---|---|---|---|---|");
  const rows: Record<string, Timing[]> = {};
  const ratios = { evaluate: [] as number[], explain: [] as number[] };
  for (const q of [...QUERIES, ...MIXED] as readonly Omit<Query, "cel">[]) {
    const typed = compile<Job>(q.expression, { schema: schemas.job });
    const json = compile<Job>(q.expression);
    const [evalTyped, evalJson, explainTyped, explainJson] = [ownLoop(), ownLoop(), ownLoop(), ownLoop()];
    const explainT = explained(typed);
    const explainJ = explained(json);
    // The baselines and ours agree on every job, or nothing is timed.
    const expected = q.inline(jobs);
    const answers = {
      "jobs.filter(hand)": jobs.filter(q.handWritten).length,
      "evaluate typed": evalTyped(typed.evaluate, jobs),
      "evaluate JSON": evalJson(json.evaluate, jobs),
      "count typed": typed.count(jobs),
      "count JSON": json.count(jobs),
      "filter typed": typed.filter(jobs).length,
      "explain typed": explainTyped(explainT, jobs),
      "explain JSON": explainJson(explainJ, jobs),
    };
    for (const [name, n] of Object.entries(answers)) if (n !== expected) throw new Error(`${q.id} (${set}): ${name} counts ${n}, the inline loop ${expected}`);
    for (let i = 0; i < jobs.length; i++) {
      const j = jobs[i]!;
      const want = q.handWritten(j);
      if (typed.evaluate(j) !== want || json.evaluate(j) !== want || typed.explain(j).result !== want) throw new Error(`${q.id} (${set}): job ${i} answered otherwise than the hand-written test`);
    }
    const t = interleave(
      [
        { name: "inline", run: () => q.inline(jobs) },
        { name: "jobs.filter(hand)", run: () => jobs.filter(q.handWritten) },
        { name: "evaluate typed", run: () => evalTyped(typed.evaluate, jobs) },
        { name: "evaluate JSON", run: () => evalJson(json.evaluate, jobs) },
        { name: "count typed", run: () => typed.count(jobs) },
        { name: "filter typed", run: () => typed.filter(jobs) },
        { name: "explain typed", run: () => explainTyped(explainT, jobs) },
        { name: "explain JSON", run: () => explainJson(explainJ, jobs) },
      ],
      { rounds: ROUNDS },
    );
    rows[q.id] = t;
    const ns = (name: string) => timing(t, name).ns;
    const cell = (name: string, base: string) => `${duration(ns(name) / jobs.length)} (${x(ns(name), ns(base))})`;
    ratios.evaluate.push(ns("evaluate typed") / ns("inline"), ns("evaluate JSON") / ns("inline"));
    ratios.explain.push(ns("explain typed") / ns("evaluate typed"), ns("explain JSON") / ns("evaluate JSON"));
    say(
      `| ${q.id} | ${expected.toLocaleString("en")} | ${duration(ns("inline") / jobs.length)} | ${duration(ns("jobs.filter(hand)") / jobs.length)} | ${cell("evaluate typed", "inline")} | ${cell("evaluate JSON", "inline")} | ${cell("count typed", "inline")} | ${cell("filter typed", "jobs.filter(hand)")} | ${cell("explain typed", "evaluate typed")} | ${cell("explain JSON", "evaluate JSON")} |`,
    );
  }
  const worstEvaluate = Math.max(...ratios.evaluate);
  const worstExplain = Math.max(...ratios.explain);
  say("");
  say(`- evaluate against the inline loop: geometric mean ${geomean(ratios.evaluate).toFixed(2)}×, worst ${worstEvaluate.toFixed(2)}× (goal ≤ 1.5× on every query: ${goal(worstEvaluate <= 1.5, `evaluate ≤ 1.5× inline (${set})`)})`);
  say(`- explain against evaluate: geometric mean ${geomean(ratios.explain).toFixed(2)}×, worst ${worstExplain.toFixed(2)}× (goal ≤ 3× on every query: ${goal(worstExplain <= 3, `explain ≤ 3× evaluate (${set})`)})`);
  perItem[set] = rows;
}
results.perItem = perItem;

// 3. Compile, against cel-js (an Environment declaring the job's fields)
const cel = new Environment();
for (const [name, type] of Object.entries({ ID: "string", Name: "string", Namespace: "string", ParentID: "string", Status: "string", Type: "string", Priority: "int", Stop: "bool", Datacenters: "list", JobSummary: "map" })) {
  cel.registerVariable(name, type);
}
/** A job as CEL's context: integers as `bigint` (CEL's int). */
const celValue = (v: unknown): unknown => {
  if (typeof v === "number" && Number.isInteger(v)) return BigInt(v);
  if (Array.isArray(v)) return v.map(celValue);
  if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, w]) => [k, celValue(w)]));
  return v;
};
{
  const jobs = generateJobs(1_000);
  const celJobs = jobs.map(celValue);
  for (const q of QUERIES) {
    const ours = compile(q.expression, { schema: schemas.job });
    const theirs = cel.parse(q.cel);
    for (let i = 0; i < jobs.length; i++) {
      if (theirs(celJobs[i] as Record<string, unknown>) !== ours.evaluate(jobs[i]!)) throw new Error(`${q.id}: cel-js's answer on job ${i} is not ours`);
    }
  }
  const job = jobs[7]!;
  const celJob = celJobs[7] as Record<string, unknown>;
  let n = 0;
  const t = interleave(
    QUERIES.flatMap((q) => [
      { name: `${q.id} compile`, run: () => compile(`${q.expression} or ID == "${n++}"`, { schema: schemas.job }) },
      { name: `${q.id} cel-js check`, run: () => cel.check(`${q.cel} || ID == "${n++}"`) },
      { name: `${q.id} compile + evaluate`, run: () => compile(`${q.expression} or ID == "${n++}"`, { schema: schemas.job }).evaluate(job) },
      { name: `${q.id} cel-js parse + evaluate`, run: () => cel.parse(`${q.cel} || ID == "${n++}"`)(celJob) },
    ]),
    { rounds: ROUNDS },
  );
  say("\n### Compile, a distinct expression each time (typed), against cel-js\n");
  say("`compile` parses and checks (the closures are built on first use); cel-js's `check` parses and type-checks. `compile` + the first `evaluate` builds the closures too; cel-js's `parse` + its first evaluation is the closest equivalent.\n");
  say("| query | compile | cel-js check | ratio | compile + first evaluate | cel-js parse + first evaluation | ratio |");
  say("|---|---|---|---|---|---|---|");
  const first: number[] = [];
  const checkRatios: number[] = [];
  for (const q of QUERIES) {
    const ns = (name: string) => timing(t, `${q.id} ${name}`).ns;
    first.push(ns("compile + evaluate") / ns("cel-js parse + evaluate"));
    checkRatios.push(ns("compile") / ns("cel-js check"));
    say(
      `| ${q.id} | ${spread(timing(t, `${q.id} compile`))} | ${spread(timing(t, `${q.id} cel-js check`))} | ${x(ns("compile"), ns("cel-js check"))} | ${spread(timing(t, `${q.id} compile + evaluate`))} | ${spread(timing(t, `${q.id} cel-js parse + evaluate`))} | ${x(ns("compile + evaluate"), ns("cel-js parse + evaluate"))} |`,
    );
  }
  const worst = Math.max(...first);
  say("");
  say(`- compile against cel-js's check: geometric mean ${geomean(checkRatios).toFixed(2)}×, worst ${Math.max(...checkRatios).toFixed(2)}×`);
  say(`- compile + first evaluate against cel-js's parse + first evaluation: geometric mean ${geomean(first).toFixed(2)}×, worst ${worst.toFixed(2)}× (goal ≤ 2× on every query: ${goal(worst <= 2, "compile + first evaluate ≤ 2× cel-js")})`);
  results.compile = t;

  // Growth: an or-chain of n distinct matches; the reference's parse budget is replayed step by step
  // once the text could run out of it (about 8,000 characters at depth 0).
  const chain = (terms: number, or: string) => Array.from({ length: terms }, (_, i) => `Priority == ${n++ + i}`).join(or);
  const sizes = [10, 100, 1000];
  const g = interleave(
    sizes.flatMap((terms) => [
      { name: `${terms}`, run: () => compile(chain(terms, " or "), { schema: schemas.job }) },
      { name: `${terms} no budget`, run: () => compile(chain(terms, " or "), { schema: schemas.job, maxExpressions: Infinity }) },
      { name: `${terms} cel-js`, run: () => cel.check(chain(terms, " || ")) },
    ]),
    { rounds: ROUNDS, sampleMs: 50 },
  );
  say("\n### Compile growth: or-chains of distinct matches (typed), per term\n");
  say("| terms | compile | without the budget replay | cel-js check | ratio |");
  say("|---|---|---|---|---|");
  for (const terms of sizes) {
    const ns = (name: string) => timing(g, name).ns;
    say(`| ${terms.toLocaleString("en")} | ${duration(ns(`${terms}`) / terms)} | ${duration(ns(`${terms} no budget`) / terms)} | ${duration(ns(`${terms} cel-js`) / terms)} | ${x(ns(`${terms}`), ns(`${terms} cel-js`))} |`);
  }
  results.growth = g;
}

say(missed.length === 0 ? "\nEvery goal met." : `\nGoals missed: ${missed.join("; ")}.`);
const folder = fileURLToPath(new URL(`./results/${version}/`, import.meta.url));
mkdirSync(folder, { recursive: true });
writeFileSync(`${folder}run.json`, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(`${folder}run.md`, `${out.join("\n")}\n`);

// 4. FilterTable against hand-written code (bench/table.ts; the same flags), unless --no-table
if (!process.argv.includes("--no-table")) await import("./table.js");

// 5. count and indexes: what building the result array costs (bench/counts.ts)
await import("./counts.js");

// 6. Start-up and filter-check --data against jq, whole processes (bench/start.ts)
await import("./start.js");
