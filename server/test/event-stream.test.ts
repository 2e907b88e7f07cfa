/**
 * `GET /v1/event/stream` over real HTTP on 127.0.0.1 (server/docs/events.md): registrations through
 * `PUT /v1/jobs` become frames, topics, namespaces, the token's ACL and filters select events (the ACL
 * before the filter), a bad filter is a 400 before any byte of the stream, `index` resumes from the
 * buffer (naming a gap), heartbeats, a client that does not read is cut, the bound on open streams,
 * shutdown ends streams cleanly, a server on PostgreSQL streams too (two servers on one database:
 * postgres-feed.test.ts), and for random filters a stream delivers exactly the events that
 * evaluating the filter on each event selects.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { compile, type Filter } from "filter-expr";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, type ServerOptions } from "../src/context.js";
import { startServer, type RunningServer } from "../src/ops/start.js";
import { killAll, start as startBin, stop as stopBin } from "./server-process.js";
import { EVENT_SCHEMA, metric, q, send, Stream, type Ev, type Frame, type Json } from "./support/event-streams.js";
import type { PostgresCluster } from "./support/postgres.js";
import { runCluster } from "./support/cluster.js";
import { runs } from "../../test/support/runs.js";
import { settled, until } from "../../test/support/wait.js";

const TOKENS = [
  { SecretID: "root-secret", Name: "root", Management: true, Capabilities: [] },
  { SecretID: "dev-secret", Name: "dev reader", Capabilities: ["job:read@dev"] },
  { SecretID: "ops-secret", Name: "no jobs", Capabilities: ["node:read"] },
];
const ROOT = { "X-Svc-Token": "root-secret" };

const servers: RunningServer[] = [];
/** A server with no jobs (index 1), on a free loopback port. */
async function start(options: Partial<ServerOptions> = {}, acl = false): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-events-"));
  const dataFile = join(dir, "data.json");
  writeFileSync(dataFile, JSON.stringify({ jobs: [], deployments: [] }));
  const all: ServerOptions = { ...DEFAULT_OPTIONS, port: 0, opsPort: 0, dataFile, logLevel: "error", ...options };
  if (acl) {
    all.aclTokensFile = join(dir, "tokens.json");
    writeFileSync(all.aclTokensFile, JSON.stringify(TOKENS));
  }
  const server = await startServer(all);
  servers.push(server);
  return server;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.lifecycle.shutdown()));
});

/** Polls `check` until it is true (test/support/wait.ts). */
const eventually = (check: () => boolean | Promise<boolean>, what: string): Promise<void> => until(what, check);

/** PUT /v1/jobs; the write's index. */
async function register(base: string, job: Json, headers: Record<string, string> = ROOT): Promise<number> {
  const res = await send(base, "PUT", "/v1/jobs", { Job: job }, headers);
  expect(res.status, res.text).toBe(200);
  return (JSON.parse(res.text) as { Index: number }).Index;
}

const service = (id: string, extra: Json = {}): Json => ({ ID: id, Type: "service", Datacenters: ["dc1"], TaskGroups: [{ Name: "g", Count: 2 }], ...extra });
const batch = (id: string, extra: Json = {}): Json => ({ ID: id, Type: "batch", TaskGroups: [{ Name: "g", Count: 1 }], ...extra });

