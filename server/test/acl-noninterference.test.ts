/**
 * Non-interference of the list endpoints' ACL check (issue 22): what a token may not read does not
 * change any answer it gets. Two servers hold data that differ only in the namespaces the token cannot
 * read (support/hidden-worlds.ts); every list request to jobs, deployments, allocations or evaluations,
 * over real HTTP, gets the same status, body bytes, X-Svc-Nexttoken and X-Svc-Index from both, on the
 * embedded store and on PostgreSQL. The same property with both servers in the scheduler's order
 * (`filterOrder: "nomad"`) fails, and the issue's own attack, guessing a hidden job's name 26 letters
 * at a time through a filter's evaluation error, learns the name in that order and nothing in the
 * default one. Nodes have no namespaces: a token reads all of them (`node:read`) or gets a 403.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import type { AclToken } from "../src/context.js";
import type { CheckOrder } from "../src/lists/paginate.js";
import { snapshotFromData } from "../src/lists/load.js";
import { MemoryStore } from "../src/store/memory/index.js";
import { SchedulerState } from "../src/store/memory/state.js";
import { PostgresStore } from "../src/store/postgres/index.js";
import type { SchedulerStore } from "../src/store/types.js";
import { testContext } from "./support/context.js";
import { itemsAt, LIST_PATHS, listCaseArb, urlOf, worldArb, type ListCase, type World, type WorldData } from "./support/hidden-worlds.js";
import type { StoreKind } from "./support/postgres.js";
import { clusterForFile } from "./support/cluster.js";

const cluster = clusterForFile();

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
afterAll(() => agent.destroy());

interface Served {
  port: number;
  close(): Promise<void>;
}

let databases = 0;

/** The real app on a loopback port over a new store of `kind` holding `data`, in check order `order`. */
async function serve(kind: StoreKind, data: WorldData, tokens: AclToken[], order: CheckOrder): Promise<Served> {
  let store: SchedulerStore;
  if (kind === "memory") store = new MemoryStore(new SchedulerState(snapshotFromData(data)));
  else {
    const url = await cluster().createDatabase(`acl_${process.pid}_${++databases}`);
    store = await PostgresStore.open(url, () => snapshotFromData(data), () => undefined, 4);
  }
  const app = await buildApp(testContext(tokens, { filterOrder: order }), { scheduler: store });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    port: (app.server.address() as AddressInfo).port,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

/** What a list answer is made of: status, content type, the meta headers as sent (latin1, a byte per character), the body's bytes. */
interface Answer {
  status: number;
  type: string | undefined;
  index: string | undefined;
  next: string | undefined;
  body: string;
}

/** GET `path` (no Accept-Encoding: the body's bytes as the server wrote them). */
function get(port: number, path: string, token: string | undefined): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = token === undefined ? {} : { "X-Svc-Token": token };
    const request = http.get({ host: "127.0.0.1", port, path, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const header = (name: string): string | undefined => {
          const value = res.headers[name];
          return Array.isArray(value) ? value.join(", ") : value;
        };
        resolve({ status: res.statusCode ?? 0, type: header("content-type"), index: header("x-svc-index"), next: header("x-svc-nexttoken"), body: Buffer.concat(chunks).toString("latin1") });
      });
    });
    request.on("error", reject);
  });
}

/** Runs `work` over `items` with at most `limit` at once; the results in order. */
async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Tallies of what the property saw, to show it is not vacuous. */
interface Tally {
  cases: number;
  statuses: Record<number, number>;
  items: number;
  nextTokens: number;
  /** Requests past the ACL check that walk over hidden items the two sides hold differently. */
  exposed: number;
  /** The statuses by path. */
  paths: Record<string, Record<number, number>>;
}
const newTally = (): Tally => ({ cases: 0, statuses: {}, items: 0, nextTokens: 0, exposed: 0, paths: {} });

/** The data of one side that the request could concern: its items in the hidden namespaces. */
function hiddenItems(world: World, side: WorldData, c: ListCase): unknown[] {
  return itemsAt(side, c.path).filter((i) => world.hidden.includes(i["Namespace"] as string));
}

