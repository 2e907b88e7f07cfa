/**
 * Embedded store vs PostgreSQL store (by hand, loopback only; not part of the tests):
 * p50/p99 latency of a per_page=100 page of GET /v1/jobs?namespace=* for a ~1 %-selective filter and
 * for the six benchmark queries (bench/queries.ts at the repository root), unfiltered for reference,
 * and each server's resident memory, over the same generated jobs, measured with autocannon.
 *
 *   npx tsx bench/postgres.ts [--jobs 1000000] [--duration 5] [--connections 10] [--database postgres://…]
 *
 * Both servers run with --filter-budget 1000000000, so that the full scans of filters with few matches
 * over a million jobs complete (the default budget stops them with a 400 on the embedded store).
 * Without --database a throw-away cluster is made with the test helper (Debian's PostgreSQL binaries).
 * The PostgreSQL store is seeded by one server (--data into the empty database), stopped, and a fresh
 * server is measured, so that its memory is that of serving, not of loading the file.
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { QUERIES } from "../../bench/queries.js";
import { generateDemo } from "../src/demo/generate.js";
import { startPostgres } from "../test/support/postgres.js";

const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));

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

/** About 1 % of the demo's jobs: pending (~10 %) with priority 100 (~8 %). */
const SELECTIVE = 'Status == "pending" and Priority == 100';

function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? "0");
  return Math.round(kb / 1024);
}

interface Server {
  pid: number;
  api: string;
  stop(): Promise<void>;
}

async function startServer(args: string[]): Promise<Server> {
  const child = spawn(process.execPath, ["--max-old-space-size=8192", "--import", "tsx", "src/main.ts", "--port", "0", "--ops-port", "0", "--filter-budget", "1000000000", ...args], {
    cwd: SERVER_DIR,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const api = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { api?: string };
        if (entry.api !== undefined) resolve(entry.api);
      }
    });
    child.on("exit", () => reject(new Error(`server exited:\n${out.slice(-2000)}`)));
  });
  child.stdout.resume();
  return {
    pid: child.pid as number,
    api,
    stop: () =>
      new Promise((resolve) => {
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** The demo's jobs, written piece by piece (a million of them is too long for one string). */
async function writeData(file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = (s: string) => new Promise<void>((resolve) => (out.write(s) ? resolve() : out.once("drain", () => resolve())));
  await write('{"jobs":[');
  const CHUNK = 50_000;
  let first = true;
  for (let done = 0; done < JOBS; done += CHUNK) {
    const n = Math.min(CHUNK, JOBS - done);
    const snapshot = generateDemo({ jobs: n, seed: 7 + done });
    const parts: string[] = [];
    for (const r of snapshot.jobs) {
      // Unique IDs across chunks; the index fields as the demo makes them.
      // Zero values left out (the loader restores them), so that a million jobs stay one readable file.
      const e = r.entry;
      const entry: Record<string, unknown> = { ID: `${e.ID}-${done}`, Name: e.Name, Namespace: e.Namespace, Type: e.Type, Status: e.Status, Priority: e.Priority };
      entry["Datacenters"] = e.Datacenters;
      entry["CreateIndex"] = e.CreateIndex;
      entry["ModifyIndex"] = e.ModifyIndex;
      entry["JobModifyIndex"] = e.JobModifyIndex;
      if (e.ParentID !== "") entry["ParentID"] = e.ParentID;
      if (e.Stop) entry["Stop"] = true;
      if (e.Periodic) entry["Periodic"] = true;
      if (e.ParameterizedJob) entry["ParameterizedJob"] = true;
      if (e.JobSummary !== null && Object.keys(e.JobSummary.Summary).length > 0) {
        const summary: Record<string, Record<string, number>> = {};
        for (const [group, s] of Object.entries(e.JobSummary.Summary)) {
          summary[group] = Object.fromEntries(Object.entries(s).filter(([, n]) => n !== 0));
        }
        entry["JobSummary"] = { Summary: summary };
      }
      parts.push(JSON.stringify(entry));
    }
    await write((first ? "" : ",") + parts.join(","));
    first = false;
  }
  await write('],"deployments":[]}');
  await new Promise<void>((resolve) => out.end(resolve));
}

interface Row {
  name: string;
  items: number;
  p50: number;
  p99: number;
  /** Requests answered in the run (a slow list answers few: its figures are those few). */
  done: number;
}

async function measure(api: string): Promise<Row[]> {
  const rows: Row[] = [];
  const lists: [string, string | undefined][] = [["unfiltered", undefined], ["1 % selective", SELECTIVE], ...QUERIES.map((q): [string, string] => [q.id, q.expression])];
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
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    rows.push({ name, items, p50: result.latency.p50, p99: result.latency.p99, done: result.requests.total });
    console.error(`  ${name}: p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.requests.total} requests`);
  }
  return rows;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-pgbench-"));
  const cluster = values.database === undefined ? await startPostgres() : undefined;
  try {
    const dataFile = join(dir, "data.json");
    let t = Date.now();
    await writeData(dataFile);
    console.error(`data: ${JOBS} jobs written in ${((Date.now() - t) / 1000).toFixed(0)} s`);

    t = Date.now();
    const embedded = await startServer(["--data", dataFile]);
    console.error(`embedded store: up in ${((Date.now() - t) / 1000).toFixed(0)} s, RSS ${rssMiB(embedded.pid)} MiB`);
    const memoryRows = await measure(embedded.api);
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
    const postgresRows = await measure(postgres.api);
    const postgresRss = rssMiB(postgres.pid);
    await postgres.stop();

    console.log(`\nGET /v1/jobs?namespace=*&per_page=100 over ${JOBS.toLocaleString("en")} jobs, ${CONNECTIONS} connections, ${DURATION} s each (autocannon, loopback)\n`);
    console.log("| list | filter | items | embedded p50 / p99 ms (requests) | PostgreSQL p50 / p99 ms (requests) |");
    console.log("|---|---|---|---|---|");
    memoryRows.forEach((m, i) => {
      const p = postgresRows[i]!;
      const filter = m.name === "unfiltered" ? "" : m.name === "1 % selective" ? SELECTIVE : QUERIES.find((q) => q.id === m.name)!.expression;
      console.log(`| ${m.name} | \`${filter.replaceAll("|", "\\|")}\` | ${m.items} | ${m.p50} / ${m.p99} (${m.done}) | ${p.p50} / ${p.p99} (${p.done}) |`);
    });
    console.log(`| resident memory after the runs | | | ${memoryRss} MiB | ${postgresRss} MiB |`);
  } catch (e) {
    if (cluster !== undefined) console.error(`PostgreSQL log:\n${cluster.logTail()}`);
    throw e;
  } finally {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
