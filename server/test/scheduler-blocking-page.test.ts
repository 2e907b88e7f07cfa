/**
 * `--blocking-queries page` over real HTTP: a list's blocking query answers only once a write changes
 * its page (filter, ACL, namespace, pagination), and then with exactly what a fresh request answers.
 *
 * The law, for random clients (of the jobs, or of the evaluations each registration creates: filters,
 * namespaces, pages, reverse, tokens) and random registrations:
 * after each write, every client whose page a fresh request now answers differently gets that answer
 * (body, status and index), and no other client is answered (the server's metrics count the waits it
 * ended and those still waiting; a memory write wakes its waiters before the write is acknowledged).
 * A client that asks with an index older than the latest write waits too, unless a write since its
 * index changed its page (even if a later write changed it back): then it is answered at once. (Across servers on PostgreSQL:
 * postgres-feed.test.ts.)
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import { startServer, type RunningServer } from "../src/ops/start.js";
import { until } from "../../test/support/wait.js";

/** A server of `--blocking-queries page` over two namespaces, with `fanoutBudget` when given. */
async function serve(fanoutBudget: number | undefined): Promise<{ server: RunningServer; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-page-waits-"));
  const dataFile = join(dir, "data.json");
  const aclTokensFile = join(dir, "tokens.json");
  // Both namespaces exist from the start: a write that creates a namespace may answer a `*` query
  // whose page it did not change (server/docs/server.md), and no write here creates one.
  writeFileSync(dataFile, JSON.stringify({ jobs: ["default", "prod"].map((Namespace) => ({ ID: "z", Name: "z", Namespace, Type: "system" })), deployments: [] }));
  writeFileSync(aclTokensFile, JSON.stringify(TOKENS));
  // fetch keeps its connections alive: shutdown closes them after a second, not the default ten.
  const options = { ...DEFAULT_OPTIONS, port: 0, opsPort: 0, dataFile, aclTokensFile, logLevel: "error" as const, blockingQueries: "page" as const, shutdownTimeoutMs: 1000 };
  const server = await startServer(fanoutBudget === undefined ? options : { ...options, fanoutBudget });
  return {
    server,
    async close() {
      await server.lifecycle.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const TOKENS = [
  { SecretID: "all", Capabilities: ["job:read", "job:write"] },
  { SecretID: "prod", Capabilities: ["job:read@prod"] },
];

/** The server's page-wait counts, from GET /v1/metrics. */
async function waits(base: string): Promise<{ waiting: number; changed: number; atOnce: number; deferred: number }> {
  const m = (await (await fetch(`${base}/v1/metrics`)).json()) as { Gauges: { Name: string; Value: number }[]; Counters: { Name: string; Count: number; Labels: Record<string, string> }[] };
  const counter = (end: string) => m.Counters.find((c) => c.Name === "filter_server_blocking_page_waits_total" && c.Labels["end"] === end)?.Count ?? 0;
  const gauge = (name: string) => m.Gauges.find((g) => g.Name === name)!.Value;
  return { waiting: gauge("filter_server_blocking_queries_waiting"), changed: counter("changed"), atOnce: counter("at_once"), deferred: gauge("filter_server_blocking_page_deferred") };
}

/** Polls the metrics until `ok` holds (not a sleep: the waits register as their requests arrive). */
async function waitsUntil(base: string, ok: (w: Awaited<ReturnType<typeof waits>>) => boolean): Promise<void> {
  let w: Awaited<ReturnType<typeof waits>> | undefined;
  // Each poll collects the server's metrics: a few milliseconds apart, not back to back.
  await until("the page waits", async () => ok((w = await waits(base))), 5).catch((e: Error) => {
    throw new Error(`${e.message}: ${JSON.stringify(w)}`);
  });
}

/** What a client sees of an answer. */
interface Answer {
  status: number;
  index: string | null;
  next: string | null;
  body: string;
}

async function get(base: string, path: string, token: string, signal?: AbortSignal): Promise<Answer> {
  const res = await fetch(`${base}${path}`, { headers: { "X-Svc-Token": token }, signal });
  return { status: res.status, index: res.headers.get("x-svc-index"), next: res.headers.get("x-svc-nexttoken"), body: await res.text() };
}

const register = async (base: string, job: Record<string, unknown>): Promise<void> => {
  const res = await fetch(`${base}/v1/jobs`, { method: "PUT", headers: { "X-Svc-Token": "all" }, body: JSON.stringify({ Job: { TaskGroups: [{ Name: "g" }], ...job } }) });
  expect(res.status).toBe(200);
};

const IDS = ["a", "b", "c", "d", "e", "f", "g", "h"];
const job = fc.record({
  ID: fc.constantFrom(...IDS),
  Namespace: fc.constantFrom("default", "prod"),
  Type: fc.constantFrom("service", "batch"),
  Priority: fc.constantFrom(10, 50, 70),
  Datacenters: fc.subarray(["dc1", "dc2"]),
  Stop: fc.boolean(),
});

const jobsClient = fc.record({
  list: fc.constant("jobs" as const),
  filter: fc.option(fc.constantFrom('Type == "batch"', "Priority > 20", '"dc1" in Datacenters', 'Status == "dead"', 'Type == "service" and not ("dc2" in Datacenters)', 'Name matches "^[a-d]$"', "Stop"), { nil: undefined }),
  namespace: fc.constantFrom("default", "prod", "*"),
  perPage: fc.constantFrom(0, 0, 1, 2, 3),
  next: fc.option(fc.constantFrom(...IDS.map((id) => `default.${id}`), ...IDS.map((id) => `prod.${id}`)), { nil: undefined, freq: 3 }),
  reverse: fc.boolean(),
  token: fc.constantFrom("all", "all", "prod"),
});
/** A client of the evaluations, which each registration writes (its evaluation). */
const evaluationsClient = fc.record({
  list: fc.constant("evaluations" as const),
  filter: fc.option(fc.constantFrom('JobID == "a"', 'JobID matches "^[a-c]$"', 'TriggeredBy == "job-deregister"', 'Type == "batch" and Priority == 70'), { nil: undefined }),
  namespace: fc.constantFrom("default", "prod", "*"),
  perPage: fc.constantFrom(0, 0, 1, 2),
  next: fc.constant(undefined),
  reverse: fc.boolean(),
  token: fc.constantFrom("all", "prod"),
});
const client = fc.oneof({ weight: 3, arbitrary: jobsClient }, { weight: 1, arbitrary: evaluationsClient });
type Client = typeof client extends fc.Arbitrary<infer C> ? C : never;

function pathOf(c: Client, index?: string): string {
  const q = new URLSearchParams({ namespace: c.namespace, per_page: String(c.perPage) });
  if (c.filter !== undefined) q.set("filter", c.filter);
  if (c.next !== undefined) q.set("next_token", c.next);
  if (c.reverse) q.set("reverse", "true");
  if (index !== undefined) q.set("index", index);
  return `/v1/${c.list}?${q}`;
}

const same = (a: Answer, b: Answer): boolean => a.status === b.status && a.body === b.body && a.next === b.next;

describe.each([
  { how: "checked within the write's fan-out budget", fanoutBudget: undefined, runs: 5 },
  // A budget of one step: no filter's check fits, every one is decided later in its client's turns.
  { how: "every check decided in its client's turns (--fanout-budget 1)", fanoutBudget: 1, runs: 3 },
])("blocking queries that wait for their page (--blocking-queries page), $how", ({ fanoutBudget, runs }) => {
  let served: Awaited<ReturnType<typeof serve>>;
  let base: string;
  beforeAll(async () => {
    served = await serve(fanoutBudget);
    base = served.server.apiUrl;
  });
  afterAll(async () => served?.close());

  // Under the suite's load (four files at once on two cores) the requests of a run take many times
  // longer than alone (2 s): nothing here waits for a fixed time.
  it("answer when a write changes the page, with a fresh request's answer, and never otherwise", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(job, { maxLength: 6 }), fc.array(client, { minLength: 3, maxLength: 6 }), fc.array(fc.tuple(job, fc.constantFrom(0, 0, 0, 1, 2)), { minLength: 10, maxLength: 20 }), async (initial, clients, writes) => {
        // One server for every run: each starts from what the runs before it wrote, and writes more.
        for (const j of initial) await register(base, { ...j, Name: j.ID });
        // Each client's last answer, its index, and its blocking request; for a client not waiting,
        // its page after the latest write, and whether a write since its index changed it (a page may
        // change and change back: the wait is answered at once all the same).
        let state: { c: Client; seen: Answer; pending: Promise<Answer> | undefined; latest: Answer; moved: boolean }[] = [];
        const leave = new AbortController();
        try {
          state = await Promise.all(
            clients.map(async (c) => {
              const seen = await get(base, pathOf(c), c.token);
              return { c, seen, pending: undefined as Promise<Answer> | undefined, latest: seen, moved: false };
            }),
          );
          let expectedWaiting = 0;
          let atOnce = 0;
          let last = await waits(base);
          for (const [write, lag] of writes) {
            // Clients not waiting ask again with the index they saw (some only after `lag` more writes).
            for (const s of state) {
              if (s.pending !== undefined || s.seen.status !== 200 || lag !== 0) continue;
              const now = await get(base, pathOf(s.c), s.c.token);
              s.pending = get(base, pathOf(s.c, s.seen.index!), s.c.token, leave.signal);
              if (!s.moved) {
                expectedWaiting++;
                continue;
              }
              // A write since its index changed the page: answered at once, as a fresh request.
              const got = await s.pending;
              expect(got).toEqual(now);
              atOnce++;
              s.seen = s.latest = got;
              s.moved = false;
              s.pending = undefined;
            }
            await waitsUntil(base, (w) => w.waiting === expectedWaiting);
            await register(base, { ...write, Name: write.ID });
            // What the write's fan-out could not decide is decided in the clients' turns.
            await waitsUntil(base, (w) => w.deferred === 0);
            let woken = 0;
            for (const s of state) {
              const fresh = await get(base, pathOf(s.c), s.c.token);
              if (s.pending === undefined) {
                s.moved ||= !same(fresh, s.latest);
                s.latest = fresh;
                continue;
              }
              if (same(fresh, s.seen)) continue;
              // Its page changed: it is answered, with what a fresh request answers now.
              const got = await s.pending;
              expect(got).toEqual(fresh);
              s.seen = s.latest = got;
              s.moved = false;
              s.pending = undefined;
              woken++;
            }
            expectedWaiting -= woken;
            const now = await waits(base);
            expect(now.changed - last.changed, "waits ended by the write").toBe(woken);
            expect(now.atOnce - last.atOnce, "waits answered at once").toBe(atOnce);
            expect(now.waiting, "waits still waiting").toBe(expectedWaiting);
            last = now;
            atOnce = 0;
          }
        } finally {
          // The waits still open end when their clients leave.
          leave.abort();
          await Promise.allSettled(state.map((s) => s.pending));
          await waitsUntil(base, (w) => w.waiting === 0);
        }
      }),
      // The runs share one server, so a shrunk counterexample would not replay the state that failed:
      // the first failure is reported as found (and a failing wait ends at HANG_MS, not in minutes).
      { numRuns: runs, endOnFailure: true },
    );
  });
});

