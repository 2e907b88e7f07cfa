/**
 * What one write may cost across its subscribers, and what one client may hold (issue 39), over real
 * HTTP on loopback, clients told apart by their source addresses (127.0.0.2, 127.0.0.3):
 * - each event stream's filter has its share of `--fanout-budget` per event; a stream whose filter runs
 *   out of it ends with an error frame, the write and the other streams go on, and one event costs at
 *   most the fan-out budget in all (f518deb: 256 such streams made one PUT take 12 s);
 * - a client holds at most `--event-streams-per-client` streams (429), others still get theirs;
 * - the checks of waiting blocking queries (`--blocking-queries page`) share the fan-out budget of each
 *   changed item; a waiter whose checks cannot decide within their share is answered at once with a
 *   fresh read (as the scheduler answers every blocking query on a write), the others as before;
 * - a client has at most `--blocking-queries-per-client` blocking queries waiting (429).
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, type ServerOptions } from "../src/context.js";
import { startServer, type RunningServer } from "../src/ops/start.js";
import { metric, q, send, Stream, type Json } from "./support/event-streams.js";
import { until } from "../../test/support/wait.js";

const ATTACKER = "127.0.0.2";
const OTHER = "127.0.0.3";

const servers: RunningServer[] = [];
async function start(options: Partial<ServerOptions>, jobs: Json[] = []): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-fanout-"));
  const dataFile = join(dir, "data.json");
  writeFileSync(dataFile, JSON.stringify({ jobs, deployments: [] }));
  const server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, dataFile, logLevel: "error", ...options });
  servers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.lifecycle.shutdown()));
});

/** `any D as v0 { any D as v1 { … v0 == "<last>" … } }`, `depth` levels over the list `D`: 5^depth iterations over five datacenters. */
function nested(list: string, depth: number, last: string): string {
  let body = `v0 == "${last}"`;
  for (let i = depth - 1; i >= 0; i--) body = `any ${list} as v${i} { ${body} }`;
  return body;
}

const FIVE = ["dc1", "dc2", "dc3", "dc4", "dc5"];

/** PUT /v1/jobs of a batch job in five datacenters; the write's index. */
async function register(base: string, id: string): Promise<number> {
  const res = await send(base, "PUT", "/v1/jobs", { Job: { ID: id, Type: "batch", Datacenters: FIVE, TaskGroups: [{ Name: "g" }] } });
  expect(res.status).toBe(200);
  return Number(res.headers["x-svc-index"]);
}

describe("event streams: each stream's share of the fan-out budget, and streams per client", () => {
  it("a client's costly streams end with an error frame at the first event, the write costs at most the fan-out budget, and a client holds at most its share of streams", async () => {
    // Defaults: 256 streams, a fan-out budget of 1,000,000 steps per event: 3,906 steps a stream; 64 streams a client.
    const server = await start({ eventHeartbeatMs: 60_000 });
    const base = server.apiUrl;
    // 64 distinct filters of 5^6 iterations each over a job's five datacenters (about 19,500 steps).
    const costly = await Promise.all(Array.from({ length: 64 }, (_, i) => Stream.open(base, q({ topic: "Job", filter: nested("Payload.Job.Datacenters", 6, `x${i}`) }), {}, ATTACKER)));
    expect(costly.map((s) => s.res.statusCode)).toEqual(Array(64).fill(200));
    const refused = await send(base, "GET", q({ topic: "Job" }), undefined, {}, ATTACKER);
    expect([refused.status, refused.headers["retry-after"], refused.text]).toEqual([
      429,
      "1",
      "this client holds 64 event streams, as many as this server gives one client at once; close one or retry later",
    ]);
    // Another client opens its streams as before: one plain, one with an ordinary filter.
    const plain = await Stream.open(base, q({ topic: "Job" }), {}, OTHER);
    const ordinary = await Stream.open(base, q({ filter: 'Topic == "Job" and "dc3" in Payload.Job.Datacenters' }), {}, OTHER);
    expect([plain.res.statusCode, ordinary.res.statusCode]).toEqual([200, 200]);

    const index = await register(base, "five");
    await plain.reached(index);
    await ordinary.reached(index);
    expect(ordinary.events.map((e) => e.Key)).toEqual(["five"]);
    for (const s of costly) {
      expect(await s.ended).toBe("end");
      expect(s.frames).toEqual([]);
      expect(s.errors).toHaveLength(1);
      expect(s.errors[0]).toMatch(new RegExp(`^event stream ended at index ${index}: filter too expensive: .*\\(3906 steps per event, this stream's share of the fan-out budget\\) at 1:1$`));
    }
    expect(await metric(base, "filter_server_event_streams_ended_total", { reason: "expensive" })).toBe(64);
    // The event cost its 66 evaluations at most the fan-out budget: each costly one its share.
    const steps = await metric(base, "filter_server_event_filter_steps_total");
    expect(steps).toBeGreaterThan(64 * 3900);
    expect(steps).toBeLessThanOrEqual(1_000_000);
    expect(await metric(base, "filter_server_client_bound_refused_total", { resource: "event_streams" })).toBe(1);
    // The ended streams gave their slots back.
    const again = await Stream.open(base, q({ topic: "Job" }), {}, ATTACKER);
    expect(again.res.statusCode).toBe(200);
    for (const s of [plain, ordinary, again]) s.destroy();
  });

  it("a resuming stream's replay is bounded the same way: its filter ends it at the first buffered event it cannot afford", async () => {
    const server = await start({ eventHeartbeatMs: 60_000 });
    const base = server.apiUrl;
    const first = await register(base, "a");
    await register(base, "b");
    const s = await Stream.open(base, q({ topic: "Job", index: "1", filter: nested("Payload.Job.Datacenters", 6, "x") }));
    expect(await s.ended).toBe("end");
    expect(s.errors).toEqual([expect.stringMatching(new RegExp(`^event stream ended at index ${first}: filter too expensive: `))]);
  });
});