/**
 * The property: every request of `cases` gets the same answer from a server over the left data and one
 * over the right data (both in `order`). Throws, naming the first request answered differently.
 */
async function sameAnswers(kind: StoreKind, order: CheckOrder, world: World, cases: readonly ListCase[], tally: Tally): Promise<void> {
  const [left, right] = await Promise.all([serve(kind, world.left, world.tokens, order), serve(kind, world.right, world.tokens, order)]);
  try {
    const answers = await inBatches(cases, 16, async (c) => {
      const url = urlOf(c);
      const [l, r] = await Promise.all([get(left.port, url, c.token), get(right.port, url, c.token)]);
      return { c, url, l, r };
    });
    for (const { c, url, l, r } of answers) {
      if (JSON.stringify(l) !== JSON.stringify(r)) {
        const token = world.tokens.find((t) => t.SecretID === c.token);
        throw new Error(
          `${kind}, ${order}: ${url} with token ${JSON.stringify(token ?? c.token)} (hidden: ${world.hidden.join(", ")}) answered differently:\n` +
            `left:  ${JSON.stringify(l)}\nright: ${JSON.stringify(r)}\n` +
            `hidden items, left:  ${JSON.stringify(hiddenItems(world, world.left, c))}\nhidden items, right: ${JSON.stringify(hiddenItems(world, world.right, c))}`,
        );
      }
      tally.cases++;
      tally.statuses[l.status] = (tally.statuses[l.status] ?? 0) + 1;
      const byPath = (tally.paths[c.path] ??= {});
      byPath[l.status] = (byPath[l.status] ?? 0) + 1;
      if (l.status === 200) tally.items += (JSON.parse(l.body) as unknown[]).length;
      if (l.next !== undefined) tally.nextTokens++;
      // Lists by create index (or, with a prefix, by ID) walk every namespace; jobs, with `*` only.
      const walksAll = c.path !== "/v1/jobs" || c.query.some(([k, v]) => k === "namespace" && v === "*");
      if (l.status !== 403 && walksAll && JSON.stringify(hiddenItems(world, world.left, c)) !== JSON.stringify(hiddenItems(world, world.right, c))) tally.exposed++;
    }
  } finally {
    await Promise.all([left.close(), right.close()]);
  }
}

/** A world and `n` requests over it. */
const worldCases = (n: number) => worldArb.chain((world) => fc.tuple(fc.constant(world), fc.array(listCaseArb(world), { minLength: n, maxLength: n })));

/**
 * Runs the property in `order` over `worlds` worlds of `perWorld` requests each; fast-check's result. It
 * ends at the first failure without shrinking (each step would start two servers): the error names the
 * request answered differently, both answers and the hidden items, and the report gives the seed.
 */
function check(kind: StoreKind, order: CheckOrder, worlds: number, perWorld: number, tally: Tally) {
  return fc.check(
    fc.asyncProperty(worldCases(perWorld), ([world, cases]) => sameAnswers(kind, order, world, cases, tally)),
    { numRuns: worlds, endOnFailure: true },
  );
}

