import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";
import { parseJobSpec, planRegistration } from "../src/lists/register.js";
import { SchedulerState, WAKE_BATCH } from "../src/store/memory/state.js";
import { HANG_MS, until } from "../../test/support/wait.js";
import { SERVER_BIN } from "./server-process.js";
import { snapshotOf } from "../src/lists/records.js";

// Waking many blocking queries with one write: in batches across event-loop turns, one computed
// answer per distinct query, large answers streamed, and the server answering others meanwhile.

const JOBS = 2000;
/** Plain bytes: the test reads every answer, and gzip of each would only cost time. */
const identity = { headers: { "Accept-Encoding": "identity" } };
let server: RunningServer;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-waiters-"));
  const dataFile = join(dir, "data.json");
  const jobs = Array.from({ length: JOBS }, (_, i) => ({ ID: `job-${String(i).padStart(5, "0")}`, Name: `a fairly long job name number ${i}`, Datacenters: ["dc1", "dc2", "dc3"], CreateIndex: 5, ModifyIndex: 5 }));
  writeFileSync(dataFile, JSON.stringify({ jobs, deployments: [] }));
  server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, dataFile, logLevel: "error" });
});
afterAll(async () => server.lifecycle.shutdown());

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** The waiters' wait: as long as the hang guard, so that they answer the write, never their timeout. */
const LONG = `${HANG_MS / 1000}s`;

