/**
 * The embedded store's pages are those of the state at the call, even when writes land while a scan
 * waits in a pause: a write first makes the scan keep what it has still to read (copy on write), and
 * the filter's columns give way to the item checks once the rows have moved.
 */
import { describe, expect, it } from "vitest";
import { compile, schemas } from "filter-expr";
import { jobsEndpoint } from "../src/lists/endpoints.js";
import { evaluator } from "../src/lists/filters.js";
import { snapshotFromData } from "../src/lists/load.js";
import type { JobSpec } from "../src/lists/register.js";
import { MemoryStore } from "../src/store/memory/index.js";
import { SchedulerState } from "../src/store/memory/state.js";

const JOBS = Array.from({ length: 3000 }, (_, i) => ({
  ID: `job-${String(i).padStart(5, "0")}`,
  Namespace: i % 3 === 0 ? "default" : "prod",
  Status: "running",
  Type: "service",
  Priority: i % 7,
}));

const spec = (id: string, namespace: string, priority: number): JobSpec => ({
  ID: id,
  Name: id,
  Namespace: namespace,
  Type: "service",
  Priority: priority,
  Datacenters: ["dc1"],
  ParentID: "",
  Stop: false,
  Periodic: false,
  ParameterizedJob: false,
  Multiregion: null,
  TaskGroups: [{ Name: "web", Count: 1, Canary: 0, AutoPromote: false, AutoRevert: false, ProgressDeadline: 0 }],
});

/** Every kind of write: a new job sorting before, among and after the rows still to read; a replaced job (its Priority changed). */
const WRITES: [string, string, number][] = [
  ["job-00000a", "default", 3],
  ["job-01500a", "prod", 3],
  ["job-02998", "prod", 0],
  ["zzz-last", "prod", 3],
  ["aaa-first", "default", 3],
];

describe("a scan of the embedded store while writes land in its pauses", () => {
  it.each([
    ["a filter the columns decide", "Priority == 3"],
    ["a filter evaluated item by item (a regular expression)", 'Priority == 3 and Name matches "^job-"'],
  ])("%s: the page is that of the state at the call", async (_name, expression) => {
    let landed = 0;
    for (const reverse of [false, true]) {
      // `pause` is asked before each item, or every 16 rows where the columns decide: these land early,
      // in the middle and late in either case, or (the last ones, past the end) not at all.
      for (const pauseAt of [1, 20, 100, 180, 1500, 2999]) {
        const store = new MemoryStore(new SchedulerState(snapshotFromData({ jobs: JOBS })));
        const filter = compile(expression, { schema: schemas.job });
        const read = (pause: () => boolean) =>
          store.readPage({
            endpoint: jobsEndpoint,
            query: { namespace: "*", prefix: "", perPage: 0, nextToken: "", reverse },
            filter,
            matches: evaluator(filter, { item: 1_000_000, request: Infinity }, { steps: 0, items: 0 }),
            allowed: undefined,
            readable: null,
            order: "acl-first",
            pause,
            turn: () => new Promise((resolve) => setImmediate(resolve)),
          });
        // A read builds the filter's columns; a write then leaves them room to grow in place (so that the
        // scan's writes move codes under it).
        await read(() => false);
        await store.register(spec("job-00001b", "prod", 3), 0);
        const before = (await read(() => false)).items.map((j) => j.ID);
        let seen = 0;
        const writes: Promise<unknown>[] = [];
        const page = await read(() => {
          if (++seen !== pauseAt) return false;
          for (const [id, ns, priority] of WRITES) writes.push(store.register(spec(id, ns, priority), 0));
          return true;
        });
        await Promise.all(writes);
        expect(page.items.map((j) => j.ID)).toEqual(before);
        if (writes.length === 0) continue;
        landed++;
        // The writes did land: the next read sees them.
        const after = (await read(() => false)).items.map((j) => j.ID);
        expect(after).not.toEqual(before);
        expect(after).toContain("job-01500a");
      }
    }
    expect(landed).toBeGreaterThanOrEqual(8);
  });
});
