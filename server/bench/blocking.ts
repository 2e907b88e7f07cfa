/**
 * Blocking queries under a write mix, `--blocking-queries index` (the scheduler's) against `page`:
 * the server (a child process, its sources) holds JOBS generated jobs; CLIENTS clients each keep a
 * blocking query open on a filtered list, as UIs and tools do (one job by ID, the dead jobs of a
 * namespace, a page of 20 service jobs, the batch jobs of prod, the jobs in dc3 with priority 70), and
 * ask again with the index of each answer; then WRITES sequential registrations (updates of random
 * jobs and new ones). An answer is *spurious* when its body and next token equal the client's previous
 * answer (the client learned nothing but a new index). Printed per mode: answers, spurious answers, the
 * server's CPU time per write (its /proc counters over the write phase) and the writes per second.
 *
 *   npx tsx bench/blocking.ts [JOBS] [CLIENTS] [WRITES]     (in server/; defaults 10000, 500, 200)
 */
import { Agent, request } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cpuSeconds, startServer, type Server } from "./support.js";

const JOBS = Number(process.argv[2] ?? 10_000);
const CLIENTS = Number(process.argv[3] ?? 500);
const WRITES = Number(process.argv[4] ?? 200);

/** A deterministic generator: both modes see the same data, clients and writes. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const NAMESPACES = ["default", "prod", "dev", "staging"];
function jobAt(i: number, r: () => number): Record<string, unknown> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  return {
    ID: `job-${i}`,
    Name: `job-${i}`,
    Namespace: NAMESPACES[i % NAMESPACES.length],
    Type: pick(["service", "service", "batch", "system"]),
    Priority: pick([10, 50, 50, 70]),
    Datacenters: pick([["dc1"], ["dc2"], ["dc1", "dc3"], ["dc3"]]),
    Stop: r() < 0.1,
  };
}

const dir = mkdtempSync(join(tmpdir(), "filter-server-bench-blocking-"));
const data = join(dir, "data.json");
{
  const r = rng(1);
  const jobs = Array.from({ length: JOBS }, (_, i) => {
    const j = jobAt(i, r);
    return { ...j, Status: j["Stop"] ? "dead" : "running", CreateIndex: 10 + i, ModifyIndex: 10 + i };
  });
  writeFileSync(data, JSON.stringify({ jobs, deployments: [] }));
}

/** The clients' queries: what UIs and tools keep open. */
function clientQueries(): string[] {
  const r = rng(2);
  return Array.from({ length: CLIENTS }, (_, i) => {
    const q = new URLSearchParams();
    switch (i % 5) {
      case 0:
      case 1:
        q.set("namespace", NAMESPACES[Math.floor(r() * JOBS) % NAMESPACES.length]!);
        q.set("filter", `ID == "job-${Math.floor(r() * JOBS)}"`);
        break;
      case 2:
        q.set("namespace", NAMESPACES[i % NAMESPACES.length]!);
        q.set("filter", 'Status == "dead"');
        break;
      case 3:
        q.set("namespace", "*");
        q.set("filter", 'Type == "service"');
        q.set("per_page", "20");
        break;
      default:
        q.set("namespace", "prod");
        q.set("filter", '"dc3" in Datacenters and Priority == 70 and Type == "batch"');
    }
    return `/v1/jobs?${q}`;
  });
}

interface Answer {
  status: number;
  index: string;
  body: string;
}

function get(agent: Agent, url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, index: String(res.headers["x-svc-index"]), body: `${String(res.headers["x-svc-nexttoken"])}\n${body}` }));
    });
    req.on("error", reject);
    req.end();
  });
}

function put(agent: Agent, base: string, job: Record<string, unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}/v1/jobs`, { method: "PUT", agent, headers: { "Content-Type": "application/json" } }, (res) => {
      res.resume();
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`PUT ${res.statusCode}`))));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ Job: { ...job, TaskGroups: [{ Name: "g", Count: 1 }] } }));
  });
}

async function run(mode: "index" | "page"): Promise<string> {
  // Every client of the bench is one loopback address: no per-client bound.
  const server: Server = await startServer(["--data", data, "--blocking-queries", mode, "--blocking-queries-per-client", "0"]);
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS + 10 });
  const counts = { answers: 0, spurious: 0 };
  let stopping = false;
  let waiting = 0;
  const loops = clientQueries().map(async (path) => {
    let last = await get(agent, `${server.api}${path}`);
    while (!stopping) {
      waiting++;
      const next = await get(agent, `${server.api}${path}&index=${last.index}&wait=10m`);
      waiting--;
      if (stopping) break;
      counts.answers++;
      if (next.status === last.status && next.body === last.body) counts.spurious++;
      last = next;
    }
  });
  while (waiting < CLIENTS) await new Promise((r) => setTimeout(r, 20));
  const r = rng(3);
  const cpu = cpuSeconds(server.pid);
  const started = performance.now();
  for (let w = 0; w < WRITES; w++) {
    const i = r() < 0.8 ? Math.floor(r() * JOBS) : JOBS + w;
    await put(agent, server.api, jobAt(i, r));
  }
  const seconds = (performance.now() - started) / 1000;
  // The answers of the last writes are still arriving: wait until every client waits again.
  const deadline = performance.now() + 60_000;
  while (waiting < CLIENTS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const cpuPerWrite = ((cpuSeconds(server.pid) - cpu) / WRITES) * 1000;
  stopping = true;
  await server.stop();
  agent.destroy();
  await Promise.allSettled(loops);
  return `  ${mode.padEnd(5)}  ${counts.answers} answers (${(counts.answers / WRITES).toFixed(1)} a write), ${counts.spurious} spurious; server CPU ${cpuPerWrite.toFixed(2)} ms a write; ${(WRITES / seconds).toFixed(0)} writes/s`;
}

const lines = [`${JOBS} jobs, ${CLIENTS} blocking clients (filtered lists), ${WRITES} sequential registrations:`];
for (const mode of ["index", "page"] as const) lines.push(await run(mode));
console.log(lines.join("\n"));