describe.each([
  // 4,800 requests on the embedded store, 1,000 on PostgreSQL (a database per side and world), spread
  // evenly over jobs, deployments, allocations and evaluations. The acl-first run has as many worlds as
  // the nomad-order run below, in which the same property finds the known leak: a size at which it
  // catches that mutation of the check order (it took 125 worlds before). With the four lists it failed
  // within 1-6 worlds on the embedded store (30 seeds) and 1-5 on PostgreSQL (24 seeds); requests to
  // allocations alone within 1-12 worlds, to evaluations alone within 1-17 (30 seeds each).
  { kind: "memory" as const, worlds: 60, perWorld: 80, nomadWorlds: 60 },
  { kind: "postgres" as const, worlds: 8, perWorld: 125, nomadWorlds: 30 },
])("$kind store: hidden namespaces do not change any answer", ({ kind, worlds, perWorld, nomadWorlds }) => {
  it(`acl-first: ${worlds * perWorld} requests over ${worlds} pairs of worlds differing only in what the token cannot read get byte-identical answers`, async () => {
    const tally = newTally();
    const result = await check(kind, "acl-first", worlds, perWorld, tally);
    if (result.failed) throw new Error(`${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}\n(fast-check seed ${result.seed}, path ${result.counterexamplePath})`);
    expect(tally.cases).toBe(worlds * perWorld);
    // Not vacuous: pages with items and with next tokens, errors of filters and of the ACL check, and
    // most requests walk over hidden items that differ. Over jobs and deployments only, runs saw 79-84%
    // 200, 4.5-6.6% 400, 11-15% 403, 15-22% with a next token, 1.0-1.4 items a request and 59-69%
    // walking over differing hidden items (memory: 10,000 requests; PostgreSQL: 1,000). Over the four
    // lists (six runs on each store) they saw 76-81% 200, 6.5-11.5% 400 (evaluations' `job`/`status`
    // with a filter add some), 11-15% 403, 15-19% with a next token, 0.97-1.23 items a request and
    // 57-80% walking over differing hidden items; the floors sit near half of the lowest (the 400s'
    // rose from 2% to 3%). Each list had all three statuses (its fewest 400s: 11 of about 230 requests).
    const seen = JSON.stringify(tally);
    expect(tally.statuses[200] ?? 0, seen).toBeGreaterThan(tally.cases * 0.5);
    expect(tally.statuses[400] ?? 0, seen).toBeGreaterThan(tally.cases * 0.03);
    expect(tally.statuses[403] ?? 0, seen).toBeGreaterThan(tally.cases * 0.05);
    expect(tally.nextTokens, seen).toBeGreaterThan(tally.cases * 0.08);
    expect(tally.items, seen).toBeGreaterThan(tally.cases * 0.6);
    expect(tally.exposed, seen).toBeGreaterThan(tally.cases * 0.3);
    for (const path of LIST_PATHS) for (const status of [200, 400, 403]) expect(tally.paths[path]?.[status] ?? 0, `${path} ${status}: ${seen}`).toBeGreaterThan(0);
  });

  it("nomad order: the same property fails (a filter's error on a hidden item tells it apart)", async () => {
    const result = await check(kind, "nomad", nomadWorlds, perWorld, newTally());
    expect(result.failed).toBe(true);
    expect(String(result.errorInstance)).toMatch(/answered differently/);
  });
});

// ---- nodes: a list without namespaces ----

/** Tokens that read the nodes besides the worlds' (whose capabilities are mostly `job:*`, sometimes `node:read`). */
const NODE_READERS: AclToken[] = [
  { SecretID: "node-reader", Capabilities: ["node:read"] },
  { SecretID: "node-writer", Capabilities: ["job:read@default", "node:write"] },
];

/** Whether a token reads the nodes: `node:read` (or `node:write`) unscoped, or management; a scoped `node:write@ns` does not. */
const readsNodes = (token: AclToken | undefined): boolean => token !== undefined && (token.Management === true || token.Capabilities.some((c) => /^node:(?:read|write)(?:@\*)?$/.test(c)));

describe.each([
  { kind: "memory" as const, worlds: 6 },
  { kind: "postgres" as const, worlds: 3 },
])("$kind store: nodes have no namespace to hide", ({ kind, worlds }) => {
  it("a token without node:read gets 403 from /v1/nodes; one with it gets the same nodes from both sides of a world", async () => {
    const seen = { denied: 0, read: 0 };
    await fc.assert(
      fc.asyncProperty(worldArb, async (world) => {
        const tokens = [...world.tokens, ...NODE_READERS];
        const [left, right] = await Promise.all([serve(kind, world.left, tokens, "acl-first"), serve(kind, world.right, tokens, "acl-first")]);
        try {
          const ids = world.left.nodes.map((n) => n["ID"] as string).sort();
          for (const token of [...tokens, undefined]) {
            for (const url of ["/v1/nodes", `/v1/nodes?namespace=dev&per_page=2&filter=${encodeURIComponent("Drain == false")}`]) {
              const [l, r] = await Promise.all([get(left.port, url, token?.SecretID), get(right.port, url, token?.SecretID)]);
              const what = `${kind}: ${url} with token ${JSON.stringify(token)}`;
              expect(r, what).toEqual(l);
              if (!readsNodes(token)) {
                expect(l.status, what).toBe(403);
                seen.denied++;
                continue;
              }
              expect(l.status, what).toBe(200);
              seen.read++;
              if (url === "/v1/nodes") expect((JSON.parse(l.body) as { ID: string }[]).map((n) => n.ID), what).toEqual(ids);
            }
          }
        } finally {
          await Promise.all([left.close(), right.close()]);
        }
      }),
      { numRuns: worlds, endOnFailure: true },
    );
    expect(seen.denied).toBeGreaterThan(0);
    expect(seen.read).toBeGreaterThan(0);
  });
});

