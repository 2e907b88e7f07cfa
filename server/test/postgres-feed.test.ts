/**
 * What crosses servers through PostgreSQL's change feed, over real HTTP, servers on 127.0.0.1 sharing
 * one database. The event stream (server/docs/events.md, "PostgreSQL"): servers stream each other's
 * writes. Two servers (the bin): a stream on B
 * receives the writes made through A and through B, concurrent ones included, in index order and once,
 * with filters, topics, namespaces and B's ACL applied as a per-event evaluation of the filter selects;
 * a stream on B resumes with `index` from events written through A. A server whose notification
 * connection is killed (`pg_terminate_backend`) and kept from reconnecting (a proxy in front of the
 * database refuses its new connections) loses nothing while the writes made meanwhile stay within the
 * change log's bound; past it, its streams are cut and a resumption is told the gap. Blocking queries
 * with `--blocking-queries page`: a query waiting on one server wakes for another server's write that
 * changes its page, and only for such a write.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compile } from "filter-expr";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshotFromData } from "../src/lists/load.js";
import { PostgresStore } from "../src/store/postgres/index.js";
import { DEFAULT_OPTIONS } from "../src/context.js";
import { startServer, type RunningServer } from "../src/ops/start.js";
import { killAll, start, stop, type Running } from "./server-process.js";
import { EVENT_SCHEMA, metric, q, send, Stream, type Ev, type Frame, type Json } from "./support/event-streams.js";
import { serveOn, type PostgresCluster, type StoreServer } from "./support/postgres.js";
import { runCluster } from "./support/cluster.js";
import { databaseName } from "../../test/support/shared-postgres.js";
import { settled, until } from "../../test/support/wait.js";

const TOKENS = [
  { SecretID: "root-secret", Name: "root", Management: true, Capabilities: [] },
  { SecretID: "dev-secret", Name: "dev reader", Capabilities: ["job:read@dev"] },
];
const ROOT = { "X-Svc-Token": "root-secret" };
const DEV = { "X-Svc-Token": "dev-secret" };
/** The seed's jobs are at index 10: the servers open there. */
const SEED = { jobs: [10, 11].map((i) => ({ ID: `seed-${i}`, Name: `seed-${i}`, Namespace: "default", Status: "running", Type: "batch", CreateIndex: i - 1, ModifyIndex: 10 })), deployments: [] };
const START = 10;

