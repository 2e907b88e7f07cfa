/**
 * Embedded store vs PostgreSQL store (by hand, loopback only; not part of the tests):
 * p50/p99 latency of a per_page=100 page of GET /v1/jobs?namespace=* for a filter no job passes, a
 * ~1 %-selective filter and the six benchmark queries (bench/queries.ts at the repository root; Q3 is
 * `Name matches "^web-[0-9]+$"`), unfiltered for reference, each with 10 connections at once, with
 * the answers that were not 200 (503: a read given up) and `/health`'s p99 meanwhile, and each
 * server's resident memory, over the same generated jobs, measured with autocannon.
 *
 *   npx tsx bench/postgres.ts [--jobs 1000000] [--duration 5] [--connections 10] [--database postgres://…]
 *
 * Both servers run with --filter-budget 1000000000, so that the full scans of filters with few matches
 * over a million jobs complete (the default budget stops them with a 400 on the embedded store).
 * Without --database a throw-away cluster is made with the test helper (Debian's PostgreSQL binaries).
 * The PostgreSQL store is seeded by one server (--data into the empty database), stopped, and a fresh
 * server is measured, so that its memory is that of serving, not of loading the file.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { QUERIES } from "../../bench/queries.js";
import { startPostgres } from "../test/support/postgres.js";
import { startProbes } from "./attacks/probes.js";
import { rssMiB, startServer, writeData, type Server } from "./support.js";

const { values } = parseArgs({
  options: {
    jobs: { type: "string", default: "1000000" },
    duration: { type: "string", default: "5" },
    connections: { type: "string", default: "10" },
    database: { type: "string" },
  },
});
const JOBS = Number(values.jobs);
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);

/** The PostgreSQL settings of the bench's cluster (server.md, "Start"). */
const POSTGRES_SETTINGS = { shared_buffers: "3GB", effective_cache_size: "8GB", random_page_cost: "1.1" };

/** About 1 % of the demo's jobs: pending (~10 %) with priority 100 (~8 %). */
const SELECTIVE = 'Status == "pending" and Priority == 100';
/** Three tests that no job passes together: the whole table is scanned for nothing without an index. */
const NO_MATCH = 'Status == "running" and Type == "service" and Priority == 1000';

interface Row {
  name: string;
  items: number;
  p50: number;
  p99: number;
  /** Requests answered in the run (a slow list answers few: its figures are those few). */
  done: number;
  /** Answers that were not 2xx (503: a read the server gave up on), and request errors. */
  failed: number;
  /** `/health` on the ops port, asked every 10 ms during the run (`attacks/probes.ts`): p99 in ms. */
  health: number;
}

