/**
 * FilterTable against hand-written code over rows (benny), in one run so ratios compare like with like:
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
import b from "benny";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateJobs } from "./jobs.js";
import { QUERIES } from "./queries.js";

const LIB = process.env.FILTER_EXPR_BENCH_LIB ?? fileURLToPath(new URL("../dist/index.js", import.meta.url));
const { compile, schemas, FilterTable } = (await import(pathToFileURL(LIB).href)) as typeof import("../src/index.js");

const quick = process.argv.includes("--quick");
/** The most `table.filter(f)` may take against `jobs.filter(handWritten)` at 100,000 jobs (geometric mean of Q1–Q6, both modes). */
const BAR = 0.5;
type Summary = { results: { name: string; ops: number }[] };
const ops = (s: Summary, name: string): number => s.results.find((r) => r.name === name)!.ops;
const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
const lines: string[] = [];

for (const size of [1_000, 100_000, 1_000_000]) {
  const options = size >= 1_000_000 ? { minSamples: 5, maxTime: quick ? 0.5 : 1 } : { minSamples: quick ? 5 : 20, maxTime: quick ? 0.5 : 1.5 };
  const jobs = generateJobs(size);
  lines.push(`${size.toLocaleString("en-US")} jobs (time per call; ratio to jobs.filter(hand-written)):`);
  const ratios = { warm: [] as number[], cold: [] as number[] };
  for (const [mode, schema] of [["JSON", undefined], ["typed", schemas.job]] as const) {
    const table = FilterTable.from(jobs, schema === undefined ? {} : { schema });
    for (const q of QUERIES) {
      const f = compile(q.expression, { schema });
      const counts = [jobs.filter(q.handWritten).length, table.filter(f).length, f.filter(jobs).length];
      if (new Set(counts).size !== 1) throw new Error(`${q.id}: the answers disagree (${counts.join(", ")})`);
      const s = (await b.suite(
        `${size} ${mode} ${q.id}`,
        b.add("hand-written", () => jobs.filter(q.handWritten), options),
        b.add("table, same filter", () => table.filter(f), options),
        b.add("table, new filter", () => table.filter(compile(q.expression, { schema })), options),
      )) as unknown as Summary;
      const hand = ops(s, "hand-written");
      const warm = hand / ops(s, "table, same filter");
      const cold = hand / ops(s, "table, new filter");
      ratios.warm.push(warm);
      ratios.cold.push(cold);
      const ms = (name: string) => `${(1e3 / ops(s, name)).toFixed(size >= 100_000 ? 2 : 4)} ms`;
      lines.push(`  ${mode.padEnd(5)} ${q.id}  hand ${ms("hand-written")}  table ${ms("table, same filter")} (${warm.toFixed(2)}×)  new filter ${ms("table, new filter")} (${cold.toFixed(2)}×)  [${counts[0]} match]`);
    }
    if (schema !== undefined) {
      // set: every row replaced by another row (the columns Q1–Q6 built are kept current).
      let i = 0;
      const set = (await b.suite(`${size} set`, b.add("set", () => table.set(i++ % size, jobs[(i * 7919) % size]!), options))) as unknown as Summary;
      lines.push(`  table.set(i, job) with ${table.columnBytes.toLocaleString("en-US")} bytes of columns: ${(1e9 / ops(set, "set")).toFixed(0)} ns per row`);
    }
  }
  const warm = geomean(ratios.warm);
  lines.push(`  geometric mean of the ratios: same filter ${warm.toFixed(2)}×, new filter ${geomean(ratios.cold).toFixed(2)}×`);
  if (size === 100_000) {
    // The bar: a held list of 100,000 jobs filtered in at most half a hand-written loop's time.
    const met = warm <= BAR;
    lines.push(`  bar (100,000 jobs, same filter, geometric mean ≤ ${BAR}×): ${met ? "met" : "MISSED"}`);
    if (!met) process.exitCode = 1;
  }
}
console.log(`\n${lines.join("\n")}`);