describe("many blocking queries on a big list and one write", () => {
  it("share one computed answer per query, stream it, and let other requests through while they are served", async () => {
    const first = await fetch(`${server.apiUrl}/v1/jobs`);
    const index = Number(first.headers.get("x-svc-index"));
    const before = ((await first.json()) as unknown[]).length;
    expect(before).toBe(JOBS);

    const order: string[] = [];
    const track = (name: string, res: Promise<Response>): Promise<{ status: number; body: string; length: string | null }> =>
      res.then(async (r) => {
        const body = await r.text();
        order.push(name);
        return { status: r.status, body, length: r.headers.get("content-length") };
      });
    const plain = Array.from({ length: 50 }, (_, i) => track(`plain ${i}`, fetch(`${server.apiUrl}/v1/jobs?index=${index}&wait=${LONG}`, identity)));
    const pretty = Array.from({ length: 8 }, (_, i) => track(`pretty ${i}`, fetch(`${server.apiUrl}/v1/jobs?index=${index}&wait=${LONG}&pretty`, identity)));
    await until("58 waiters", () => server.state.waiting >= 58, 0);
    const computed = server.answers.computed;

    const put = await fetch(`${server.apiUrl}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: "job-new", Type: "batch", TaskGroups: [{ Name: "g" }] } }) });
    expect(put.status).toBe(200);
    const health = track("health", fetch(`${server.opsUrl}/health`));
    const small = track("small", fetch(`${server.apiUrl}/v1/jobs?per_page=1`));

    const plainAnswers = await Promise.all(plain);
    const prettyAnswers = await Promise.all(pretty);
    expect((await health).status).toBe(200);
    expect((await small).status).toBe(200);

    // Everyone got the new state, the same bytes for the same query.
    for (const a of plainAnswers) {
      expect(a.status).toBe(200);
      expect(a.body).toBe(plainAnswers[0]!.body);
    }
    const jobs = JSON.parse(plainAnswers[0]!.body) as { ID: string }[];
    expect(jobs).toHaveLength(JOBS + 1);
    expect(jobs.map((j) => j.ID)).toContain("job-new");
    for (const a of prettyAnswers) expect(a.body).toBe(`${JSON.stringify(jobs, null, 4)}\n`);
    // Large answers are streamed, not sent as one string with a length.
    expect(plainAnswers[0]!.length).toBeNull();
    // One computation per distinct query after the write: the plain list, the pretty list, the small page.
    expect(server.answers.computed).toBe(computed + 3);
    // /health and another request were answered while waiters were still being served.
    expect(order.indexOf("health")).toBeLessThan(order.length - 1);
    expect(order.indexOf("small")).toBeLessThan(order.length - 1);
    expect(server.state.waiting).toBe(0);
  });
});

describe.runIf(process.platform === "linux")("memory of the filter-server bin while it answers waiters", () => {
  it("one write answering 50 waiters of a 4 MiB list grows the peak memory by far less than 50 copies", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-server-memory-"));
    const dataFile = join(dir, "data.json");
    const jobs = Array.from({ length: 10_000 }, (_, i) => ({ ID: `job-${String(i).padStart(6, "0")}`, Name: `job name ${i}`, Datacenters: ["dc1", "dc2"], CreateIndex: 5, ModifyIndex: 5 }));
    writeFileSync(dataFile, JSON.stringify({ jobs, deployments: [] }));
    const child = spawn(SERVER_BIN[0]!, [...SERVER_BIN.slice(1), "--port", "0", "--ops-port", "0", "--data", dataFile], { cwd: join(import.meta.dirname, "..") });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    /** The process's peak resident memory so far, in MiB. */
    const peak = (): number => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))![1]) / 1024;
    try {
      let found: { api: string; ops: string } | undefined;
      await until("the server listening", () => {
        const line = output.split("\n").slice(0, -1).find((l) => l.startsWith("{") && l.includes('"api"'));
        if (line !== undefined) found = JSON.parse(line) as { api: string; ops: string };
        else if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
        return found !== undefined;
      }, 50);
      const urls = found!;
      const first = await fetch(`${urls.api}/v1/jobs`, identity);
      const index = first.headers.get("x-svc-index");
      const size = (await first.arrayBuffer()).byteLength;
      expect(size).toBeGreaterThan(4 * 1024 * 1024);
      const before = peak();
      const waiters = Array.from({ length: 50 }, () => fetch(`${urls.api}/v1/jobs?index=${index}&wait=${LONG}`, identity).then((r) => r.arrayBuffer()));
      // The worker's active sessions are the API listener's open connections: all waiters are in.
      await until("50 waiters connected", async () => {
        const health = (await (await fetch(`${urls.ops}/health?worker_info=1`)).json()) as { worker_process_info: { active_session_count: number } };
        return health.worker_process_info.active_session_count >= 50;
      }, 0);
      const put = await fetch(`${urls.api}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: "job-new", Type: "batch", TaskGroups: [{ Name: "g" }] } }) });
      expect(put.status).toBe(200);
      const bodies = await Promise.all(waiters);
      expect(bodies.every((b) => b.byteLength > size)).toBe(true);
      // 50 answers of 4 MiB built as strings would need at least 200 MiB more; one shared answer needs 4.
      expect(peak() - before).toBeLessThan(64);
    } finally {
      child.kill("SIGTERM");
      await exit;
    }
  });
});

describe("waking waiters", () => {
  it(`wakes at most ${WAKE_BATCH} waiters per event-loop turn`, async () => {
    const state = new SchedulerState(snapshotOf({}));
    let woken = 0;
    const n = WAKE_BATCH * 4 + 3;
    for (let i = 0; i < n; i++) void state.waitForChange("jobs", state.indexOf("jobs"), 60_000).done.then(() => woken++);
    const spec = parseJobSpec({ Job: { ID: "x", Type: "batch", TaskGroups: [{ Name: "g" }] } }, undefined);
    await state.write((next) => planRegistration(state, spec, next, Date.now()));
    const perTurn: number[] = [];
    let last = 0;
    for (let turn = 0; woken < n && turn < 100; turn++) {
      perTurn.push(woken - last);
      last = woken;
      await nextTurn();
    }
    perTurn.push(woken - last);
    expect(woken).toBe(n);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(WAKE_BATCH);
    expect(perTurn.filter((k) => k > 0).length).toBeGreaterThanOrEqual(5);
    await state.close();
  });
});