async function measure(server: Server): Promise<Row[]> {
  const api = server.api;
  const rows: Row[] = [];
  const lists: [string, string | undefined][] = [["unfiltered", undefined], ["no match", NO_MATCH], ["1 % selective", SELECTIVE], ...QUERIES.map((q): [string, string] => [q.id, q.expression])];
  for (const [name, filter] of lists) {
    const path = `/v1/jobs?namespace=*&per_page=100${filter === undefined ? "" : `&filter=${encodeURIComponent(filter)}`}`;
    const sample = await fetch(`${api}${path}`);
    if (sample.status !== 200) throw new Error(`${name}: ${sample.status} ${await sample.text()}`);
    const items = ((await sample.json()) as unknown[]).length;
    // The server shares one computed answer among requests for the same page of the same state: vary
    // the request without changing its page (trailing spaces in the filter, a next_token below every
    // token), over more variants than the answer cache holds and none the sample's, so that every
    // request reads the store.
    const variants = Array.from({ length: 64 }, (_, k) =>
      filter === undefined
        ? `/v1/jobs?namespace=*&per_page=100&next_token=${"!".repeat(k + 1)}`
        : `/v1/jobs?namespace=*&per_page=100&filter=${encodeURIComponent(filter + " ".repeat(k + 1))}`,
    );
    let turn = 0;
    // The attack bench's probes, from a worker thread: /health (and a small list) every 10 ms.
    const probes = await startProbes(server, 10);
    probes.window();
    const result = await autocannon({
      url: `${api}${path}`,
      connections: CONNECTIONS,
      duration: DURATION,
      timeout: 60,
      requests: [
        {
          setupRequest: (request) => {
            request.path = variants[turn++ % variants.length]!;
            return request;
          },
        },
      ],
    });
    const healthP99 = (await probes.stop()).health.p99;
    const failed = result.non2xx + result.errors;
    rows.push({ name, items, p50: result.latency.p50, p99: result.latency.p99, done: result.requests.total, failed, health: healthP99 });
    console.error(`  ${name}: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.total} requests, ${failed} failed, /health p99 ${healthP99.toFixed(1)} ms`);
  }
  return rows;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-pgbench-"));
  // As a user running PostgreSQL for such a table would set it: shared_buffers sized to the data (a
  // million jobs are about 2.7 GB with their indexes), and the costs of storage that is memory or SSD
  // (PostgreSQL's documentation suggests random_page_cost 1.1 there; its default, 4, models disks).
  const cluster = values.database === undefined ? await startPostgres({ settings: POSTGRES_SETTINGS }) : undefined;
  try {
    const dataFile = join(dir, "data.json");
    let t = Date.now();
    await writeData(dataFile, JOBS);
    console.error(`data: ${JOBS} jobs written in ${((Date.now() - t) / 1000).toFixed(0)} s`);

    t = Date.now();
    const embedded = await startServer(["--data", dataFile]);
    console.error(`embedded store: up in ${((Date.now() - t) / 1000).toFixed(0)} s, RSS ${rssMiB(embedded.pid)} MiB`);
    const memoryRows = await measure(embedded);
    const memoryRss = rssMiB(embedded.pid);
    await embedded.stop();

    const url = values.database ?? (await cluster!.createDatabase("bench"));
    t = Date.now();
    const seeder = await startServer(["--database", url, "--data", dataFile]);
    await seeder.stop();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("VACUUM ANALYZE");
    const size = (await client.query<{ s: string }>("SELECT pg_size_pretty(pg_database_size(current_database())) AS s")).rows[0]!.s;
    await client.end();
    console.error(`PostgreSQL store: seeded in ${((Date.now() - t) / 1000).toFixed(0)} s, database ${size}`);
    const postgres = await startServer(["--database", url]);
    const postgresRows = await measure(postgres);
    const postgresRss = rssMiB(postgres.pid);
    await postgres.stop();

    console.log(`\nGET /v1/jobs?namespace=*&per_page=100 over ${JOBS.toLocaleString("en")} jobs, ${CONNECTIONS} connections, ${DURATION} s each (autocannon, loopback); PostgreSQL ${values.database === undefined ? Object.entries(POSTGRES_SETTINGS).map(([k, v]) => `${k}=${v}`).join(", ") : "as configured"}\n`);
    console.log("| list | filter | items | embedded p50 / p99 ms (requests, failed) | PostgreSQL p50 / p99 ms (requests, failed) | PostgreSQL p50 ÷ embedded | /health p99 ms embedded / PostgreSQL |");
    console.log("|---|---|---|---|---|---|---|");
    memoryRows.forEach((m, i) => {
      const p = postgresRows[i]!;
      const filter = m.name === "unfiltered" ? "" : m.name === "no match" ? NO_MATCH : m.name === "1 % selective" ? SELECTIVE : QUERIES.find((q) => q.id === m.name)!.expression;
      const ratio = m.p50 > 0 ? (p.p50 / m.p50).toFixed(2) : "–";
      console.log(`| ${m.name} | ${filter === "" ? "" : `\`${filter.replaceAll("|", "\\|")}\``} | ${m.items} | ${m.p50} / ${m.p99} (${m.done}, ${m.failed}) | ${p.p50} / ${p.p99} (${p.done}, ${p.failed}) | ${ratio} | ${m.health.toFixed(1)} / ${p.health.toFixed(1)} |`);
    });
    console.log(`| resident memory after the runs | | | ${memoryRss} MiB | ${postgresRss} MiB | | |`);
  } catch (e) {
    if (cluster !== undefined) console.error(`PostgreSQL log:\n${cluster.logTail()}`);
    throw e;
  } finally {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