interface Answer {
  status: number;
  index: number;
  body: string;
}

/** GET from loopback address `from`, on a connection of its own. */
function get(base: string, path: string, from: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { agent: false, localAddress: from, headers: { Connection: "close" } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, index: Number(res.headers["x-svc-index"]), body }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("blocking queries that wait for their page: the fan-out budget of each change, and waiters per client", () => {
  it("what waiters' checks cannot decide within their share is decided in their client's turns: the one whose page changed is answered, the others wait on; a client has at most its bound waiting", async () => {
    const jobs = [{ ID: "seed", Datacenters: FIVE, CreateIndex: 5, ModifyIndex: 5 }];
    // 80,000 steps per changed item's version over 9 filtered waiters: 8,888 each; a costly filter takes about 19,500 on a five-datacenter job.
    const server = await start({ blockingQueries: "page", fanoutBudget: 80_000, blockingQueriesPerClient: 8 }, jobs);
    const base = server.apiUrl;
    const index = (await get(base, "/v1/jobs", OTHER)).index;
    // Waits (5 minutes) far longer than the test takes on a busy machine: no waiter answers at its timeout.
    const wait = (filter: string): string => `/v1/jobs?index=${index}&wait=5m&filter=${encodeURIComponent(filter)}`;
    // The attacker's 8 waiters, distinct costly filters: 7 that no job matches (empty pages), one that every job in dc3 matches.
    const answered: (Answer | undefined)[] = Array(8).fill(undefined);
    const costly = Array.from({ length: 8 }, (_, i) => get(base, wait(nested("Datacenters", 6, i === 7 ? "dc3" : `x${i}`)), ATTACKER).then((a) => (answered[i] = a)));
    await until("the attacker's 8 waiters", async () => (await metric(base, "filter_server_blocking_queries_waiting")) === 8);
    const refused = await get(base, wait('ID == "nine"'), ATTACKER);
    expect([refused.status, refused.body]).toEqual([429, "this client holds 8 waiting blocking queries, as many as this server gives one client at once; close one or retry later"]);
    // Another client's waiter, whose page the write below changes.
    const other = get(base, wait('"dc3" in Datacenters'), OTHER);
    await until("the other client's waiter", async () => (await metric(base, "filter_server_blocking_queries_waiting")) === 9);

    const written = await register(base, "five");
    const mine = await other;
    expect(mine.status).toBe(200);
    expect((JSON.parse(mine.body) as { ID: string }[]).map((j) => j.ID)).toEqual(["five", "seed"]);
    // The attacker's checks could not decide the new job within their share: decided in the attacker's turns.
    expect(await metric(base, "filter_server_blocking_page_undecided_total")).toBe(8);
    const changed = await costly[7]!;
    expect([changed.status, changed.index]).toEqual([200, written]);
    expect((JSON.parse(changed.body) as { ID: string }[]).map((j) => j.ID)).toEqual(["five", "seed"]);
    await until("no deferred page checks", async () => (await metric(base, "filter_server_blocking_page_deferred")) === 0);
    // The other seven pages did not change: they wait on.
    expect(answered.slice(0, 7)).toEqual(Array(7).fill(undefined));
    expect(await metric(base, "filter_server_blocking_queries_waiting")).toBe(7);
    expect(await metric(base, "filter_server_client_bound_refused_total", { resource: "blocking_queries" })).toBe(1);
  });
});
