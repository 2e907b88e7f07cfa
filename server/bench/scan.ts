/**
 * A full filtered scan over a million jobs (by hand, loopback only; not part of the tests), in one run:
 *  1. the library alone: `filter.filter(jobs)` over the jobs as the server holds them (the same data
 *     file, read by the server's own loader), the median of five;
 *  2. each store with default flags (the embedded store, then PostgreSQL): p50/p99 of a 3-test filter
 *     that matches nothing, `GET /v1/jobs?namespace=*`, one request at a time, each a distinct filter
 *     (so that none is answered from the shared answers);
 *  3. `/health` latency on the ops listener, polled every 20 ms while ten such scans run at once;
 *  4. a 1 %-selective page (`per_page=100`) of each store, p50/p99;
 *  5. the embedded server's resident memory once started and after the scans.
 *
 *   npx tsx bench/scan.ts [--jobs 1000000] [--runs 20] [--database postgres://…] [--embedded-only]
 *
 * Without --database a throw-away cluster is made with the test helper (Debian's PostgreSQL binaries).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { compile, schemas } from "filter-expr";
import { loadDataFile } from "../src/lists/load.js";
import { startPostgres } from "../test/support/postgres.js";
import { rssMiB, startServer, writeData, type Server } from "./support.js";

const { values } = parseArgs({
  options: {
    jobs: { type: "string", default: "1000000" },
    runs: { type: "string", default: "20" },
    database: { type: "string" },
    "embedded-only": { type: "boolean", default: false },
  },
});
const JOBS = Number(values.jobs);
const RUNS = Number(values.runs);

/** Three tests, no job matches (priorities are 1–100); `k` makes each request's filter its own. */
const noMatch = (k: number): string => `Status == "running" and Type == "service" and Priority == ${1000 + k}`;

const percentile = (xs: readonly number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (x: number): string => `${x < 10 ? x.toFixed(1) : x.toFixed(0)} ms`;

/** One scan: its time, and how many `503` answers (retried after their `Retry-After`, as a client does) it met. */
async function scan(server: Server, k: number): Promise<{ ms: number; busy: number }> {
  const started = performance.now();
  for (let busy = 0; ; busy++) {
    const res = await fetch(`${server.api}/v1/jobs?namespace=*&filter=${encodeURIComponent(noMatch(k))}`);
    const body = await res.text();
    if (res.status === 503) {
      await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get("retry-after") ?? "1")));
      continue;
    }
    if (res.status !== 200 || body !== "[]") throw new Error(`scan ${k}: ${res.status} ${body.slice(0, 200)}`);
    return { ms: performance.now() - started, busy };
  }
}

interface Figures {
  p50: number;
  p99: number;
  /** `/health` while ten scans run at once: its latencies, and how long the ten took. */
  health: { p50: number; p99: number; max: number; polls: number };
  ten: number;
  /** `503` answers the ten scans met (each retried after its `Retry-After`). */
  busy: number;
}

async function measure(server: Server, offset: number): Promise<Figures> {
  await scan(server, offset - 1); // warm-up
  const times: number[] = [];
  for (let k = 0; k < RUNS; k++) {
    const one = await scan(server, offset + k);
    if (one.busy > 0) throw new Error("a scan alone was refused as busy");
    times.push(one.ms);
  }
  const started = performance.now();
  let running = true;
  const ten = Promise.all(Array.from({ length: 10 }, (_, i) => scan(server, offset + RUNS + i))).finally(() => (running = false));
  const health: number[] = [];
  while (running) {
    const t = performance.now();
    const res = await fetch(`${server.ops}/health`);
    await res.text();
    health.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 20));
  }
  const busy = (await ten).reduce((n, one) => n + one.busy, 0);
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    health: { p50: percentile(health, 50), p99: percentile(health, 99), max: Math.max(...health), polls: health.length },
    ten: performance.now() - started,
    busy,
  };
}

