/**
 * Filtered subscriptions (benny): 10,000 compiled filters, one event at a time, as an event stream's
 * subscribers are served. Each event is a job list entry (its ID, namespace, type, priority,
 * datacenters); the subscriptions are
 *  - 6,000 tailing one job each: `ID == "<id>"`;
 *  - 3,000 watching a namespace: `Namespace == "team-<k>" and Type == "batch"` (1,000 namespaces);
 *  - 500 `"dc1" in Datacenters and Priority == <p>` (an int equality behind a test that cannot fail);
 *  - 500 with no equality to index: `Datacenters is empty or Stop == true`.
 * Subscribers that share a filter share its evaluation in a `FilterSet`; the same set made distinct
 * (each of the last 1,000 filters with a test of its own added, `Name != "n-<i>"`) shows the cost
 * when no two filters are alike.
 * Cases: the naive loop (`evaluate` of every filter per event), `FilterSet.match`, and `FilterSet.match`
 * over the distinct set; the summary gives events per second and their ratio, measured in one run.
 * The answers are checked equal first.
 *
 *   npx tsx bench/subscriptions.ts [--quick]     (after npm run build: it measures dist/)
 */
import b from "benny";
import { fileURLToPath, pathToFileURL } from "node:url";
import { generateJobs } from "./jobs.js";

const LIB = process.env.FILTER_EXPR_BENCH_LIB ?? fileURLToPath(new URL("../dist/index.js", import.meta.url));
const { compile, schemas, FilterSet } = (await import(pathToFileURL(LIB).href)) as typeof import("../src/index.js");

const quick = process.argv.includes("--quick");
const options = { minSamples: quick ? 5 : 20, maxTime: quick ? 0.5 : 2 };
type Summary = { results: { name: string; ops: number }[] };

const events: Record<string, unknown>[] = generateJobs(10_000, 7).map((j, i) => ({ ...j, Namespace: `team-${i % 1000}` }));
const texts: string[] = [];
for (let i = 0; i < 6000; i++) texts.push(`ID == "${events[(i * 7) % events.length]!.ID as string}"`);
for (let i = 0; i < 3000; i++) texts.push(`Namespace == "team-${i % 1000}" and Type == "batch"`);
for (let i = 0; i < 500; i++) texts.push(`"dc1" in Datacenters and Priority == ${[10, 50, 70, 100][i % 4]}`);
for (let i = 0; i < 500; i++) texts.push("Datacenters is empty or Stop == true");
const filters = texts.map((t) => compile(t, { schema: schemas.job }));
const set = new FilterSet<number>();
filters.forEach((f, i) => set.add(i, f));
const distinctTexts = texts.map((t, i) => (i < 9000 ? t : i < 9500 ? `${t} and Name != "n-${i}"` : `${t} or Name == "n-${i}"`));
const distinct = new FilterSet<number>();
distinctTexts.forEach((t, i) => distinct.add(i, compile(t, { schema: schemas.job })));

const naive = (e: unknown): number[] => {
  const out: number[] = [];
  for (let i = 0; i < filters.length; i++) if (filters[i]!.evaluate(e)) out.push(i);
  return out;
};
let evaluated = 0;
let evaluatedDistinct = 0;
for (const e of events.slice(0, 500)) {
  const m = set.match(e);
  const d = distinct.match(e);
  evaluated += m.evaluated;
  evaluatedDistinct += d.evaluated;
  if (JSON.stringify(m.matched) !== JSON.stringify(naive(e))) throw new Error(`FilterSet and the naive loop disagree on ${JSON.stringify(e)}`);
  // The added tests are true on every event (no job is named n-…): the same answers.
  if (JSON.stringify(d.matched) !== JSON.stringify(m.matched)) throw new Error(`the distinct set disagrees on ${JSON.stringify(e)}`);
}

let n = 0;
const next = () => events[n++ % events.length];
const s = (await b.suite(
  "10,000 filtered subscriptions, one event at a time",
  b.add("naive: evaluate every filter", () => naive(next()).length, options),
  b.add("FilterSet.match", () => set.match(next()).matched.length, options),
  b.add("FilterSet.match, every filter distinct", () => distinct.match(next()).matched.length, options),
  b.cycle(),
)) as unknown as Summary;
const [slow, fast, apart] = s.results.map((r) => r.ops) as [number, number, number];
console.log(`\nsubscriptions: ${filters.length} filters; per event FilterSet evaluates ${(evaluated / 500).toFixed(0)} in full (shared filters once), ${(evaluatedDistinct / 500).toFixed(0)} when every filter is distinct (means over 500 events)`);
console.log(`events/s: naive ${slow.toFixed(0)}, FilterSet ${fast.toFixed(0)} (${(fast / slow).toFixed(1)}×), every filter distinct ${apart.toFixed(0)} (${(apart / slow).toFixed(1)}×) (one run)`);