describe("events from writes", () => {
  let server: RunningServer;
  let base: string;
  beforeAll(async () => {
    server = await start({ eventHeartbeatMs: 100 }, true);
    base = server.apiUrl;
  });

  it("a registration, an update and a stop through PUT /v1/jobs are frames of their events, one frame per write, in index order", async () => {
    const stream = await Stream.open(base, q({ namespace: "*" }), ROOT);
    expect(stream.res.statusCode).toBe(200);
    expect(stream.res.headers["content-type"]).toBe("application/json");
    const first = await register(base, service("web"));
    const second = await register(base, service("web", { TaskGroups: [{ Name: "g", Count: 5 }] }));
    const third = await register(base, service("web", { Stop: true }));
    await stream.reached(third);

    const jobs = JSON.parse((await send(base, "GET", "/v1/jobs", undefined, ROOT)).text) as Json[];
    const deployments = JSON.parse((await send(base, "GET", "/v1/deployments", undefined, ROOT)).text) as Json[];
    expect(stream.frames.map((f) => f.Index)).toEqual([first, second, third]);
    for (const f of stream.frames) for (const e of f.Events) expect(e.Index).toBe(f.Index);
    const [a, b, c] = stream.frames as [Frame, Frame, Frame];
    const d1 = deployments.find((d) => d["CreateIndex"] === first)!;
    const d2 = deployments.find((d) => d["CreateIndex"] === second)!;
    // Keys in the documented order; the payload is the job list entry / the deployment as the lists show them.
    expect(Object.keys(a.Events[0]!)).toEqual(["Topic", "Type", "Key", "Namespace", "Index", "Payload"]);
    expect(a.Events.map((e) => [e.Topic, e.Type, e.Key, e.Namespace])).toEqual([
      ["Job", "JobRegistered", "web", "default"],
      ["Deployment", "DeploymentStatusUpdate", d1["ID"], "default"],
    ]);
    expect(a.Events[1]!.Payload).toEqual({ Deployment: { ...d1, Status: "running", StatusDescription: "Deployment is running", ModifyIndex: first } });
    // The update cancels the first deployment and starts the second, in the same write.
    expect(b.Events.map((e) => [e.Topic, e.Type, e.Key, (e.Payload.Deployment ?? {})["Status"]])).toEqual([
      ["Job", "JobRegistered", "web", undefined],
      ["Deployment", "DeploymentStatusUpdate", d1["ID"], "cancelled"],
      ["Deployment", "DeploymentStatusUpdate", d2["ID"], "running"],
    ]);
    expect(c.Events.map((e) => [e.Topic, e.Type, e.Key, (e.Payload.Deployment ?? {})["StatusDescription"]])).toEqual([
      ["Job", "JobDeregistered", "web", undefined],
      ["Deployment", "DeploymentStatusUpdate", d2["ID"], "Cancelled because job is stopped"],
    ]);
    expect(c.Events[0]!.Payload).toEqual({ Job: jobs.find((j) => j["ID"] === "web") });
    expect(c.Events[1]!.Payload).toEqual({ Deployment: deployments.find((d) => d["ID"] === d2["ID"]) });
    stream.destroy();
  });

  it("topic and key select events: Job:web only that job, Deployment every deployment; an unknown topic is a 400", async () => {
    const jobApi = await Stream.open(base, q({ topic: "Job:t-api" }), ROOT);
    const deployments = await Stream.open(base, q({ topic: ["Deployment", "Job:nothing"] }), ROOT);
    const all = await Stream.open(base, q({ topic: "*" }), ROOT);
    await register(base, service("t-web"));
    await register(base, service("t-web", { TaskGroups: [{ Name: "g", Count: 3 }] }));
    const last = await register(base, service("t-api"));
    await Promise.all([jobApi.reached(last), deployments.reached(last), all.reached(last)]);
    expect(jobApi.events.map((e) => [e.Topic, e.Key])).toEqual([["Job", "t-api"]]);
    // t-web's first deployment, its cancellation and its second one, t-api's.
    expect(deployments.events.map((e) => [e.Topic, e.Payload.Deployment!["JobID"], e.Payload.Deployment!["Status"]])).toEqual([
      ["Deployment", "t-web", "running"],
      ["Deployment", "t-web", "cancelled"],
      ["Deployment", "t-web", "running"],
      ["Deployment", "t-api", "running"],
    ]);
    expect(all.events.map((e) => e.Topic)).toEqual(["Job", "Deployment", "Job", "Deployment", "Deployment", "Job", "Deployment"]);
    const jobKeys = await Stream.open(base, q({ topic: ["Job:t-web", "Job:t-api"] }), ROOT);
    const again = await register(base, batch("t-other"));
    const twice = await register(base, service("t-api", { Stop: true }));
    await jobKeys.reached(twice);
    expect(again).toBe(twice - 1);
    expect(jobKeys.events.map((e) => [e.Type, e.Key])).toEqual([["JobDeregistered", "t-api"]]);
    jobKeys.destroy();
    for (const s of [jobApi, deployments, all]) s.destroy();

    const bad = await send(base, "GET", q({ topic: "Allocation" }), undefined, ROOT);
    expect([bad.status, bad.text]).toEqual([400, 'Invalid topic "Allocation": this server\'s topics are Job and Deployment (or *)']);
    expect((await send(base, "GET", q({ index: "x" }), undefined, ROOT)).text).toBe("Invalid index");
  });

  it("a filter selects events (the documented schema), and an event it fails on is skipped: the stream goes on", async () => {
    // `or` evaluates its left side first: the Topic test keeps `Payload.Job` from failing on Deployment events.
    const filter = '(Topic == "Job" and Payload.Job.Priority == 70) or (Topic == "Deployment" and Payload.Deployment.TaskGroups.g.DesiredTotal == 4)';
    const pointer = "Payload.Job.Name == \"p1\""; // fails (nil pointer) on every Deployment event
    const s1 = await Stream.open(base, q({ filter }), ROOT);
    const s2 = await Stream.open(base, q({ filter: pointer }), ROOT);
    const failedBefore = await metric(base, "filter_server_event_filter_failed_total", { reason: "evaluation" });
    await register(base, service("p1", { Priority: 70 }));
    await register(base, service("p2", { TaskGroups: [{ Name: "g", Count: 4 }] }));
    const last = await register(base, batch("p1", { Priority: 70 }));
    await s1.reached(last);
    await s2.reached(last);
    expect(s1.events.map((e) => [e.Topic, e.Key, e.Index])).toEqual([
      ["Job", "p1", last - 2],
      ["Deployment", s1.events[1]!.Key, last - 1],
      ["Job", "p1", last],
    ]);
    expect(s1.events[1]!.Payload.Deployment!["JobID"]).toBe("p2");
    expect(s2.events.map((e) => [e.Topic, e.Key, e.Index])).toEqual([
      ["Job", "p1", last - 2],
      ["Job", "p1", last],
    ]);
    // p1's and p2's deployments: the pointer filter failed on each, and they were skipped.
    expect((await metric(base, "filter_server_event_filter_failed_total", { reason: "evaluation" })) - failedBefore).toBe(2);
    for (const s of [s1, s2]) s.destroy();
  });

  it("a bad filter is a 400 with its position, as the list endpoints answer it, before any byte of the stream", async () => {
    const syntax = await send(base, "GET", q({ filter: "Topic ==" }), undefined, ROOT);
    expect(syntax.status).toBe(400);
    expect(syntax.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(syntax.text).toBe('failed to create result paginator: failed to read filter expression: expected a value after "==", but the expression ends at 1:9');
    // A mistake every event reaches: the library's compile-time error, with its position.
    const wrong = 'Payload.Deployment.Stauts == "running" and Topic == "Deployment"';
    const message = (() => {
      try {
        compile(wrong, { schema: EVENT_SCHEMA });
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error("expected a type error");
    })();
    expect(message).toMatch(/"Stauts" is not a field of Deployment.* at 1:\d+$/);
    const unknown = await send(base, "GET", q({ filter: wrong }), undefined, ROOT);
    expect([unknown.status, unknown.text]).toEqual([400, `failed to create result paginator: failed to read filter expression: ${message}`]);
    // The list endpoint's text for the same mistake is the same.
    const list = await send(base, "GET", `/v1/jobs?filter=${encodeURIComponent("Status ==")}`, undefined, ROOT);
    expect(list.text).toBe('failed to create result paginator: failed to read filter expression: expected a value after "==", but the expression ends at 1:10');
  });

  it("the token's ACL comes first: another namespace's events never reach the stream or its filter; no token or one without job:read is a 403", async () => {
    const dev = { "X-Svc-Token": "dev-secret" };
    // A filter that fails on every Deployment event: had it seen prod's deployment, the failure count would move.
    const filter = 'Payload.Job.Type == "batch"';
    const all = await Stream.open(base, q({ namespace: "*", filter }), dev);
    const only = await Stream.open(base, q({ namespace: "dev" }), dev);
    expect([all.res.statusCode, only.res.statusCode]).toEqual([200, 200]);
    const failed = async (): Promise<number> => (await metric(base, "filter_server_event_filter_failed_total", { reason: "evaluation" })) + (await metric(base, "filter_server_event_filter_failed_total", { reason: "budget" }));
    const before = await failed();
    await register(base, service("secret", { Namespace: "prod" }), ROOT);
    const last = await register(base, batch("visible", { Namespace: "dev" }), ROOT);
    await all.reached(last);
    await only.reached(last);
    expect(all.events.map((e) => [e.Namespace, e.Key])).toEqual([["dev", "visible"]]);
    expect(only.events.map((e) => [e.Namespace, e.Key])).toEqual([["dev", "visible"]]);
    expect(await failed()).toBe(before);
    for (const s of [all, only]) s.destroy();

    for (const [headers, path] of [
      [{}, q({})],
      [{ "X-Svc-Token": "unknown" }, q({})],
      [{ "X-Svc-Token": "ops-secret" }, q({ namespace: "*" })],
      [dev, q({})],
      [dev, q({ namespace: "prod" })],
    ] as const) {
      const res = await send(base, "GET", path, undefined, headers);
      expect([res.status, res.text]).toEqual([403, "Permission denied"]);
    }
  });

  it("sends a {} heartbeat on each quiet period", async () => {
    const stream = await Stream.open(base, q({}), ROOT);
    await stream.waitFor(() => stream.heartbeats >= 3, "three heartbeats");
    expect(stream.frames).toEqual([]);
    expect(stream.lines.slice(0, 3)).toEqual(["{}", "{}", "{}"]);
    stream.destroy();
  });

  it("one filter set serves every stream: a stream whose leading equality is false costs no evaluation", async () => {
    // A server of its own: no other stream's filter counts.
    const base = (await start({ eventHeartbeatMs: 60_000 })).apiUrl;
    const streams = await Promise.all(Array.from({ length: 20 }, (_, i) => Stream.open(base, q({ filter: `Topic == "Deployment" and Key == "nothing-${i}"` }), ROOT)));
    const watcher = await Stream.open(base, q({ topic: "Job:spare" }), ROOT);
    const before = await metric(base, "filter_server_event_filter_evaluations_total");
    // A batch job: one Job event, which no filter's leading equality (Topic == "Deployment") holds for.
    const index = await register(base, batch("spare"));
    await watcher.reached(index);
    expect((await metric(base, "filter_server_event_filter_evaluations_total")) - before).toBe(0);
    // A service job: its Deployment event is evaluated by each of the 20 (none matches).
    const next = await register(base, service("spare"));
    await watcher.reached(next);
    expect((await metric(base, "filter_server_event_filter_evaluations_total")) - before).toBe(20);
    for (const s of [...streams, watcher]) s.destroy();
  });
});

describe("resuming with index", () => {
  it("sends the buffered writes above index first, then live ones; an index older than the buffer starts at the oldest held and names the gap", async () => {
    // A buffer of 4 events; batch jobs are one event per write.
    const server = await start({ eventBuffer: 4, eventHeartbeatMs: 60_000 });
    const base = server.apiUrl;
    const indexes: number[] = [];
    for (let i = 1; i <= 6; i++) indexes.push(await register(base, batch(`j${i}`)));
    expect(indexes).toEqual([2, 3, 4, 5, 6, 7]);
    // Held: 4..7; events up to 3 are gone.
    const resumed = await Stream.open(base, q({ index: "4" }));
    expect(resumed.res.headers["x-svc-event-gap"]).toBeUndefined();
    await resumed.reached(7);
    const old = await Stream.open(base, q({ index: "1" }));
    expect(old.res.headers["x-svc-event-gap"]).toBe("2-3");
    await old.reached(7);
    const fromNow = await Stream.open(base, q({}));
    const future = await Stream.open(base, q({ index: "8" }));
    expect(fromNow.res.headers["x-svc-index"]).toBe("7");

    const live = await register(base, batch("j7"));
    const later = await register(base, batch("j8"));
    for (const s of [resumed, old, fromNow, future]) await s.reached(later);
    expect(resumed.frames.map((f) => f.Index)).toEqual([5, 6, 7, live, later]);
    expect(resumed.events.map((e) => e.Key)).toEqual(["j4", "j5", "j6", "j7", "j8"]);
    expect(old.frames.map((f) => f.Index)).toEqual([4, 5, 6, 7, live, later]);
    expect(fromNow.frames.map((f) => f.Index)).toEqual([live, later]);
    expect(future.frames.map((f) => f.Index)).toEqual([later]);
    // Resuming with a filter: the replay is filtered as the live events are.
    const filtered = await Stream.open(base, q({ index: "1", filter: 'Key matches "[68]$"' }));
    await filtered.reached(later);
    expect(filtered.events.map((e) => e.Key)).toEqual(["j6", "j8"]);
    for (const s of [resumed, old, fromNow, future, filtered]) s.destroy();
  });
});

describe("bounds", () => {
  /** A job whose list entry and deployments are large: about 120 KB of events per write (measured). */
  const big = (id: string, n: number): Json => ({
    ID: id,
    Type: "service",
    Datacenters: Array.from({ length: 60 }, (_, i) => `dc-${i}-${"d".repeat(180)}`),
    TaskGroups: Array.from({ length: 100 }, (_, i) => ({ Name: `group-${i}-${"g".repeat(180)}`, Count: n })),
  });

  /** A raw connection that asks `path`, reads the response head, then reads nothing more; `closed` resolves when the connection ends. */
  async function stalled(base: string, path: string): Promise<{ socket: Socket; closed: Promise<void> }> {
    const socket: Socket = connect(Number(new URL(base).port), "127.0.0.1");
    const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    socket.on("error", () => undefined);
    await new Promise<void>((resolve) => {
      let head = "";
      socket.on("data", function onData(chunk: Buffer) {
        head += chunk.toString("latin1");
        if (!head.includes("\r\n\r\n")) return;
        socket.off("data", onData);
        socket.pause();
        resolve();
      });
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    });
    return { socket, closed };
  }

  it("a client that does not read is cut once its connection holds more than the bound, and the server goes on", async () => {
    const server = await start({ eventStreamBytes: 256 * 1024, eventHeartbeatMs: 60_000 });
    const base = server.apiUrl;
    const { socket, closed } = await stalled(base, "/v1/event/stream");
    expect(await metric(base, "filter_server_event_streams_open")).toBe(1);
    // Writes until the server cuts the stream: the kernel's buffers take a few MB, then Node's up to the bound.
    let writes = 0;
    while ((await metric(base, "filter_server_event_streams_ended_total", { reason: "slow" })) === 0) {
      expect(writes, "the stream was never cut").toBeLessThan(400);
      await register(base, big("big", (writes++ % 5) + 1));
    }
    expect(await metric(base, "filter_server_event_streams_open")).toBe(0);
    // The client sees its connection end (a reset) once it reads again.
    socket.resume();
    await settled("the cut connection to close", closed);
    expect((await send(base, "GET", "/v1/jobs")).status).toBe(200);
    // About 120 KB per write: the cut came after a few MB, not at the first write nor never.
    expect(writes).toBeGreaterThan(3);
  });

  it("a stream replaying the buffer slower than writes drop it is cut (lagged) rather than skipping events", async () => {
    // 60 writes of one big job (its entry, the cancelled and the new deployment), about 7 MB: more than
    // the kernel's buffers of a connection take.
    const server = await start({ eventBuffer: 60, eventHeartbeatMs: 60_000, eventStreamBytes: 64 * 1024 * 1024 });
    const base = server.apiUrl;
    for (let i = 0; i < 60; i++) await register(base, big("lag", (i % 5) + 1));
    // It replays from the start until the connection's buffers are full, then waits for them to drain.
    const { socket, closed } = await stalled(base, "/v1/event/stream?index=1");
    // 60 more writes drop every write it had not sent.
    for (let i = 0; i < 60; i++) await register(base, big("lag", (i % 5) + 1));
    expect(await metric(base, "filter_server_event_streams_ended_total", { reason: "lagged" })).toBe(0);
    socket.resume();
    await settled("the lagged stream to be cut", closed);
    expect(await metric(base, "filter_server_event_streams_ended_total", { reason: "lagged" })).toBe(1);
    expect(await metric(base, "filter_server_event_streams_ended_total", { reason: "slow" })).toBe(0);
  });

  it("past the bound on open streams a new stream is 503 with Retry-After; shutdown ends open streams cleanly and at once", async () => {
    const server = await start({ eventStreams: 2, eventHeartbeatMs: 60_000, shutdownTimeoutMs: 120_000 });
    const base = server.apiUrl;
    const a = await Stream.open(base, q({}));
    const b = await Stream.open(base, q({ topic: "Job" }));
    const refused = await send(base, "GET", q({}));
    expect([refused.status, refused.headers["retry-after"], refused.text]).toEqual([503, "1", "2 event streams are open, as many as this server serves at once; retry later"]);
    b.destroy();
    await eventually(async () => (await metric(base, "filter_server_event_streams_open")) === 1, "the closed stream to be forgotten");
    const c = await Stream.open(base, q({}));
    expect(c.res.statusCode).toBe(200);

    const index = await register(base, batch("last"));
    await a.reached(index);
    const started = Date.now();
    await server.lifecycle.shutdown();
    // Far below the shutdown timeout (120 s, half of it even on a busy machine): nothing waited for the
    // streams to end by themselves, nor cut them at the bound (they end cleanly, below).
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(await a.ended).toBe("end");
    expect(await c.ended).toBe("end");
    expect(c.frames.map((f) => f.Index)).toEqual([index]);
  });
});

describe("the bin", () => {
  afterAll(() => killAll());

  it("--event-streams, --event-heartbeat and --event-buffer bound the streams; SIGTERM ends them cleanly and the process exits 0", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-server-events-bin-"));
    const data = join(dir, "data.json");
    writeFileSync(data, JSON.stringify({ jobs: [], deployments: [] }));
    const proc = await startBin(["--data", data, "--event-streams", "1", "--event-heartbeat", "50ms", "--event-buffer", "2", "--event-stream-memory", "512KiB", "--shutdown-timeout", "120s"]);
    const first = await Stream.open(proc.api, q({}));
    await first.waitFor(() => first.heartbeats >= 2, "two heartbeats");
    const refused = await send(proc.api, "GET", q({}));
    expect([refused.status, refused.text]).toEqual([503, "1 event streams are open, as many as this server serves at once; retry later"]);
    for (const id of ["a", "b", "c"]) await register(proc.api, batch(id));
    await first.reached(4);
    first.destroy();
    await eventually(async () => (await metric(proc.api, "filter_server_event_streams_open")) === 0, "the first stream to be forgotten");
    // Two events held (indexes 3 and 4): index 2's is gone.
    const resumed = await Stream.open(proc.api, q({ index: "1" }));
    expect(resumed.res.headers["x-svc-event-gap"]).toBe("2-2");
    await resumed.reached(4);
    expect(resumed.frames.map((f) => f.Index)).toEqual([3, 4]);
    const started = Date.now();
    const exit = await stopBin(proc);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(await resumed.ended).toBe("end");
    // Far below the shutdown timeout (120 s): the stream did not hold the exit up.
    expect(Date.now() - started).toBeLessThan(60_000);
  });
});

describe("PostgreSQL", () => {
  let cluster: PostgresCluster | undefined;
  afterAll(async () => cluster?.stop());

  it("a server on PostgreSQL streams its writes: the stream starts at the index the server opened at", async () => {
    cluster = runCluster();
    const server = await start({ database: await cluster.createDatabase("events") });
    const base = server.apiUrl;
    const stream = await Stream.open(base, q({ topic: "Job" }));
    expect([stream.res.statusCode, stream.res.headers["x-svc-index"]]).toEqual([200, "1"]);
    const index = await register(base, batch("on-postgres"));
    await stream.reached(index);
    expect(stream.frames.map((f) => [f.Index, f.Events.map((e) => [e.Type, e.Key])])).toEqual([[index, [["JobRegistered", "on-postgres"]]]]);
    // Resuming from the index the server opened at: every write since, no gap.
    const resumed = await Stream.open(base, q({ index: "1" }));
    expect(resumed.res.headers["x-svc-event-gap"]).toBeUndefined();
    await resumed.reached(index);
    for (const s of [stream, resumed]) s.destroy();
  });
});

describe("random filters", () => {
  const LEAVES = [
    'Topic == "Job"',
    'Topic == "Deployment"',
    'Topic != "Job"',
    'Type == "JobDeregistered"',
    'Namespace == "dev"',
    '"de" in Namespace',
    'Key == "web"',
    'Key matches "^a"',
    "Payload.Job.Priority == 70",
    "Payload.Job is nil",
    "Payload.Deployment is not nil",
    'Payload.Deployment.Status == "cancelled"',
    '"dc2" in Payload.Job.Datacenters',
    "Payload.Job.Stop == true",
    "Payload.Deployment.TaskGroups.g.DesiredTotal == 2",
    'Payload.Job.JobSummary.Summary.g.Queued == 3',
  ];
  const filterArb: fc.Arbitrary<string> = fc.letrec<{ f: string }>((tie) => ({
    f: fc.oneof(
      // Nested parentheses cost go-bexpr's parser a lot: deeper filters can pass its parse budget (a 400).
      { maxDepth: 3, depthIdentifier: "filter", withCrossShrink: true },
      fc.constantFrom(...LEAVES),
      fc.tuple(tie("f"), fc.constantFrom("and", "or"), tie("f")).map(([a, op, b]) => `(${a}) ${op} (${b})`),
      tie("f").map((a) => `not (${a})`),
    ),
  })).f;
  const writeArb = fc.record({
    id: fc.constantFrom("web", "api", "batch-1"),
    namespace: fc.constantFrom("default", "dev", "prod"),
    type: fc.constantFrom("service", "batch"),
    priority: fc.constantFrom(50, 70),
    count: fc.integer({ min: 1, max: 3 }),
    stop: fc.boolean(),
    datacenters: fc.constantFrom(["dc1"], ["dc1", "dc2"]),
  });

  /** What evaluating the filter on each event selects (an evaluation error: not selected); undefined when it does not compile. */
  function naive(filter: string, namespace: string, events: readonly Ev[]): Ev[] | undefined {
    let f: Filter;
    try {
      f = compile(filter, { schema: EVENT_SCHEMA, maxLength: Infinity });
    } catch {
      return undefined;
    }
    return events.filter((e) => {
      if (namespace !== "*" && e.Namespace !== namespace) return false;
      try {
        return f.evaluate(e);
      } catch {
        return false;
      }
    });
  }

  it("a stream delivers exactly the events that a per-event compile(filter).evaluate(event) selects", async () => {
    await fc.assert(
      // Each stream opens before the writes (live: the filter set), or halfway with index=1 (the
      // buffer's first half replayed with the filter alone, then live).
      fc.asyncProperty(fc.array(fc.tuple(filterArb, fc.constantFrom("*", "dev"), fc.boolean()), { minLength: 6, maxLength: 12 }), fc.array(writeArb, { minLength: 6, maxLength: 14 }), async (subscriptions, writes) => {
        const server = await start({ eventHeartbeatMs: 60_000 });
        const base = server.apiUrl;
        const reference = await Stream.open(base, q({ namespace: "*" }));
        const open = (late: boolean): Promise<Stream[]> =>
          Promise.all(subscriptions.filter(([, , l]) => l === late).map(([filter, namespace]) => Stream.open(base, q(late ? { filter, namespace, index: "1" } : { filter, namespace }))));
        const early = await open(false);
        const write = (w: (typeof writes)[number]): Promise<number> =>
          register(base, { ID: w.id, Namespace: w.namespace, Type: w.type, Priority: w.priority, Stop: w.stop, Datacenters: w.datacenters, TaskGroups: [{ Name: "g", Count: w.count }] });
        const half = Math.floor(writes.length / 2);
        for (const w of writes.slice(0, half)) await write(w);
        const late = await open(true);
        for (const w of writes.slice(half)) await write(w);
        const streams = [...early, ...late];
        const ordered = [...subscriptions.filter(([, , l]) => !l), ...subscriptions.filter(([, , l]) => l)];
        // Shutdown ends every stream after its last frame: each stream is then complete.
        await server.lifecycle.shutdown();
        expect(await reference.ended).toBe("end");
        expect(reference.frames).toHaveLength(writes.length);
        for (const [i, [filter, namespace]] of ordered.entries()) {
          const s = streams[i]!;
          expect(await s.ended).toBe("end");
          const want = naive(filter, namespace, reference.events);
          // A filter the library refuses is a 400 (and no stream).
          expect(s.res.statusCode, filter).toBe(want === undefined ? 400 : 200);
          if (want === undefined) continue;
          expect(s.events, `filter ${filter} (namespace ${namespace})`).toEqual(want);
          // One frame per write, holding that write's selected events.
          expect(s.frames.map((f) => f.Index)).toEqual([...new Set(want.map((e) => e.Index))]);
        }
      }),
      { numRuns: runs(20), endOnFailure: true },
    );
  });
});
