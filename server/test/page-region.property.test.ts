/**
 * `PageRegion` decides from a page and one change whether the change alters the page, without reading
 * it again. For random worlds, list requests (filters that fail on some items, namespaces, prefixes,
 * pages, next tokens, reverse, ACL tokens, both check orders) and random writes (new items, new
 * namespaces, updates of existing ones), the embedded store reads the page before and after each
 * write: the region of the page before says "changed" exactly when the two answers differ, and the
 * region of the page after, asked backwards (`changedSince`), says the same. The one allowed
 * difference: an item in a namespace the list did not have may be reported as a change it is not.
 */
import fc from "fast-check";
import { compile, schemas, type EvaluationBudget } from "filter-expr";
import { describe, expect, it } from "vitest";
import { deploymentsEndpoint, jobsEndpoint, type ListEndpoint } from "../src/lists/endpoints.js";
import { BadRequest } from "../src/lists/errors.js";
import { snapshotFromData } from "../src/lists/load.js";
import { PageRegion, type Verdict } from "../src/lists/page-region.js";
import { checksOf, type CheckOrder } from "../src/lists/paginate.js";
import type { Change, Deployment, JobListEntry } from "../src/lists/records.js";
import { parseListQuery } from "../src/scheduler/query.js";
import { MemoryStore } from "../src/store/memory/index.js";
import { SchedulerState } from "../src/store/memory/state.js";
import type { StorePage } from "../src/store/types.js";
import { deployment, job, listCaseArb, NAMESPACES, readableBy, worldArb, type ListCase, type World } from "./support/hidden-worlds.js";
import { runs } from "../../test/support/runs.js";

/** A namespace no world has: a write there creates it. */
const NEW_NAMESPACE = "new";
const STEPS = 1_000;

type Item = Record<string, unknown>;

/** One item as the store holds it (a data file's record, normalized). */
function entryOf(kind: "job" | "deployment", item: Item): JobListEntry | Deployment {
  const snapshot = snapshotFromData(kind === "job" ? { jobs: [item] } : { deployments: [item] });
  return kind === "job" ? snapshot.jobs[0]!.entry : snapshot.deployments[0]!;
}

/** A write: a job or a deployment, new or replacing one of the world's (same identity), sometimes in a new namespace. */
function writeArb(world: World): fc.Arbitrary<{ kind: "job" | "deployment"; item: Item; like: number | undefined }> {
  const namespaces = [...NAMESPACES, NEW_NAMESPACE];
  return fc.oneof(
    fc.record({ kind: fc.constant("job" as const), item: job(namespaces), like: fc.option(fc.nat(world.left.jobs.length - 1), { nil: undefined, freq: 3 }) }),
    fc.record({ kind: fc.constant("deployment" as const), item: deployment(namespaces), like: fc.option(fc.nat(world.left.deployments.length - 1), { nil: undefined, freq: 3 }) }),
  );
}

/** How the list endpoints read a page for one request (as `serveList` does), and its checks on one item. */
function requestOf(world: World, c: ListCase, order: CheckOrder) {
  const endpoint = (c.path === "/v1/jobs" ? jobsEndpoint : deploymentsEndpoint) as ListEndpoint<unknown>;
  const query = parseListQuery(Object.fromEntries(c.query));
  const names = readableBy(world.tokens.find((t) => t.SecretID === c.token));
  const readable = names === null ? null : new Set(names);
  // What the server answers 403 or 400 before reading anything.
  if (readable !== null && (query.namespace === "*" ? readable.size === 0 : !readable.has(query.namespace))) return undefined;
  if (query.filter !== "" && query.prefix !== "") return undefined;
  let filter;
  try {
    filter = query.filter === "" ? undefined : compile(query.filter, { schema: endpoint.schema === "job" ? schemas.job : schemas.deployment });
  } catch {
    // A 400 before anything is read (the reference's parse budget).
    return undefined;
  }
  const allowed = readable === null ? undefined : (item: unknown) => readable.has(endpoint.namespaceOf!(item));
  const budget: EvaluationBudget = { steps: STEPS };
  const matches = filter && ((item: unknown) => ((budget.steps = STEPS), filter.evaluate(item, budget)));
  const checks = checksOf({ matches, allowed, order });
  const verdict = (item: unknown): Verdict => {
    if (item === undefined) return false;
    try {
      return checks === undefined || checks(item, -1);
    } catch (e) {
      if ((e as Error).name !== "FilterEvaluationError") throw e;
      return "error";
    }
  };
  const read = async (store: MemoryStore): Promise<StorePage<unknown> | "error"> => {
    try {
      return await store.readPage({ endpoint, query, filter, matches, allowed, readable, order, pause: () => false, turn: () => Promise.resolve() });
    } catch (e) {
      if ((e as Error).name === "FilterEvaluationError" || e instanceof BadRequest) return "error";
      throw e;
    }
  };
  return { endpoint, read, verdict };
}

