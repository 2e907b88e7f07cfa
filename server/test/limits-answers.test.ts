/**
 * The memory of list answers under attack, over real HTTP on loopback: a waiting blocking query keeps
 * only its index, never the page it read; the bytes of answers in flight (encoded or being sent) are
 * bounded across the server (past the bound a new list request is 503 with Retry-After); and a client
 * that never reads has its connection closed after the stall timeout, which gives its answer back.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";
import { killAll, start, stop, type Running } from "./server-process.js";
import { until } from "../../test/support/wait.js";

/** Plain bytes: the test reads the answers, and gzip of each would only cost time. */
const identity = { headers: { "Accept-Encoding": "identity" } };
const MiB = 1024 * 1024;

/** A data file of `count` jobs whose list entries take about `nameLength` bytes more each than a bare one. */
function dataFile(count: number, nameLength: number): string {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-answers-"));
  const file = join(dir, "data.json");
  const pad = "n".repeat(nameLength);
  const jobs = Array.from({ length: count }, (_, i) => ({ ID: `job-${String(i).padStart(6, "0")}`, StatusDescription: `${pad}-${i}`, Datacenters: ["dc1"], CreateIndex: 5, ModifyIndex: 5 }));
  writeFileSync(file, JSON.stringify({ jobs, deployments: [] }));
  return file;
}

