/**
 * FilterTable against hand-written code over rows, the cases of each query interleaved in rounds
 * (bench/rounds.ts), so ratios compare like with like:
 * for Q1–Q6 over 1,000, 100,000 and 1,000,000 generated job list entries, both modes (plain JSON and the
 * job schema):
 *  - `jobs.filter(handWritten)`;
 *  - `table.filter(f)`, the same compiled filter each time (a server's cached filter: each part's
 *    answers per distinct value are kept between calls);
 *  - `table.filter(compile(text))`, a new filter each time (compile included, every answer recomputed);
 * and the cost of `table.set(i, job)` per row with the columns those filters built. At 100,000 jobs the
 * geometric mean with the same filter must stay ≤ 0.5× (the bar; the exit status says whether it did).
 *
 *   npm run bench            (after bench/run.ts's figures)
 *   npx tsx bench/table.ts [--quick]
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateJobs } from "./jobs.js";
import { QUERIES } from "./queries.js";
import { duration, geomean, interleave, timing } from "./rounds.js";

const LIB = process.env.FILTER_EXPR_BENCH_LIB ?? fileURLToPath(new URL("../dist/index.js", import.meta.url));
const { compile, schemas, FilterTable } = (await import(pathToFileURL(LIB).href)) as typeof import("../src/index.js");

const quick = process.argv.includes("--quick");
const ROUNDS = quick ? 5 : 11;
/** The most `table.filter(f)` may take against `jobs.filter(handWritten)` at 100,000 jobs (geometric mean of Q1–Q6, both modes). */
const BAR = 0.5;
const lines: string[] = ["", `### FilterTable, ${ROUNDS} interleaved rounds per query (CPU time, medians)`];

for (const size of [1_000, 100_000, 1_000_000]) {
  const jobs = generateJobs(size);
  lines.push("", `${size.toLocaleString("en-US")} jobs (time per call; ratio to jobs.filter(hand-written)):`, "");
  lines.push("| mode | query | matches | jobs.filter(hand) | table, same filter | table, new filter |", "|---|---|---|---|---|---|");
  const ratios = { warm: [] as number[], cold: [] as number[] };
  for (const [mode, schema] of [["JSON", undefined], ["typed", schemas.job]] as const) {
    const table = FilterTable.from(jobs, schema === undefined ? {} : { schema });
    for (const q of QUERIES) {
      const f = compile(q.expression, { schema });
      const counts = [jobs.filter(q.handWritten).length, table.filter(f).length, f.filter(jobs).length, table.filter(compile(q.expression, { schema })).length];
      if (new Set(counts).size !== 1) throw new Error(`${q.id}: the answers disagree (${counts.join(", ")})`);
      const t = interleave(
        [
          { name: "hand-written", run: () => jobs.filter(q.handWritten) },
          { name: "table, same filter", run: () => table.filter(f) },
          { name: "table, new filter", run: () => table.filter(compile(q.expression, { schema })) },
        ],
        { rounds: ROUNDS },
      );
      const ns = (name: string) => timing(t, name).ns;
      const warm = ns("table, same filter") / ns("hand-written");
      const cold = ns("table, new filter") / ns("hand-written");
      ratios.warm.push(warm);
      ratios.cold.push(cold);
      lines.push(`| ${mode} | ${q.id} | ${counts[0]!.toLocaleString("en-US")} | ${duration(ns("hand-written"))} | ${duration(ns("table, same filter"))} (${warm.toFixed(2)}×) | ${duration(ns("table, new filter"))} (${cold.toFixed(2)}×) |`);
    }
    if (schema !== undefined) {
      // set: every row replaced by another row (the columns Q1–Q6 built are kept current).
      let i = 0;
      const set = interleave([{ name: "set", run: () => table.set(i++ % size, jobs[(i * 7919) % size]!) }], { rounds: ROUNDS });
      lines.push("", `table.set(i, job) with ${table.columnBytes.toLocaleString("en-US")} bytes of columns: ${duration(timing(set, "set").ns)} per row`);
    }
  }
  const warm = geomean(ratios.warm);
  lines.push("", `geometric mean of the ratios: same filter ${warm.toFixed(2)}×, new filter ${geomean(ratios.cold).toFixed(2)}×`);
  if (size === 100_000) {
    // The bar: a held list of 100,000 jobs filtered in at most half a hand-written loop's time.
    const met = warm <= BAR;
    lines.push(`bar (100,000 jobs, same filter, geometric mean ≤ ${BAR}×): ${met ? "met" : "MISSED"}`);
    if (!met) process.exitCode = 1;
  }
}
console.log(`\n${lines.join("\n")}`);