/** What a client sees of a page: its items' JSON and the next token (an error is one answer). */
const seen = (page: StorePage<unknown> | "error"): string => (page === "error" ? "error" : JSON.stringify([page.items, page.nextToken]));

describe("PageRegion", () => {
  it("says a write changed a page exactly when reading it again gives another answer", async () => {
    const counts = { changed: 0, unchanged: 0, over: 0 };
    await fc.assert(
      fc.asyncProperty(
        worldArb.chain((world) => fc.record({ world: fc.constant(world), list: listCaseArb(world, ["/v1/jobs", "/v1/deployments"]), writes: fc.array(writeArb(world), { minLength: 1, maxLength: 12 }), order: fc.constantFrom<CheckOrder>("acl-first", "nomad") })),
        async ({ world, list, writes, order }) => {
          const request = requestOf(world, list, order);
          if (request === undefined) return;
          const state = new SchedulerState(snapshotFromData(world.left));
          const store = new MemoryStore(state);
          let before = await request.read(store);
          for (const write of writes) {
            const index = state.index + 1;
            let change: Change;
            let created = false;
            if (write.kind === "job") {
              const like = write.like === undefined ? undefined : world.left.jobs[write.like]!;
              const item = like === undefined ? write.item : { ...write.item, Namespace: like["Namespace"], ID: like["ID"] };
              const entry = { ...(entryOf("job", item) as JobListEntry), ModifyIndex: index };
              const previous = state.job(entry.Namespace, entry.ID)?.entry;
              created = previous === undefined && !state.allJobRecords().some((r) => r.entry.Namespace === entry.Namespace);
              change = { kind: "job", record: { entry, version: 0 }, ...(previous === undefined ? {} : { previous }) };
            } else {
              const like = write.like === undefined ? undefined : world.left.deployments[write.like]!;
              const previous = like === undefined ? state.deployment(write.item["ID"] as string) : state.deployment(like["ID"] as string);
              // A deployment keeps its ID, namespace and create index (its place in the list) across writes.
              const item = previous === undefined ? write.item : { ...write.item, ID: previous.ID, Namespace: previous.Namespace, CreateIndex: previous.CreateIndex };
              const d = { ...(entryOf("deployment", item) as Deployment), ModifyIndex: index };
              change = { kind: "deployment", deployment: d, ...(previous === undefined ? {} : { previous }) };
            }
            await state.write(() => ({ changes: [change], result: undefined }));
            const after = await request.read(store);
            const [old, now] = change.kind === "job" ? [change.previous, change.record.entry] : [change.previous, change.deployment];
            const vOld = request.verdict(old);
            const vNow = request.verdict(now);
            const differs = seen(before) !== seen(after);
            const table = change.kind === "job" ? "jobs" : "deployments";
            if (table === request.endpoint.table) {
              if (before !== "error") {
                const said = new PageRegion(before.walk, before).changedBy(now, vOld, vNow);
                if (said && !differs) counts.over++;
                else counts[differs ? "changed" : "unchanged"]++;
                expect(said, "forward").toBe(differs || (said && created));
              }
              if (after !== "error") {
                const said = new PageRegion(after.walk, after).changedSince(now, vOld, vNow);
                expect(said, "backward").toBe(differs || (said && created));
              }
            } else expect(differs).toBe(false);
            before = after;
          }
        },
      ),
      { numRuns: runs(1000) },
    );
    // The property reached both answers often (and over-reporting stays the exception it should be).
    expect(counts.changed).toBeGreaterThan(100);
    expect(counts.unchanged).toBeGreaterThan(200);
    expect(counts.over).toBeLessThan(counts.changed / 10);
  });
});