/** A 1 %-selective filter (about 0.8 % of the generated jobs); `k` trailing spaces make each request's its own. */
const selective = (k: number): string => `Status == "pending" and Priority == 100${" ".repeat(k)}`;

/** p50/p99 of `RUNS` pages of the selective filter, one at a time. */
async function selectivePages(server: Server): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let k = 0; k <= RUNS; k++) {
    const started = performance.now();
    const res = await fetch(`${server.api}/v1/jobs?namespace=*&per_page=100&filter=${encodeURIComponent(selective(k))}`);
    const items = (await res.json()) as unknown[];
    if (res.status !== 200 || items.length !== 100) throw new Error(`selective page: ${res.status}, ${items.length} items`);
    if (k > 0) times.push(performance.now() - started); // the first one warms up
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-scan-"));
  const withPostgres = values["embedded-only"] !== true;
  const cluster = withPostgres && values.database === undefined ? await startPostgres() : undefined;
  try {
    const dataFile = join(dir, "data.json");
    await writeData(dataFile, JOBS);

    // The library alone, over the jobs as the server's loader makes them.
    const jobs = loadDataFile(readFileSync(dataFile)).snapshot.jobs.map((r) => r.entry); // as the server reads --data
    const f = compile(noMatch(0), { schema: schemas.job });
    const library: number[] = [];
    for (let i = 0; i < 6; i++) {
      const t = performance.now();
      if (f.filter(jobs).length !== 0) throw new Error("the filter matched");
      if (i > 0) library.push(performance.now() - t);
    }
    const lib = percentile(library, 50);
    jobs.length = 0;
    console.error(`library: filter.filter(${JOBS} jobs) median ${ms(lib)}`);

    const embedded = await startServer(["--data", dataFile], []);
    const loaded = rssMiB(embedded.pid);
    const memory = await measure(embedded, 0);
    const memoryPage = await selectivePages(embedded);
    const resident = rssMiB(embedded.pid);
    await embedded.stop();
    console.error(`embedded: p50 ${ms(memory.p50)}`);

    let pgFigures: Figures | undefined;
    let pgPage: { p50: number; p99: number } | undefined;
    if (withPostgres) {
      const url = values.database ?? (await cluster!.createDatabase("scan"));
      const seeder = await startServer(["--database", url, "--data", dataFile], []);
      await seeder.stop();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("VACUUM ANALYZE");
      await client.end();
      const postgres = await startServer(["--database", url], []);
      pgFigures = await measure(postgres, 10_000);
      pgPage = await selectivePages(postgres);
      await postgres.stop();
    }

    const row = (name: string, x: Figures) =>
      `| ${name} | ${ms(x.p50)} | ${ms(x.p99)} | ${(x.p50 / lib).toFixed(2)}× | ${ms(x.ten)} (${x.busy} × 503) | ${ms(x.health.p50)} / ${ms(x.health.p99)} / ${ms(x.health.max)} (${x.health.polls} polls) |`;
    console.log(`\n${JOBS} jobs, a 3-test filter that matches nothing, ${RUNS} scans one at a time; filter.filter(jobs) alone: ${ms(lib)} (median of 5)\n`);
    console.log("| store | p50 | p99 | p50 / filter.filter | ten scans at once (busy answers, retried) | /health p50 / p99 / max during them |");
    console.log("|---|---|---|---|---|---|");
    console.log(row("embedded", memory));
    if (pgFigures !== undefined) console.log(row("PostgreSQL", pgFigures));
    console.log(`\nA 1 %-selective page (${JSON.stringify(selective(0))}, per_page=100), ${RUNS} one at a time, p50 / p99:`);
    console.log(`  embedded ${ms(memoryPage.p50)} / ${ms(memoryPage.p99)}${pgPage === undefined ? "" : `; PostgreSQL ${ms(pgPage.p50)} / ${ms(pgPage.p99)}`}`);
    console.log(`\nThe embedded server's resident memory once started: ${loaded} MiB; after its scans: ${resident} MiB.`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await cluster?.stop();
  }
}

await main();