const register = (base: string, id: string): Promise<Response> =>
  fetch(`${base}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: id, Type: "batch", TaskGroups: [{ Name: "g" }] } }) });

describe("blocking queries keep only their index while they wait", () => {
  const WAITERS = 300;
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error", dataFile: dataFile(700, 300) });
  });
  afterAll(async () => server?.lifecycle.shutdown());

  it(`${WAITERS} waiting queries with distinct large answers hold far less than their answers, then all get the new state`, async () => {
    const first = await fetch(`${server.apiUrl}/v1/jobs`, identity);
    const index = first.headers.get("x-svc-index");
    const size = (await first.arrayBuffer()).byteLength;
    expect(size).toBeGreaterThan(400 * 1024);
    const before = process.memoryUsage().arrayBuffers;

    // Distinct filters: no two share an answer, each matches every job. They wait (5 minutes) longer
    // than the slowest machine takes to start them all: each answers the write below, none its timeout.
    const waiters = Array.from({ length: WAITERS }, (_, i) =>
      fetch(`${server.apiUrl}/v1/jobs?index=${index}&wait=5m&filter=${encodeURIComponent(`ID != "none-${i}"`)}`, identity).then(async (r) => ({ status: r.status, body: await r.text() })),
    );
    await until(`${WAITERS} waiting queries`, () => server.state.waiting === WAITERS);
    // Every waiter has read its page (the probe) and waits: what they hold now is what waiting costs.
    const held = process.memoryUsage().arrayBuffers - before;
    const all = WAITERS * size;
    console.log(`${WAITERS} waiters of ${(size / MiB).toFixed(2)} MiB answers: ${(held / MiB).toFixed(1)} MiB of buffers held, ${(all / MiB).toFixed(0)} MiB for every answer`);
    expect(held).toBeLessThan(all / 10);

    expect((await register(server.apiUrl, "job-new")).status).toBe(200);
    const answers = await Promise.all(waiters);
    for (const a of answers) expect(a.status).toBe(200);
    for (const a of answers.slice(0, 3)) {
      const jobs = JSON.parse(a.body) as { ID: string }[];
      expect(jobs).toHaveLength(701);
      expect(jobs.map((j) => j.ID)).toContain("job-new");
    }
    expect(server.state.waiting).toBe(0);
  });
});

describe("ordinary lists never meet the bound", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error" });
  });
  afterAll(async () => server?.lifecycle.shutdown());

  it("the demo data's whole lists, 120 at once and every kind of page, are all 200", async () => {
    const paths = ["/v1/jobs", "/v1/jobs?namespace=*", "/v1/jobs?namespace=*&pretty", "/v1/deployments?namespace=*", "/v1/deployments", "/v1/jobs?per_page=10"];
    const statuses = await Promise.all(Array.from({ length: 120 }, (_, i) => fetch(`${server.apiUrl}${paths[i % paths.length]}`).then(async (r) => (await r.arrayBuffer(), r.status))));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    // Every answer was given back once its response was done.
    await until("no answer in flight", () => server.answers.inFlight.bytes === 0);
  });
});

describe.runIf(process.platform === "linux")("clients that never read, on the filter-server bin", () => {
  const BOUND_MIB = 8;
  // Longer than the slowest machine takes from the first stalled answer to the 503s below (about 0.6 s
  // on two cores busy with other work): the first client's connection is closed only after them.
  const STALL_MS = 10_000;
  let proc: Running;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    proc = await start(["--data", dataFile(11_000, 1000), "--answer-memory", `${BOUND_MIB}MiB`, "--stall-timeout", `${STALL_MS}ms`]);
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.destroy();
  });
  afterAll(async () => {
    if (proc !== undefined) await stop(proc);
    killAll();
  });

  /** The server process's own figures (process.memoryUsage()), from /v1/agent/self. */
  async function memory(): Promise<{ arrayBuffers: number; rss: number }> {
    const self = (await (await fetch(`${proc.api}/v1/agent/self`)).json()) as { stats: { runtime: Record<string, string> } };
    return { arrayBuffers: Number(self.stats.runtime["array_buffers"]), rss: Number(self.stats.runtime["rss"]) };
  }

  /** A raw connection that sends `path` and reads only the first bytes of the answer (its head), then nothing. */
  async function neverReads(path: string): Promise<{ socket: Socket; head: string }> {
    const { hostname, port } = new URL(proc.api);
    const socket = connect({ host: hostname, port: Number(port) });
    sockets.push(socket);
    socket.on("error", () => undefined);
    const head = await new Promise<string>((resolve, reject) => {
      socket.once("connect", () => socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`));
      socket.once("data", (d: Buffer) => {
        socket.pause();
        resolve(d.toString("latin1"));
      });
      socket.once("close", () => reject(new Error("closed before any answer")));
    });
    return { socket, head };
  }

  /** Reads what is left on a paused connection until the server's end of it; the bytes read. */
  function readRest(socket: Socket): Promise<number> {
    let bytes = 0;
    socket.on("data", (d: Buffer) => (bytes += d.length));
    socket.resume();
    return new Promise((resolve) => socket.once("close", () => resolve(bytes)));
  }

  it("their answers count against the bound (new lists are 503 with Retry-After), and their connections close after the stall timeout", async () => {
    const size = (await (await fetch(`${proc.api}/v1/jobs`, identity)).arrayBuffer()).byteLength;
    expect(size).toBeGreaterThan(BOUND_MIB * MiB);
    const before = await memory();

    // One after the other: the first answer, alone in flight, may exceed the bound; while its client
    // does not read it stays in flight, so every later list request is refused.
    const clients = [];
    for (let i = 0; i < 8; i++) {
      clients.push(await neverReads(`/v1/jobs?filter=${encodeURIComponent(`ID != "stalled-${i}"`)}`));
      // A write between requests moves the index, so that the shared cache keeps none of the earlier answers.
      expect((await register(proc.api, `job-w${i}`)).status).toBe(200);
    }
    const statuses = clients.map((c) => Number(c.head.slice(9, 12)));
    console.log(`8 clients that never read ${(size / MiB).toFixed(1)} MiB answers: statuses ${statuses.join(" ")}`);
    expect(statuses).toEqual([200, ...Array<number>(7).fill(503)]);
    for (const c of clients.slice(1)) {
      expect(c.head).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(c.head).toMatch(/\r\n\r\nlist answers in flight exceed 8MiB; retry later$/);
    }
    const refused = await fetch(`${proc.api}/v1/jobs?per_page=1`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(await refused.text()).toBe("list answers in flight exceed 8MiB; retry later");

    // What the server holds for them: one answer, not every stalled client's.
    const held = (await memory()).arrayBuffers - before.arrayBuffers;
    console.log(`buffers held: ${(held / MiB).toFixed(1)} MiB (bound ${BOUND_MIB} MiB, every answer ${((8 * size) / MiB).toFixed(0)} MiB)`);
    expect(held).toBeLessThan(3 * size);

    // The server closes the connection that makes no progress after the stall timeout, which gives
    // its answer back: lists are served again.
    const stalledAt = Date.now();
    await until("lists served again", async () => (await fetch(`${proc.api}/v1/jobs?per_page=1`)).status === 200, 50);
    console.log(`lists served again ${Date.now() - stalledAt} ms after the last request (stall timeout ${STALL_MS} ms)`);
    // The client, reading at last, finds the answer cut short: the server closed the connection.
    expect(await readRest(clients[0]!.socket)).toBeLessThan(size);

    // Two at once: each encoding counts as it grows; the one whose chunk takes the total past the bound
    // while the other is in flight stops and is refused, the other is served.
    const pair = await Promise.all([0, 1].map((i) => neverReads(`/v1/jobs?filter=${encodeURIComponent(`ID != "pair-${i}"`)}`)));
    expect(pair.map((c) => Number(c.head.slice(9, 12))).sort()).toEqual([200, 503]);
    await until("lists served again", async () => (await fetch(`${proc.api}/v1/jobs?per_page=1`)).status === 200, 50);
    expect(await readRest(pair.find((c) => c.head.startsWith("HTTP/1.1 200"))!.socket)).toBeLessThan(size);
  });
});
