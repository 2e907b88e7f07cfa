/**
 * The PostgreSQL store's feed of committed writes (`onCommit`, store/postgres/feed.ts) on a real
 * database, the stores driven directly: two stores on one database each deliver the writes of both,
 * concurrent ones included, in index order, each once, with the changes (and the versions they
 * replaced) as the writer made them; a listener that throws breaks nothing; writes pruned from the
 * change log before a store read them are one gap, reported before the next write; a write whose rows
 * were altered is a gap of its own; the log stays within its bound; closing a store stops its feed.
 * The reader alone, over a log in memory: batches, one reader at a time however many notifications
 * come, and a failed read tried again.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { snapshotFromData } from "../src/lists/load.js";
import { parseJobSpec } from "../src/lists/register.js";
import type { LoggedWrite } from "../src/store/postgres/change-log.js";
import { ChangeFeed } from "../src/store/postgres/feed.js";
import { PostgresStore, type PostgresStoreOptions } from "../src/store/postgres/index.js";
import type { Commit } from "../src/store/types.js";
import type { PostgresCluster } from "./support/postgres.js";
import { runCluster } from "./support/cluster.js";
import { HANG_MS } from "../../test/support/wait.js";

let cluster: PostgresCluster;
const stores: PostgresStore[] = [];
beforeAll(async () => {
  cluster = runCluster();
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await cluster?.stop();
});

let databases = 0;
async function database(): Promise<string> {
  return cluster.createDatabase(`feed_${++databases}`);
}

async function open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
  const store = await PostgresStore.open(url, () => snapshotFromData({ jobs: [], deployments: [] }), () => undefined, { poolSize: 4, ...options });
  stores.push(store);
  return store;
}

const job = (id: string, count = 1, extra: Record<string, unknown> = {}) =>
  parseJobSpec({ Job: { ID: id, Type: "service", Datacenters: ["dc1"], TaskGroups: [{ Name: "g", Count: count }], ...extra } }, undefined);

/** A listener that records what it gets, and waits for it. */
function recorder(): { commits: Commit[]; gaps: [number, number][]; order: string[]; listener: (c: Commit) => void; onGap: (a: number, b: number) => void; until: (index: number) => Promise<void> } {
  const commits: Commit[] = [];
  const gaps: [number, number][] = [];
  const order: string[] = [];
  let wake: (() => void) | undefined;
  return {
    commits,
    gaps,
    order,
    listener: (c) => {
      commits.push(c);
      order.push(`commit ${c.index}`);
      wake?.();
    },
    onGap: (a, b) => {
      gaps.push([a, b]);
      order.push(`gap ${a}-${b}`);
    },
    // Woken by each commit; only a hang (test/support/wait.ts) fails.
    async until(index) {
      const deadline = Date.now() + HANG_MS;
      while (!commits.some((c) => c.index >= index)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`still waiting, after ${HANG_MS / 1000} s, for a commit at ${index}; got ${commits.map((c) => c.index).join(",")}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
  };
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("the feed of two stores on one database", () => {
  it("delivers every write of both, concurrent ones too, in index order and once, with the changes the writer made", async () => {
    const url = await database();
    const a = await open(url);
    const b = await open(url);
    const start = b.feedIndex;
    expect(a.feedIndex).toBe(start);
    const onA = recorder();
    const onB = recorder();
    // A listener that throws on every write: the feed and the other listeners go on.
    let thrown = 0;
    b.onCommit(() => {
      thrown++;
      throw new Error("listener failure");
    });
    a.onCommit(onA.listener, onA.onGap);
    b.onCommit(onB.listener, onB.onGap);

    // Sequential writes through both, then four writers at once (two per store), updates among them.
    const written: number[] = [];
    for (let i = 0; i < 6; i++) written.push((await (i % 2 === 0 ? a : b).register(job(`seq-${i % 3}`, i + 1), Date.now())).Index);
    const writers = [a, a, b, b].map(async (store, w) => {
      for (let i = 0; i < 12; i++) written.push((await store.register(job(`w${w}-${i % 4}`, i + 1), Date.now())).Index);
    });
    await Promise.all(writers);
    const last = Math.max(...written);
    expect(last).toBe(start + 54);
    await Promise.all([onA.until(last), onB.until(last)]);

    expect(onB.commits.map((c) => c.index)).toEqual(range(start + 1, last));
    expect(onA.commits).toEqual(onB.commits);
    expect(onB.gaps).toEqual([]);
    expect(thrown).toBe(54);

    // Each job's last change is the job as the database holds it, text for text, with its version.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query<{ id: string; version: number; body: string }>("SELECT id, version, body FROM jobs");
    await client.end();
    const lastOf = new Map<string, { body: string; version: number }>();
    for (const c of onB.commits) for (const ch of c.changes) if (ch.kind === "job") lastOf.set(ch.record.entry.ID, { body: JSON.stringify(ch.record.entry), version: ch.record.version });
    expect(new Map(rows.map((r) => [r.id, { body: r.body, version: r.version }]))).toEqual(lastOf);

    // An update carries the version it replaced: the job's previous change, and the deployment it cancelled.
    const seq0 = onB.commits.filter((c) => c.changes.some((ch) => ch.kind === "job" && ch.record.entry.ID === "seq-0"));
    expect(seq0).toHaveLength(2);
    const [first, second] = seq0 as [Commit, Commit];
    expect(first.changes.map((ch) => [ch.kind, ch.previous === undefined])).toEqual([
      ["job", true],
      ["deployment", true],
      ["evaluation", true],
    ]);
    const firstJob = first.changes[0]!;
    const firstDeployment = first.changes[1]!;
    expect(second.changes.map((ch) => ch.kind)).toEqual(["job", "deployment", "deployment", "evaluation"]);
    expect(second.changes[0]!.previous).toEqual(firstJob.kind === "job" ? firstJob.record.entry : undefined);
    const cancelled = second.changes[1]!;
    expect(cancelled.kind === "deployment" && cancelled.deployment.Status).toBe("cancelled");
    expect(cancelled.previous).toEqual(firstDeployment.kind === "deployment" ? firstDeployment.deployment : undefined);
    expect(second.changes[2]!.previous).toBeUndefined();
  });
});

describe("gaps and bounds", () => {
  it("writes pruned before a store read them are one gap, reported before the next write; the log keeps its bound", async () => {
    const url = await database();
    // The writer keeps 3 writes in the log.
    const writer = await open(url, { changeLogWrites: 3 });
    const reader = await open(url);
    const start = reader.feedIndex;
    const first = recorder();
    const stop = reader.onCommit(first.listener, first.onGap);
    const i1 = (await writer.register(job("g", 1), Date.now())).Index;
    await first.until(i1);
    // Nobody listens: the reader's feed reads nothing while 8 writes happen, 5 of them pruned.
    stop();
    const indexes: number[] = [];
    for (let i = 0; i < 8; i++) indexes.push((await writer.register(job("g", i + 2), Date.now())).Index);
    expect(indexes).toEqual(range(i1 + 1, i1 + 8));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    client.on("error", () => undefined);
    const held = await client.query<{ idx: string }>("SELECT DISTINCT idx FROM change_log ORDER BY idx");
    await client.end();
    expect(held.rows.map((r) => Number(r.idx))).toEqual(range(i1 + 6, i1 + 8));

    // A listener added now starts after what was delivered: the gap first, then the writes still held.
    expect(reader.feedIndex).toBe(i1);
    const second = recorder();
    const stopSecond = reader.onCommit(second.listener, second.onGap);
    await second.until(i1 + 8);
    expect(second.order).toEqual([`gap ${i1}-${i1 + 5}`, `commit ${i1 + 6}`, `commit ${i1 + 7}`, `commit ${i1 + 8}`]);
    expect(first.commits.map((c) => c.index)).toEqual([i1]);
    expect(start).toBe(i1 - 1);

    // A write whose rows were altered in the database is a gap of its own; the next one is delivered.
    stopSecond();
    const third = recorder();
    const i9 = (await writer.register(job("g", 20), Date.now())).Index;
    const i10 = (await writer.register(job("g", 21), Date.now())).Index;
    const altering = new pg.Client({ connectionString: url });
    await altering.connect();
    await altering.query("UPDATE change_log SET body = 'not json' WHERE idx = $1 AND pos = 0", [i9]);
    await altering.end();
    reader.onCommit(third.listener, third.onGap);
    await third.until(i10);
    expect(third.order.slice(-2)).toEqual([`gap ${i9 - 1}-${i9}`, `commit ${i10}`]);
  });

  it("closing a store stops its feed: no write reaches its listeners after close", async () => {
    const url = await database();
    const a = await open(url);
    const b = await open(url);
    const onA = recorder();
    const onB = recorder();
    a.onCommit(onA.listener, onA.onGap);
    b.onCommit(onB.listener, onB.onGap);
    const i1 = (await a.register(job("c"), Date.now())).Index;
    await onB.until(i1);
    await b.close();
    const i2 = (await a.register(job("c", 2), Date.now())).Index;
    await onA.until(i2);
    // A's feed has read i2; B's, closed, must not have.
    const more = (await a.register(job("c", 3), Date.now())).Index;
    await onA.until(more);
    expect(onB.commits.map((c) => c.index)).toEqual([i1]);
  });
});

describe("the reader, over a log in memory", () => {
  /** A log holding the writes `from`..`to`; `read` as the change log answers, counted, held while `gate` is set. */
  function memoryLog(from: number, to: number) {
    const log = {
      to,
      reads: 0,
      running: 0,
      most: 0,
      gate: undefined as Promise<void> | undefined,
      fail: 0,
      async read(after: number, writes: number): Promise<LoggedWrite[]> {
        log.reads++;
        log.running++;
        log.most = Math.max(log.most, log.running);
        try {
          await log.gate;
          if (log.fail > 0) {
            log.fail--;
            throw new Error("connection lost");
          }
          const first = Math.max(after + 1, from);
          return range(first, Math.min(log.to, first + writes - 1)).map((index) => ({ index, commit: { index, changes: [] } }));
        } finally {
          log.running--;
        }
      },
    };
    return log;
  }

  it("reads a bounded number of writes per statement, one statement at a time, however many notifications come meanwhile", async () => {
    const log = memoryLog(1, 5);
    const feed = new ChangeFeed((after, writes) => log.read(after, writes), 0, () => undefined, { batchWrites: 10 });
    const got = recorder();
    feed.subscribe(got.listener, got.onGap);
    feed.kick(5);
    await got.until(5);
    const before = log.reads;
    // 45 more writes, announced one by one while the first read is held.
    let release!: () => void;
    log.gate = new Promise<void>((resolve) => (release = resolve));
    log.to = 6;
    feed.kick(6);
    for (let i = 7; i <= 50; i++) {
      log.to = i;
      feed.kick(i);
    }
    release();
    log.gate = undefined;
    await got.until(50);
    expect(got.commits.map((c) => c.index)).toEqual(range(1, 50));
    expect(log.most).toBe(1);
    // The held read saw 6..15 (the log held them all when it ran), then 16..25, …, 46..50.
    expect(log.reads - before).toBe(5);
    await feed.close();
  });

  it("a failed read is tried again after the retry delay, and logged once", async () => {
    const log = memoryLog(1, 3);
    log.fail = 2;
    const messages: string[] = [];
    const feed = new ChangeFeed((after, writes) => log.read(after, writes), 0, (msg) => messages.push(msg), { retryMs: 10 });
    const got = recorder();
    feed.subscribe(got.listener, got.onGap);
    feed.kick(3);
    await got.until(3);
    expect(got.commits.map((c) => c.index)).toEqual([1, 2, 3]);
    expect(messages).toEqual(["event feed: reading the change log failed, retrying", "event feed: reading the change log again"]);
    await feed.close();
  });
});
