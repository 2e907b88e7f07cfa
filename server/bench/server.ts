/**
 * Load test of the reference server (loopback only, bounded in time):
 *  1. requests/s and p99 latency of a filtered, paginated GET /v1/jobs over 100,000 jobs against the
 *     same list unfiltered (autocannon; the first page and a page in the middle of the walk);
 *  2. memory of 10,000 waiting blocking queries (server RSS before and while they wait) and the time
 *     one write takes to answer all of them.
 *
 *   npm run bench -w filter-server -- [--jobs 100000] …   (or, in server/: npx tsx bench/server.ts)
 *   npx tsx bench/server.ts [--jobs 100000] [--duration 10] [--connections 20] [--waiters 10000]
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { generateDemo } from "../src/demo/generate.js";

/** The server package's folder: `src/main.ts` runs from there (tsx reads its tsconfig paths). */
const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));

const { values } = parseArgs({
  options: {
    jobs: { type: "string", default: "100000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "20" },
    waiters: { type: "string", default: "10000" },
  },
});
const JOBS = Number(values.jobs);
const DURATION = Number(values.duration);
const CONNECTIONS = Number(values.connections);
const WAITERS = Number(values.waiters);

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? "0");
  return kb / 1024;
}

async function startServer(dataFile: string): Promise<{ pid: number; api: string; ops: string; stop: () => Promise<void> }> {
  // autocannon is one address standing for many clients: no per-client bound.
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "--port", "0", "--ops-port", "0", "--data", dataFile, "--blocking-queries-per-client", "0"], { cwd: SERVER_DIR, stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  const ready = await new Promise<{ api: string; ops: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 120_000);
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
      for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { api?: string; ops?: string };
        if (entry.api !== undefined && entry.ops !== undefined) {
          clearTimeout(timer);
          resolve({ api: entry.api, ops: entry.ops });
        }
      }
    });
    child.on("exit", () => reject(new Error(`server exited:\n${out}`)));
  });
  child.stdout.resume();
  return {
    pid: child.pid as number,
    ...ready,
    stop: () =>
      new Promise((resolve) => {
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

interface Row {
  name: string;
  path: string;
  reqPerSec: number;
  p99Ms: number;
  items: number;
}

async function load(api: string, name: string, path: string): Promise<Row> {
  const sample = (await (await fetch(`${api}${path}`)).json()) as unknown[];
  const result = await autocannon({ url: `${api}${path}`, connections: CONNECTIONS, duration: DURATION });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { name, path, reqPerSec: Math.round(result.requests.average), p99Ms: result.latency.p99, items: sample.length };
}

/** Opens `n` blocking queries, each on its own connection, and resolves their completion times. */
function openWaiters(api: string, index: string, n: number): Promise<number>[] {
  const { hostname, port } = new URL(api);
  const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
  return Array.from(
    { length: n },
    () =>
      new Promise<number>((resolve, reject) => {
        const req = http.get({ host: hostname, port, agent, path: `/v1/jobs?index=${index}&wait=5m&per_page=1` }, (res) => {
          res.resume();
          res.on("end", () => (res.statusCode === 200 ? resolve(Date.now()) : reject(new Error(`status ${res.statusCode}`))));
        });
        req.on("error", reject);
      }),
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-bench-"));
  try {
    const snapshot = generateDemo({ jobs: JOBS, seed: 7 });
    const dataFile = join(dir, "data.json");
    writeFileSync(dataFile, JSON.stringify({ jobs: snapshot.jobs.map((r) => r.entry), deployments: snapshot.deployments }));
    console.log(`data: ${snapshot.jobs.length} jobs, ${snapshot.deployments.length} deployments`);
    const server = await startServer(dataFile);
    try {
      const filter = encodeURIComponent('Status == "running" and "dc2" in Datacenters and Type == "service"');
      const middle = await fetch(`${server.api}/v1/jobs?namespace=*&per_page=${Math.floor(JOBS / 2)}`);
      const midToken = encodeURIComponent(middle.headers.get("x-svc-nexttoken") ?? "");
      await middle.arrayBuffer();
      const rows: Row[] = [];
      for (const [name, path] of [
        ["unfiltered, first page", `/v1/jobs?namespace=*&per_page=100`],
        ["filtered, first page", `/v1/jobs?namespace=*&per_page=100&filter=${filter}`],
        ["unfiltered, middle page", `/v1/jobs?namespace=*&per_page=100&next_token=${midToken}`],
        ["filtered, middle page", `/v1/jobs?namespace=*&per_page=100&next_token=${midToken}&filter=${filter}`],
      ] as const) {
        rows.push(await load(server.api, name, path));
      }
      console.log(`\nGET /v1/jobs over ${JOBS} jobs, ${CONNECTIONS} connections, ${DURATION}s each`);
      console.table(rows.map((r) => ({ list: r.name, "items/page": r.items, "req/s": r.reqPerSec, "p99 ms": r.p99Ms })));

      // Blocking queries.
      const first = await fetch(`${server.api}/v1/jobs?per_page=1`);
      const index = first.headers.get("x-svc-index") ?? "1";
      await first.arrayBuffer();
      const before = rssMiB(server.pid);
      const waits = openWaiters(server.api, index, WAITERS);
      let sessions = 0;
      const deadline = Date.now() + 120_000;
      while (sessions < WAITERS && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        const health = (await (await fetch(`${server.ops}/health?worker_info=1`)).json()) as { worker_process_info: { active_session_count: number } };
        sessions = health.worker_process_info.active_session_count;
      }
      await new Promise((r) => setTimeout(r, 1000));
      const during = rssMiB(server.pid);
      const t = Date.now();
      await fetch(`${server.api}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: "bench-wake", Type: "batch", TaskGroups: [{ Name: "g" }] } }) });
      const done = await Promise.all(waits);
      const wakeMs = Math.max(...done) - t;
      console.log(`\n${WAITERS} waiting blocking queries (${sessions} open connections seen by the server)`);
      console.table([{ "server RSS before (MiB)": before.toFixed(1), "while waiting (MiB)": during.toFixed(1), "per waiting query (KiB)": (((during - before) * 1024) / WAITERS).toFixed(2), "one write answers all (ms)": wakeMs }]);
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
