/**
 * What building the result array costs, and what `count` and `indexes` save (run by hand):
 *
 *   npx tsx bench/counts.ts [--size 100000] [--rounds 15]   (after npm run build: it measures dist/; also part of npm run bench)
 *
 * Over generated job list entries with the job schema, for Q1–Q6, the cases run interleaved in one
 * process, in rounds whose order rotates, each case timed as one call over the whole list (median
 * and spread over the rounds):
 *  - `f.filter(jobs)` and `f.count(jobs)`;
 *  - `table.filter(f)` and `table.indexes(f)` (the same compiled filter each time, as a server keeps it);
 *  - `jobs.filter(hand)` against a counting loop over the same hand-written test.
 * Every case's count is checked against the hand-written one first; a difference fails the run.
 */
import { parseArgs } from "node:util";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateJobs } from "./jobs.js";
import { QUERIES } from "./queries.js";

const LIB = process.env.FILTER_EXPR_BENCH_LIB ?? fileURLToPath(new URL("../dist/index.js", import.meta.url));
const { compile, FilterTable, schemas } = (await import(pathToFileURL(LIB).href)) as typeof import("../src/index.js");

// Not strict: `npm run bench -- --quick` reaches here with bench/run.ts's flags.
const { values } = parseArgs({ options: { size: { type: "string", default: "100000" }, rounds: { type: "string", default: "15" } }, strict: false });
const SIZE = Number(values.size);
const ROUNDS = Number(values.rounds);

const jobs = generateJobs(SIZE);
const table = FilterTable.from(jobs, { schema: schemas.job });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

console.log(`\n${SIZE.toLocaleString("en")} jobs (job schema), ${ROUNDS} interleaved rounds, median ms per call (min–max)\n`);
console.log("| query | f.filter | f.count | table.filter | table.indexes | jobs.filter(hand) | hand-written count |");
console.log("|---|---|---|---|---|---|---|");
for (const q of QUERIES) {
  const f = compile(q.expression, { schema: schemas.job });
  const hand = q.handWritten;
  const cases: [string, () => number][] = [
    ["f.filter", () => f.filter(jobs).length],
    ["f.count", () => f.count(jobs)],
    ["table.filter", () => table.filter(f).length],
    ["table.indexes", () => table.indexes(f).length],
    ["jobs.filter(hand)", () => jobs.filter(hand).length],
    [
      "hand-written count",
      () => {
        let n = 0;
        for (let i = 0; i < jobs.length; i++) if (hand(jobs[i]!)) n++;
        return n;
      },
    ],
  ];
  const expected = cases[4]![1]();
  for (const [name, run] of cases) if (run() !== expected) throw new Error(`${q.id} ${name}: ${run()} matches, the hand-written test ${expected}`);
  const times = cases.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = (k + round) % cases.length;
      const t = performance.now();
      cases[c]![1]();
      times[c]!.push(performance.now() - t);
    }
  }
  const cell = (xs: number[]) => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
  console.log(`| ${q.id} | ${times.map(cell).join(" | ")} |`);
}
