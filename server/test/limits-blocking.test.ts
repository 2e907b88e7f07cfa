import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";
import { parseJobSpec, planRegistration } from "../src/scheduler/register.js";
import { SchedulerState, WAKE_BATCH } from "../src/scheduler/state.js";

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
    const plain = Array.from({ length: 50 }, (_, i) => track(`plain ${i}`, fetch(`${server.apiUrl}/v1/jobs?index=${index}&wait=60s`, identity)));
    const pretty = Array.from({ length: 8 }, (_, i) => track(`pretty ${i}`, fetch(`${server.apiUrl}/v1/jobs?index=${index}&wait=60s&pretty`, identity)));
    while (server.state.waiting < 58) await nextTurn();
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

describe("waking waiters", () => {
  it(`wakes at most ${WAKE_BATCH} waiters per event-loop turn`, async () => {
    const state = new SchedulerState({ index: 1, jobs: [], deployments: [] });
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