let cluster: PostgresCluster;
let dir: string;
let dataFile: string;
let tokensFile: string;
const closers: (() => Promise<unknown>)[] = [];
beforeAll(async () => {
  cluster = runCluster();
  dir = mkdtempSync(join(tmpdir(), "filter-server-events-pg-"));
  dataFile = join(dir, "data.json");
  tokensFile = join(dir, "tokens.json");
  writeFileSync(dataFile, JSON.stringify(SEED));
  writeFileSync(tokensFile, JSON.stringify(TOKENS));
});
afterAll(async () => {
  killAll();
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** PUT /v1/jobs; the write's index. */
async function register(base: string, job: Json, headers: Record<string, string> = {}): Promise<number> {
  const res = await send(base, "PUT", "/v1/jobs", { Job: job }, headers);
  expect(res.status, res.text).toBe(200);
  return (JSON.parse(res.text) as { Index: number }).Index;
}

const job = (id: string, namespace: string, extra: Json = {}): Json => ({ ID: id, Namespace: namespace, Type: "service", Datacenters: ["dc1"], TaskGroups: [{ Name: "g", Count: 1 }], ...extra });

const health = async (server: Running): Promise<number> => {
  try {
    return (await fetch(`${server.ops}/health`)).status;
  } catch {
    return 0;
  }
};

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * What a stream should receive of the reference events (every event, in order): those of namespaces
 * the token reads and the stream asks for, of its topic, that its filter selects (a failure: not).
 */
function selected(events: readonly Ev[], options: { readable: (ns: string) => boolean; namespace: string; topic?: string; filter?: string }): Ev[] {
  const f = options.filter === undefined ? undefined : compile(options.filter, { schema: EVENT_SCHEMA });
  return events.filter((e) => {
    if (!options.readable(e.Namespace) || (options.namespace !== "*" && e.Namespace !== options.namespace)) return false;
    if (options.topic !== undefined && e.Topic !== options.topic) return false;
    try {
      return f === undefined || f.evaluate(e);
    } catch {
      return false;
    }
  });
}

describe("two servers on one database", () => {
  let a: Running;
  let b: Running;
  beforeAll(async () => {
    const url = await cluster.createDatabase("two_servers");
    // The same seed for both, whichever seeds the database first.
    [a, b] = await Promise.all([start(["--database", url, "--data", dataFile]), start(["--database", url, "--data", dataFile, "--acl-tokens", tokensFile])]);
    closers.push(() => stop(a), () => stop(b));
  });

  it("a stream on B receives the writes through A and through B, concurrent ones too, in index order and once, with the filter, topics and ACL applied", async () => {
    const refA = await Stream.open(a.api, q({ namespace: "*" }));
    const refB = await Stream.open(b.api, q({ namespace: "*" }), ROOT);
    expect([refA.res.headers["x-svc-index"], refB.res.headers["x-svc-index"]]).toEqual([String(START), String(START)]);
    const streams = [
      // The dev reader's token over every namespace: dev's events only (the ACL first), filtered.
      { options: { readable: (ns: string) => ns === "dev", namespace: "*", filter: 'Topic == "Deployment" or Payload.Job.Priority == 70' }, headers: DEV },
      { options: { readable: () => true, namespace: "*", topic: "Job", filter: 'Key matches "-(1|end)$"' }, headers: ROOT },
      // A leading equality (the filter set's index).
      { options: { readable: () => true, namespace: "dev", filter: 'Type == "JobDeregistered" and Payload.Job.Priority == 70' }, headers: ROOT },
      // No filter: topic, namespace and ACL alone.
      { options: { readable: (ns: string) => ns === "dev", namespace: "dev", topic: "Job" }, headers: DEV },
    ];
    const opened = await Promise.all(
      streams.map(({ options, headers }) => {
        const params: Record<string, string> = { namespace: options.namespace };
        if (options.topic !== undefined) params["topic"] = options.topic;
        if (options.filter !== undefined) params["filter"] = options.filter;
        return Stream.open(b.api, q(params), headers);
      }),
    );
    for (const s of opened) expect(s.res.statusCode).toBe(200);

    // One at a time through A and B in turn, then four writers at once (two per server).
    const namespaces = ["default", "dev", "prod"];
    for (let i = 0; i < 8; i++) {
      const through = i % 2 === 0 ? a : b;
      await register(through.api, job(`${i % 2 === 0 ? "a" : "b"}-${i % 3}`, namespaces[i % 3]!, { Priority: i % 4 === 0 ? 70 : 50, Stop: i === 6 }), ROOT);
    }
    await Promise.all(
      [a, a, b, b].map(async (through, w) => {
        for (let i = 0; i < 8; i++) {
          const id = `${through === a ? "a" : "b"}-w${w}-${i % 3}`;
          await register(through.api, job(id, namespaces[(w + i) % 3]!, { Priority: (w + i) % 2 === 0 ? 70 : 50, Stop: i === 7 }), ROOT);
        }
      }),
    );
    // Last, one write every stream above selects: when it has arrived, so has everything before it.
    const last = await register(a.api, job("a-end", "dev", { Priority: 70, Stop: true }));
    expect(last).toBe(START + 8 + 32 + 1);
    await Promise.all([refA.reached(last), refB.reached(last), ...opened.map((s) => s.reached(last))]);

    // Every write once, in index order, the same on both servers.
    expect(refB.frames.map((f) => f.Index)).toEqual(range(START + 1, last));
    expect(refA.frames).toEqual(refB.frames);
    for (const [i, s] of opened.entries()) {
      const want = selected(refB.events, streams[i]!.options);
      expect(s.events, JSON.stringify(streams[i]!.options)).toEqual(want);
      expect(s.frames.map((f: Frame) => f.Index)).toEqual([...new Set(want.map((e) => e.Index))]);
    }
    // Each selected something of both servers' writes (the job IDs say which server wrote them).
    const server = (e: Ev): string => (e.Topic === "Job" ? e.Key : String(e.Payload.Deployment!["JobID"])).slice(0, 1);
    for (const s of opened) expect(new Set(s.events.map(server))).toEqual(new Set(["a", "b"]));
    for (const s of [refA, refB, ...opened]) s.destroy();
  });

  it("a stream on B resumes with index from events written through A, then goes on live", async () => {
    const live = await Stream.open(b.api, q({ namespace: "*" }), ROOT);
    const written: number[] = [];
    for (let i = 0; i < 4; i++) written.push(await register(a.api, job(`a-r${i}`, "default", { Priority: 60 + i })));
    await live.reached(written[3]!);
    const [, w2] = written as [number, number, number, number];

    const resumed = await Stream.open(b.api, q({ namespace: "*", index: String(w2) }), ROOT);
    const jobsOnly = await Stream.open(b.api, q({ namespace: "*", index: String(written[0]!), filter: 'Topic == "Job"' }), ROOT);
    // Older than what B holds (it opened at START): the gap is named, then everything since.
    const old = await Stream.open(b.api, q({ namespace: "*", index: "1" }), ROOT);
    expect(resumed.res.headers["x-svc-event-gap"]).toBeUndefined();
    expect(jobsOnly.res.headers["x-svc-event-gap"]).toBeUndefined();
    expect(old.res.headers["x-svc-event-gap"]).toBe(`2-${START}`);
    const next = await register(b.api, job("b-after", "default"), ROOT);
    await Promise.all([live, resumed, jobsOnly, old].map((s) => s.reached(next)));

    expect(resumed.frames).toEqual(live.frames.filter((f) => f.Index > w2));
    expect(jobsOnly.events).toEqual(live.events.filter((e) => e.Topic === "Job" && e.Index > written[0]!));
    expect(old.frames[0]!.Index).toBe(START + 1);
    expect(old.frames.at(-1)).toEqual(live.frames.at(-1));
    for (const s of [live, resumed, jobsOnly, old]) s.destroy();
  });
});

/** A TCP proxy to the cluster that can refuse new connections while those it carries go on. */
async function startProxy(target: number): Promise<{ port: number; refuse(on: boolean): void; close(): Promise<void> }> {
  let refusing = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(target, "127.0.0.1");
    const down = (): void => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on("error", down);
      s.on("close", () => {
        sockets.delete(s);
        down();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as { port: number }).port,
    refuse: (on) => void (refusing = on),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("a server whose notification connection is lost", () => {
  /** Writes the writer's change log keeps. */
  const BOUND = 5;

  it("loses nothing while the writes made meanwhile stay within the change log's bound; past it, its streams are cut and a resumption is told the gap", async () => {
    const url = await cluster.createDatabase("lost_listener");
    const name = databaseName(url);
    // The writer: a server in this process, whose registrations keep 5 writes in the change log.
    const writerStore = await PostgresStore.open(url, () => snapshotFromData({ jobs: [], deployments: [] }), () => undefined, { poolSize: 4, changeLogWrites: BOUND });
    const writer: StoreServer = await serveOn(writerStore);
    closers.push(() => writer.close());
    // The reader (the bin) reaches the database through a proxy that can keep it from reconnecting.
    const proxy = await startProxy(cluster.port);
    closers.push(() => proxy.close());
    const reader = await start(["--database", `postgres://postgres@127.0.0.1:${proxy.port}/${name}?application_name=lost_reader`]);
    closers.push(() => stop(reader));
    await until("the reader healthy", async () => (await health(reader)) === 200, 20);

    const admin = new pg.Client({ host: "127.0.0.1", port: cluster.port, user: "postgres", database: "postgres" });
    await admin.connect();
    closers.push(() => admin.end());
    /** Kills the reader's LISTEN connection while the proxy refuses its reconnections; resolves once it reports the loss. */
    const loseNotifications = async (): Promise<void> => {
      proxy.refuse(true);
      const killed = await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND application_name = 'lost_reader' AND query = 'LISTEN filter_server_index'",
        [name],
      );
      expect(killed.rowCount).toBe(1);
      await until("the reader unhealthy (notifications lost)", async () => (await health(reader)) === 503, 20);
    };

    const stream = await Stream.open(reader.api, q({ namespace: "*" }));
    const first = await register(writer.base, job("w-0", "default"));
    await stream.reached(first);

    // As many writes as the log keeps: every one is still there when the reader reconnects.
    await loseNotifications();
    const within: number[] = [];
    for (let i = 1; i <= BOUND; i++) within.push(await register(writer.base, job(`w-${i}`, "default")));
    proxy.refuse(false);
    await stream.reached(within.at(-1)!);
    expect(stream.frames.map((f) => f.Index)).toEqual(range(first, within.at(-1)!));
    await until("the reader healthy again", async () => (await health(reader)) === 200, 20);

    // Seven writes more than the log keeps: the reader's stream is cut, and the resumption names them.
    await loseNotifications();
    const beyond: number[] = [];
    for (let i = 1; i <= BOUND + 7; i++) beyond.push(await register(writer.base, job(`x-${i % 3}`, "dev")));
    const after = within.at(-1)!;
    expect(beyond).toEqual(range(after + 1, after + BOUND + 7));
    proxy.refuse(false);
    expect(await settled("the reader's stream to be cut", stream.ended)).toBe("error");
    expect(stream.frames.at(-1)!.Index).toBe(after);
    expect(await metric(reader.api, "filter_server_event_streams_ended_total", { reason: "lagged" })).toBe(1);

    const resumed = await Stream.open(reader.api, q({ namespace: "*", index: String(after) }));
    expect(resumed.res.headers["x-svc-event-gap"]).toBe(`${after + 1}-${after + 7}`);
    const fresh = await Stream.open(reader.api, q({ namespace: "*" }));
    expect(fresh.res.headers["x-svc-index"]).toBe(String(beyond.at(-1)));
    const next = await register(writer.base, job("y", "default"));
    await Promise.all([resumed.reached(next), fresh.reached(next)]);
    expect(resumed.frames.map((f) => f.Index)).toEqual([...range(after + 8, after + BOUND + 7), next]);
    expect(resumed.events.filter((e) => e.Topic === "Job").map((e) => e.Key)).toEqual([...beyond.slice(7).map((i) => `x-${(i - after) % 3}`), "y"]);
    expect(fresh.frames.map((f) => f.Index)).toEqual([next]);
    for (const s of [resumed, fresh]) s.destroy();
  });
});

describe("--blocking-queries page on PostgreSQL", () => {
  it("a query waiting on one server wakes for another server's write that changes its page, and not for one that does not", async () => {
    const servers: RunningServer[] = [];
    try {
      const database = await cluster.createDatabase("page_waits");
      const dataFile = join(dir, "page-waits-data.json");
      writeFileSync(dataFile, JSON.stringify({ jobs: [{ ID: "seed", Type: "service", CreateIndex: 5, ModifyIndex: 5 }], deployments: [] }));
      for (let i = 0; i < 2; i++) servers.push(await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, dataFile, database, logLevel: "error", blockingQueries: "page" }));
      const [a, b] = servers.map((s) => s.apiUrl) as [string, string];
      const put = async (job: Record<string, unknown>): Promise<number> => {
        const res = await fetch(`${a}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { TaskGroups: [{ Name: "g" }], ...job } }) });
        expect(res.status).toBe(200);
        return ((await res.json()) as { Index: number }).Index;
      };
      const path = `/v1/jobs?${new URLSearchParams({ filter: 'Type == "batch"' })}`;
      const first = await fetch(`${b}${path}`);
      const index = first.headers.get("x-svc-index")!;
      expect(await first.text()).toBe("[]");
      // B's event stream shows when B's feed has delivered a write (the waits take it in the same turn).
      const feed = await Stream.open(b, q({ topic: "Job" }));
      const waiting = fetch(`${b}${path}&index=${index}`).then(async (res) => ({ index: res.headers.get("x-svc-index"), body: await res.text() }));
      await until("the query waits", async () => (await metric(b, "filter_server_blocking_queries_waiting")) === 1, 20);
      await feed.reached(await put({ ID: "svc", Type: "service" }));
      expect(await metric(b, "filter_server_blocking_page_waits_total", { end: "changed" })).toBe(0);
      expect(await metric(b, "filter_server_blocking_queries_waiting")).toBe(1);
      await put({ ID: "cron", Type: "batch" });
      const got = await waiting;
      const fresh = await fetch(`${b}${path}`);
      expect(got).toEqual({ index: fresh.headers.get("x-svc-index"), body: await fresh.text() });
      expect((JSON.parse(got.body) as { ID: string }[]).map((j) => j.ID)).toEqual(["cron"]);
      feed.destroy();
    } finally {
      for (const s of servers) await s.lifecycle.shutdown();
    }
  });
});
