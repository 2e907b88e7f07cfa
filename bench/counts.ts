/**
 * What building the result array costs, and what `count` and `indexes` save (run by hand):
 *
 *   npx tsx bench/counts.ts [--size 100000] [--rounds 15]   (after npm run build: it measures dist/; also part of npm run bench)
 *
 * Over generated job list entries with the job schema, for Q1–Q6, the cases of a query interleaved
 * in rounds (bench/rounds.ts), each a call over the whole list:
 *  - `f.filter(jobs)` and `f.count(jobs)`;
 *  - `table.filter(f)` and `table.indexes(f)` (the same compiled filter each time, as a server keeps it);
 *  - `jobs.filter(hand)` against the query's inline counting loop (bench/queries.ts `inline`).
 * Every case's count is checked against the inline loop's first; a difference fails the run.
 */
import { parseArgs } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateJobs } from "./jobs.js";
import { QUERIES } from "./queries.js";
import { duration, interleave, type Case, type Timing } from "./rounds.js";

const LIB = process.env.FILTER_EXPR_BENCH_LIB ?? fileURLToPath(new URL("../dist/index.js", import.meta.url));
const { compile, FilterTable, schemas } = (await import(pathToFileURL(LIB).href)) as typeof import("../src/index.js");

// Not strict: `npm run bench -- --quick` reaches here with bench/run.ts's flags.
const { values } = parseArgs({ options: { size: { type: "string", default: "100000" }, rounds: { type: "string", default: "15" } }, strict: false });
const SIZE = Number(values.size);
const ROUNDS = Number(values.rounds);

const jobs = generateJobs(SIZE);
const table = FilterTable.from(jobs, { schema: schemas.job });
console.log(`\n${SIZE.toLocaleString("en")} jobs (job schema), ${ROUNDS} interleaved rounds (bench/rounds.ts), CPU time per call: median (min–max)\n`);
console.log("| query | f.filter | f.count | table.filter | table.indexes | jobs.filter(hand) | inline count |");
console.log("|---|---|---|---|---|---|---|");
for (const q of QUERIES) {
  const f = compile(q.expression, { schema: schemas.job });
  const cases: Case[] = [
    { name: "f.filter", run: () => f.filter(jobs).length },
    { name: "f.count", run: () => f.count(jobs) },
    { name: "table.filter", run: () => table.filter(f).length },
    { name: "table.indexes", run: () => table.indexes(f).length },
    { name: "jobs.filter(hand)", run: () => jobs.filter(q.handWritten).length },
    { name: "inline count", run: () => q.inline(jobs) },
  ];
  const expected = q.inline(jobs);
  for (const c of cases) if (c.run() !== expected) throw new Error(`${q.id} ${c.name}: ${String(c.run())} matches, the inline count ${expected}`);
  const cell = (t: Timing) => `${duration(t.ns)} (${duration(t.minNs)}–${duration(t.maxNs)})`;
  console.log(`| ${q.id} | ${interleave(cases, { rounds: ROUNDS }).map(cell).join(" | ")} |`);
}
