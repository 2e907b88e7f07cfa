/**
 * What one list request and one client may cost (issue 39), over real HTTP on loopback, on both stores
 * (a real PostgreSQL for the store parts):
 * - a request's filter has `--request-budget` steps over all the items it reads (f518deb: an `any`
 *   costing up to the per-item budget on every item ran for seconds over 100,000 jobs, unrefused);
 *   filters of ordinary cost are answered over the whole list;
 * - a read stops once every request waiting for it has gone (f518deb: the embedded store's scans ran to
 *   their end);
 * - long scans take turns of the loop fairly by client: one scan of a client arriving after six of
 *   another's is answered first.
 */
import type { AddressInfo } from "node:net";
import { request } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import type { ServerOptions } from "../src/context.js";
import { snapshotFromData } from "../src/lists/load.js";
import { MemoryStore } from "../src/store/memory/index.js";
import { SchedulerState } from "../src/store/memory/state.js";
import { PostgresStore } from "../src/store/postgres/index.js";
import type { SchedulerStore } from "../src/store/types.js";
import { clusterForFile } from "./support/cluster.js";
import { testContext } from "./support/context.js";
import { metric } from "./support/event-streams.js";
import type { StoreKind } from "./support/postgres.js";
import { until } from "../../test/support/wait.js";

const cluster = clusterForFile();
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(closers.map((close) => close()));
});

let databases = 0;
/** The real app on a loopback port over a new store of `kind` holding `jobs`, with `options`. */
async function serve(kind: StoreKind, jobs: unknown[], options: Partial<ServerOptions>): Promise<string> {
  const data = { jobs, deployments: [] };
  let store: SchedulerStore;
  if (kind === "memory") store = new MemoryStore(new SchedulerState(snapshotFromData(data)));
  else store = await PostgresStore.open(await cluster().createDatabase(`request_${process.pid}_${++databases}`), () => snapshotFromData(data), () => undefined, 4);
  const app = await buildApp(testContext(undefined, options), { scheduler: store });
  await app.listen({ host: "127.0.0.1", port: 0 });
  closers.push(async () => {
    store.releaseWaiters();
    await app.close();
    await store.close();
  });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** `n` jobs in five datacenters. */
const jobsOf = (n: number): unknown[] =>
  Array.from({ length: n }, (_, i) => ({ ID: `job-${String(i).padStart(5, "0")}`, Datacenters: ["dc1", "dc2", "dc3", "dc4", "dc5"], CreateIndex: 5, ModifyIndex: 5 }));

/** `depth` nested `any` over Datacenters ending in `v0 == "<last>"`: 5^depth iterations on a job. */
function nested(depth: number, last: string): string {
  let body = `v0 == "${last}"`;
  for (let i = depth - 1; i >= 0; i--) body = `any Datacenters as v${i} { ${body} }`;
  return body;
}

interface Answer {
  status: number;
  body: string;
}

/** GET `path` from loopback address `from` on a connection of its own; `signal` aborts it. */
function get(base: string, path: string, from = "127.0.0.1", signal?: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent: false, localAddress: from, signal, headers: { Connection: "close", "Accept-Encoding": "identity" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const list = (filter: string): string => `/v1/jobs?filter=${encodeURIComponent(filter)}`;

describe.each(["memory", "postgres"] as const)("%s store", (kind) => {
  it("a filter that costs far more than an ordinary one over a list is refused by the request's budget; ordinary ones over the whole list are answered", async () => {
    // 400 jobs; 50,000 steps for the request: about 1,400 steps a job for the depth-4 filter.
    const base = await serve(kind, jobsOf(400), { requestBudget: 50_000 });
    const refused = await get(base, list(nested(4, "x")));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/^failed to read result page: filter too expensive: .*\(50000 steps for the request, spent over \d+ items\) at 1:1$/);
    // Each item alone is far within the per-item budget: the request's budget refused it.
    expect(Number(/spent over (\d+) items/.exec(refused.body)![1])).toBeGreaterThan(10);
    for (const filter of ['any Datacenters as d { d == "dc5" }', 'ID matches "^job-0+[0-9]$"', nested(1, "dc1")]) {
      const res = await get(base, list(filter));
      expect(res.status, filter).toBe(200);
      expect((JSON.parse(res.body) as unknown[]).length).toBeGreaterThan(0);
    }
  });

  it("a read stops once its clients have gone", async () => {
    // Each scan would take tens of seconds (about 490,000 steps a job).
    const base = await serve(kind, jobsOf(2000), { requestBudget: 1e15 });
    const controllers = Array.from({ length: 2 }, () => new AbortController());
    const scans = controllers.map((c, i) => get(base, list(nested(8, `x${i}`)), "127.0.0.1", c.signal).catch((e: Error) => e.name));
    await until("2 reads running", async () => (await metric(base, "filter_server_list_reads_running")) === 2);
    const slices = await metric(base, "filter_server_loop_slices_total");
    await until("more slices of the loop", async () => (await metric(base, "filter_server_loop_slices_total")) > slices + 4);
    for (const c of controllers) c.abort();
    expect(await Promise.all(scans)).toEqual(Array(2).fill("AbortError"));
    await until("no read running", async () => (await metric(base, "filter_server_list_reads_running")) === 0);
    expect(await metric(base, "filter_server_loop_turns_waiting")).toBe(0);
  });
});

describe("turns of the loop by client", () => {
  it("one scan of a client that arrives after six of another client's is answered before all of them", async () => {
    // Each scan about 4,900,000 steps (1,000 jobs of 4,900): many slices.
    const base = await serve("memory", jobsOf(1000), {});
    const order: string[] = [];
    const scan = (from: string, name: string, last: string): Promise<number> =>
      get(base, list(nested(5, last)), from).then((a) => {
        order.push(name);
        return a.status;
      });
    const many = Array.from({ length: 6 }, (_, i) => scan("127.0.0.2", `a${i}`, `a${i}`));
    await until("6 reads running", async () => (await metric(base, "filter_server_list_reads_running")) === 6);
    const one = scan("127.0.0.3", "b", "b");
    expect(await Promise.all([...many, one])).toEqual(Array(7).fill(200));
    expect(order[0]).toBe("b");
  });
});
