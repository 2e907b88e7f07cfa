import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";
import { DEFAULT_WAIT_MS, MAX_WAIT_MS, parseListQuery, withJitter } from "../src/scheduler/query.js";
import { HANG_MS, until } from "../../test/support/wait.js";

/**
 * The wait of the queries that must answer before it runs out (at once, or on a write): as long as the
 * hang guard, so that an answer before it is one that did not wait for it, however busy the machine.
 */
const LONG_MS = HANG_MS;
const LONG = `${LONG_MS / 1000}s`;

let server: RunningServer;
let base: string;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-"));
  const dataFile = join(dir, "data.json");
  writeFileSync(dataFile, JSON.stringify({ jobs: [{ ID: "a", CreateIndex: 5, ModifyIndex: 5 }], deployments: [] }));
  server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, dataFile, logLevel: "error" });
  base = server.apiUrl;
});
afterAll(async () => server.lifecycle.shutdown());

const register = (id: string) => fetch(`${base}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: id, Type: "batch", TaskGroups: [{ Name: "g" }] } }) });

describe("blocking queries", () => {
  it("wait defaults to 5 minutes, is capped at 10 minutes, and jitter adds up to wait/16", () => {
    expect(parseListQuery({ index: "3" }).waitMs).toBe(DEFAULT_WAIT_MS);
    expect(parseListQuery({ index: "3", wait: "0" }).waitMs).toBe(DEFAULT_WAIT_MS);
    expect(parseListQuery({ index: "3", wait: "1h" }).waitMs).toBe(MAX_WAIT_MS);
    expect(parseListQuery({ index: "3", wait: "1m30s" }).waitMs).toBe(90_000);
    expect(withJitter(160_000, () => 0)).toBe(160_000);
    expect(withJitter(160_000, () => 0.999999)).toBe(160_000 + 9_999);
  });

  it("an index below the current one answers at once", async () => {
    const t = Date.now();
    const res = await fetch(`${base}/v1/jobs?index=1&wait=${LONG}`);
    expect(res.status).toBe(200);
    expect(Date.now() - t).toBeLessThan(LONG_MS);
  });

  it("answers at the timeout with the current index when nothing changes", async () => {
    const index = Number((await fetch(`${base}/v1/jobs`)).headers.get("x-svc-index"));
    const t = Date.now();
    const res = await fetch(`${base}/v1/jobs?index=${index}&wait=300ms`);
    const elapsed = Date.now() - t;
    expect(res.status).toBe(200);
    expect(res.headers.get("x-svc-index")).toBe(String(index));
    expect(elapsed).toBeGreaterThanOrEqual(290);
    // At its own wait, not the default one (5 minutes): far below that, however busy the machine.
    expect(elapsed).toBeLessThan(DEFAULT_WAIT_MS / 5);
  });

  it("answers as soon as a write moves the index, with the new data", async () => {
    const index = Number((await fetch(`${base}/v1/jobs`)).headers.get("x-svc-index"));
    const t = Date.now();
    const before = server.state.waiting;
    const waiting = fetch(`${base}/v1/jobs?index=${index}&wait=${LONG}`);
    // The write comes once the query waits (not before, when it would answer at once).
    await until("the query waiting", () => server.state.waiting !== before, 10);
    expect(server.state.waiting).toBe(before + 1);
    await register("woken");
    const res = await waiting;
    expect(Date.now() - t).toBeLessThan(LONG_MS);
    expect(Number(res.headers.get("x-svc-index"))).toBeGreaterThan(index);
    expect(((await res.json()) as { ID: string }[]).map((j) => j.ID)).toContain("woken");
  });

  it("a write to jobs does not wake a deployments query of a batch job's registration", async () => {
    const index = Number((await fetch(`${base}/v1/deployments`)).headers.get("x-svc-index"));
    const t = Date.now();
    const waiting = fetch(`${base}/v1/deployments?index=${index}&wait=400ms`);
    await register("batch-only");
    const res = await waiting;
    expect(Date.now() - t).toBeGreaterThanOrEqual(390);
    expect(res.headers.get("x-svc-index")).toBe(String(index));
  });

  it("errors are answered at once, never after blocking", async () => {
    const index = Number((await fetch(`${base}/v1/jobs`)).headers.get("x-svc-index"));
    const t = Date.now();
    const res = await fetch(`${base}/v1/jobs?index=${index}&wait=${LONG}&filter=${encodeURIComponent("Name ==")}`);
    expect(res.status).toBe(400);
    expect(Date.now() - t).toBeLessThan(LONG_MS);
  });

  it("hundreds of waiting requests all wake on one write, and a client that goes away is forgotten", async () => {
    const index = Number((await fetch(`${base}/v1/jobs`)).headers.get("x-svc-index"));
    const n = 300;
    const waits = Array.from({ length: n }, () => fetch(`${base}/v1/jobs?index=${index}&wait=${LONG}&per_page=1`));
    const abandoned = new AbortController();
    void fetch(`${base}/v1/jobs?index=${index}&wait=${LONG}`, { signal: abandoned.signal }).catch(() => undefined);
    await until(`${n + 1} queries waiting`, () => server.state.waiting >= n + 1, 20);
    expect(server.state.waiting).toBe(n + 1);
    abandoned.abort();
    await until("the abandoned query forgotten", () => server.state.waiting <= n, 20);
    expect(server.state.waiting).toBe(n);
    const t = Date.now();
    await register("wake-all");
    const results = await Promise.all(waits);
    expect(Date.now() - t).toBeLessThan(LONG_MS);
    expect(results.every((r) => r.status === 200 && Number(r.headers.get("x-svc-index")) > index)).toBe(true);
    await Promise.all(results.map((r) => r.arrayBuffer()));
    expect(server.state.waiting).toBe(0);
  });
});