// ---- the attack ----

const ATTACKER: AclToken = { SecretID: "attacker", Capabilities: ["job:read@default"] };

/** The default namespace's jobs, and in `dev` a job named `secret-<name>` (none for ""), without the summary group `zz`. */
function attackData(name: string): WorldData {
  const jobs: Record<string, unknown>[] = [
    { ID: "web-1", Namespace: "default", Status: "running", ModifyIndex: 50, JobSummary: { ModifyIndex: 50, Summary: { web: { Running: 1 } } } },
    { ID: "api-1", Namespace: "default", Status: "running", ModifyIndex: 40 },
  ];
  if (name !== "") jobs.push({ ID: "payroll", Name: `secret-${name}`, Namespace: "dev", Status: "running", ModifyIndex: 30, JobSummary: { ModifyIndex: 30, Summary: { web: { Running: 1 } } } });
  return { jobs, deployments: [], allocations: [], evaluations: [], nodes: [] };
}

/**
 * The attack: for each next letter, 26 requests `Namespace == "dev" and Name matches "^secret-<known><X>"
 * and JobSummary.Summary["zz"].Running == 1`; a 400 (the missing group's error, met only once the name
 * matched) says the letter is right. Returns what it learnt and every answer it saw, in order.
 */
async function guessName(port: number, maxLength: number): Promise<{ learnt: string; transcript: string[] }> {
  const transcript: string[] = [];
  let learnt = "";
  while (learnt.length < maxLength) {
    const urls = [..."abcdefghijklmnopqrstuvwxyz"].map((x) => {
      const filter = `Namespace == "dev" and Name matches "^secret-${learnt}${x}" and JobSummary.Summary["zz"].Running == 1`;
      return { x, url: `/v1/jobs?namespace=*&filter=${encodeURIComponent(filter)}` };
    });
    const answers = await Promise.all(urls.map(({ url }) => get(port, url, ATTACKER.SecretID)));
    transcript.push(...answers.map((a) => `${a.status} ${a.index ?? "-"} ${a.body}`));
    const hit = answers.findIndex((a) => a.status === 400);
    if (hit < 0) break;
    learnt += urls[hit]!.x;
  }
  return { learnt, transcript };
}

describe.each(["memory", "postgres"] as const)("the issue's attack on the %s store: guessing a hidden job's name through a filter's error", (kind) => {
  const NAMES = ["kestrel", "quokka", ""];

  async function attack(order: CheckOrder, name: string) {
    const server = await serve(kind, attackData(name), [ATTACKER], order);
    try {
      return await guessName(server.port, 8);
    } finally {
      await server.close();
    }
  }

  it("acl-first: every answer is the same whatever the hidden job's name (200, the token's empty match), nothing is learnt", async () => {
    const runs = await Promise.all(NAMES.map((name) => attack("acl-first", name)));
    for (const run of runs) {
      expect(run.learnt).toBe("");
      expect(run.transcript).toEqual(Array(26).fill("200 50 []"));
    }
  });

  it("nomad order: the same loop reads the name, 26 requests per letter", async () => {
    const runs = await Promise.all(NAMES.map((name) => attack("nomad", name)));
    expect(runs.map((r) => r.learnt)).toEqual(NAMES);
    // The first letter took 26 requests, as in the issue; the 400 is the missing group's error.
    expect(runs[0]!.transcript.slice(0, 26).filter((a) => a.startsWith("400 "))).toEqual(['400 - failed to read result page: JobSummary.Summary has no key "zz" at 1:53']);
  });
});
