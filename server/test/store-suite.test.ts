/**
 * One HTTP behaviour suite, run against both stores (memory and PostgreSQL): pagination and tokens,
 * namespaces and prefixes, reverse, filters and their errors, ACL namespaces, registration and
 * blocking queries. The cases are the scheduler's own tables (as in scheduler-list/-filter.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AclToken } from "../src/context.js";
import { serveStore, type StoreKind, type StoreServer } from "./support/postgres.js";
import { clusterForFile } from "./support/cluster.js";
import { DEPLOYMENT_PAGES, JOB_PAGES, PAGINATION_DEPLOYMENTS, PAGINATION_JOBS, SUFFIX, short, type PageCase } from "./support/scheduler-tables.js";

const DATACENTERS: Record<string, string[]> = { "job-02": ["dc2"], "job-06": ["dc2"] };
const JOBS = PAGINATION_JOBS.map(([id, ns, status], i) => ({
  ID: id,
  Name: id,
  Namespace: ns,
  Status: status,
  Type: "service",
  Datacenters: DATACENTERS[id] ?? ["dc1"],
  CreateIndex: 1000 + i,
  ModifyIndex: 1000 + i,
  JobModifyIndex: 1000 + i,
  JobSummary: { JobID: id, Namespace: ns, Summary: id === "job-08" ? {} : { web: { Running: i } } },
}));
const DEPLOYMENTS = PAGINATION_DEPLOYMENTS;
/**
 * Allocations and evaluations with the deployments' IDs, namespaces and create indexes: the scheduler
 * pages the three lists alike (by create index and ID, `prefix` on the UUID index), so the
 * deployments' table of pages holds for them too. Every other one runs job `api`, and every third
 * lacks the task state of its group (a filter on it fails there).
 */
const ALLOCATIONS = PAGINATION_DEPLOYMENTS.map((d, i) => ({
  ID: d.ID,
  Namespace: d.Namespace,
  JobID: i % 2 === 0 ? "web" : "api",
  TaskGroup: "web",
  ClientStatus: i % 3 === 0 ? "failed" : "running",
  TaskStates: i % 3 === 2 ? {} : { web: { State: i % 3 === 0 ? "dead" : "running", Failed: i % 3 === 0, Restarts: i } },
  CreateIndex: d.CreateIndex,
  ModifyIndex: d.ModifyIndex,
}));
const EVALUATIONS = PAGINATION_DEPLOYMENTS.map((d, i) => ({
  ID: d.ID,
  Namespace: d.Namespace,
  JobID: i % 2 === 0 ? "web" : "api",
  Status: i % 4 === 1 ? "blocked" : "complete",
  TriggeredBy: "job-register",
  QueuedAllocations: i % 4 === 1 ? { web: 2 } : { web: 0 },
  CreateIndex: d.CreateIndex,
  ModifyIndex: d.ModifyIndex,
}));
/** Nodes with the same IDs: no namespaces, by ID. */
const NODES = PAGINATION_DEPLOYMENTS.map((d, i) => ({
  ID: d.ID,
  Name: `client-${i}`,
  Datacenter: i % 2 === 0 ? "dc1" : "dc2",
  Status: i % 4 === 3 ? "down" : "ready",
  Drivers: { docker: { Detected: true, Healthy: i % 4 !== 3 } },
  CreateIndex: d.CreateIndex,
  ModifyIndex: d.ModifyIndex,
}));
const DATA = { jobs: JOBS, deployments: DEPLOYMENTS, allocations: ALLOCATIONS, evaluations: EVALUATIONS, nodes: NODES };
/** The short IDs of `items`, in the order the nodes list gives them (by ID). */
const byId = (items: readonly { ID: string }[]): string[] => items.map((n) => short(n.ID)).sort();

const TOKENS: AclToken[] = [
  { SecretID: "reader", Capabilities: ["job:read"] },
  { SecretID: "nondefault-reader", Capabilities: ["job:read@non-default"] },
  { SecretID: "writer", Capabilities: ["job:read", "job:write"] },
  { SecretID: "node-reader", Capabilities: ["node:read"] },
];

const cluster = clusterForFile();

describe.each<StoreKind>(["memory", "postgres"])("the %s store", (kind) => {
  let server: StoreServer;
  let acl: StoreServer;
  beforeAll(async () => {
    [server, acl] = await Promise.all([serveStore(kind, cluster(), DATA), serveStore(kind, cluster(), DATA, TOKENS)]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), acl?.close()]);
  });

  async function list(path: string, headers: Record<string, string> = {}): Promise<{ status: number; ids: string[]; next: string | null; index: string | null; text: string }> {
    const res = await fetch(`${server.base}${path}`, { headers });
    const text = await res.text();
    const ids = res.status === 200 ? (JSON.parse(text) as { ID: string }[]).map((x) => short(x.ID)) : [];
    return { status: res.status, ids, next: res.headers.get("x-svc-nexttoken"), index: res.headers.get("x-svc-index"), text };
  }

  it.each<PageCase>([
    ...JOB_PAGES,
    ["filter, all namespaces, paginated", `namespace=*&per_page=2&filter=${encodeURIComponent('Name matches "job-0[123]"')}`, ["job-01", "job-02"], "non-default.job-03"],
    ["filter, one per page", `namespace=*&per_page=1&filter=${encodeURIComponent('Name == "job-03"')}`, ["job-03"], "other.job-03"],
    ["filter on a list", `filter=${encodeURIComponent('"dc2" in Datacenters')}`, ["job-02", "job-06"], null],
    ["filter, reverse", `reverse=true&per_page=2&filter=${encodeURIComponent('Status == "pending"')}`, ["job-08", "job-04"], "default.job-02"],
    ["filter on a summary", `filter=${encodeURIComponent('JobSummary.Summary["web"].Running == 7')}&namespace=other`, ["job-03"], null],
  ])("GET /v1/jobs: %s", async (_name, query, expected, next) => {
    const page = await list(`/v1/jobs?${query}`);
    expect(page.status, page.text).toBe(200);
    expect(page.ids).toEqual(expected);
    expect(page.next).toBe(next);
    expect(page.index).toBe("1007");
  });

  it.each<PageCase>([
    ...DEPLOYMENT_PAGES,
    ["a token that is not a number compares as a string", "per_page=2&next_token=1004", ["aaaaaabb", "aaaaaacc"], `1006.aaaaaadd${SUFFIX}`],
  ])("GET /v1/deployments: %s", async (_name, query, expected, next) => {
    const page = await list(`/v1/deployments?${query}`);
    expect(page.status, page.text).toBe(200);
    expect(page.ids).toEqual(expected);
    expect(page.next).toBe(next);
    expect(page.index).toBe("1009");
  });

  describe.each(["/v1/allocations", "/v1/evaluations"])("%s pages as the deployments do", (path) => {
    it.each<PageCase>(DEPLOYMENT_PAGES)("%s", async (_name, query, expected, next) => {
      const page = await list(`${path}?${query}`);
      expect(page.status, page.text).toBe(200);
      expect(page.ids).toEqual(expected);
      expect(page.next).toBe(next);
      expect(page.index).toBe("1009");
    });
  });

  it("GET /v1/allocations: filters on the stub, a missing task state is an evaluation error, as a full scan meets it", async () => {
    const running = await list(`/v1/allocations?namespace=*&filter=${encodeURIComponent('ClientStatus == "running" and JobID == "api"')}`);
    const expected = ALLOCATIONS.filter((a) => a.ClientStatus === "running" && a.JobID === "api");
    expect(running.ids).toEqual(expected.map((a) => short(a.ID)));
    expect(expected.length).toBeGreaterThan(1);
    const failing = await list(`/v1/allocations?filter=${encodeURIComponent("TaskStates.web.Restarts == 100")}`);
    expect(failing.status).toBe(400);
    expect(failing.text).toMatch(/^failed to read result page: .*web/);
    // Pages that end before the first allocation without the state never meet it.
    const first = await list(`/v1/allocations?per_page=1&filter=${encodeURIComponent("TaskStates.web.Failed == true")}`);
    expect([first.status, first.ids]).toEqual([200, ["aaaa1111"]]);
  });

  it("GET /v1/evaluations: job= and status= keep an evaluation's job and status, alone or together, paged; with filter they are a 400", async () => {
    const defaults = EVALUATIONS.filter((e) => e.Namespace === "default");
    const api = await list("/v1/evaluations?job=api");
    expect(api.ids).toEqual(defaults.filter((e) => e.JobID === "api").map((e) => short(e.ID)));
    const blocked = await list("/v1/evaluations?namespace=*&status=blocked&job=api");
    const expected = EVALUATIONS.filter((e) => e.Status === "blocked" && e.JobID === "api").map((e) => short(e.ID));
    expect(blocked.ids).toEqual(expected);
    expect(expected.length).toBeGreaterThan(0);
    const paged = await list("/v1/evaluations?job=web&per_page=1");
    expect(paged.ids).toEqual([short(defaults.find((e) => e.JobID === "web")!.ID)]);
    expect(paged.next).not.toBeNull();
    // With prefix they narrow alike (the scheduler's check is on filter only).
    expect((await list("/v1/evaluations?job=api&prefix=aaaa")).status).toBe(200);
    const both = await list(`/v1/evaluations?job=api&filter=${encodeURIComponent('Status == "blocked"')}`);
    expect([both.status, both.text]).toEqual([400, "Filter expression cannot be used with other filter parameters"]);
    const filtered = await list(`/v1/evaluations?namespace=*&filter=${encodeURIComponent("QueuedAllocations.web == 2")}`);
    expect(filtered.ids).toEqual(EVALUATIONS.filter((e) => e.QueuedAllocations.web === 2).map((e) => short(e.ID)));
  });

  it("GET /v1/nodes: by ID, whatever the namespace; prefix on the UUID index; filters on the stub", async () => {
    const ids = byId(NODES);
    const first = await list("/v1/nodes?per_page=3");
    expect([first.ids, first.next, first.index]).toEqual([ids.slice(0, 3), `${ids[3]}${SUFFIX}`, "1009"]);
    const second = await list(`/v1/nodes?per_page=3&next_token=${ids[3]}${SUFFIX}&namespace=non-default`);
    expect([second.ids, second.next]).toEqual([ids.slice(3, 6), `${ids[6]}${SUFFIX}`]);
    expect((await list("/v1/nodes?prefix=aaaaaa")).ids).toEqual(ids.filter((id) => id.startsWith("aaaaaa")));
    expect((await list("/v1/nodes?reverse=true&per_page=2")).ids).toEqual([...ids].reverse().slice(0, 2));
    const unhealthy = await list(`/v1/nodes?filter=${encodeURIComponent("Drivers.docker.Healthy == false")}`);
    expect(unhealthy.ids).toEqual(byId(NODES.filter((n) => !n.Drivers.docker.Healthy)));
    const odd = await list("/v1/nodes?prefix=zz");
    expect([odd.status, odd.text]).toEqual([400, "index error: Invalid UUID: encoding/hex: invalid byte: U+007A 'z'"]);
  });

  it("GET /v1/job/:id answers the job in its namespace as the scheduler's client decodes it; 404 for another; IDs may hold a slash", async () => {
    const res = await fetch(`${server.base}/v1/job/job-03?namespace=other`);
    expect(res.headers.get("x-svc-index")).toBe("1007");
    const held = JOBS.find((j) => j.ID === "job-03" && j.Namespace === "other")!;
    expect(await res.json()).toMatchObject({ ID: "job-03", Namespace: "other", Name: held.Name, Status: held.Status, Version: 0, CreateIndex: held.CreateIndex, TaskGroups: [{ Name: "web" }], Periodic: null, Region: "global" });
    const missing = await fetch(`${server.base}/v1/job/job-03`);
    expect([missing.status, await missing.text()]).toEqual([404, "job not found"]);
    expect((await fetch(`${server.base}/v1/job/${encodeURIComponent("job-03/dispatch-1")}?namespace=other`)).status).toBe(404);
  });

  it("GET /v1/status/leader, /v1/status/peers, /v1/regions: this server (the address the request reached), its region; no token needed", async () => {
    const { host } = new URL(acl.base);
    const json = async (path: string) => (await fetch(`${acl.base}${path}`)).json();
    expect(await json("/v1/status/leader")).toBe(host);
    expect(await json("/v1/status/peers")).toEqual([host]);
    expect(await json("/v1/regions")).toEqual(["global"]);
    const other = await fetch(`${acl.base}/v1/regions?region=mars`);
    expect([other.status, await other.text()]).toEqual([400, 'No path to region "mars"']);
  });

  it("GET /v1/namespaces: default and every namespace holding a job, by name, prefix", async () => {
    const names = async (path: string, headers: Record<string, string> = {}, base = server.base) => ((await (await fetch(`${base}${path}`, { headers })).json()) as { Name: string }[]).map((n) => n.Name);
    expect(await names("/v1/namespaces")).toEqual([...new Set(["default", ...JOBS.map((j) => j.Namespace)])].sort());
    expect(await names("/v1/namespaces?prefix=no")).toEqual(["non-default"]);
    expect(await names("/v1/namespaces", { "X-Svc-Token": "nondefault-reader" }, acl.base)).toEqual(["non-default"]);
    expect(await names("/v1/namespaces", { "X-Svc-Token": "node-reader" }, acl.base)).toEqual([]);
  });

  it.each([
    ["a syntax error", "/v1/jobs", "Name ==", /^failed to create result paginator: failed to read filter expression: .* at 1:/],
    ["an evaluation error", "/v1/jobs", 'Name == "none" or Name matches "["', /^failed to read result page: .*\[/],
    ["a missing map key", "/v1/deployments", "TaskGroups.api.DesiredTotal == 3", /^failed to read result page: .*api/],
    ["a missing summary key on a later item", "/v1/jobs", "JobSummary.Summary.web.Running == 0", /^failed to read result page: /],
  ])("400 for %s, as a full scan meets it", async (_name, path, filter, message) => {
    const res = await fetch(`${server.base}${path}?filter=${encodeURIComponent(filter)}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toMatch(message);
  });

  it("the error of a later item is not met when the page ends before it", async () => {
    const page = await list(`/v1/jobs?per_page=1&filter=${encodeURIComponent("JobSummary.Summary.web.Running == 0 or JobSummary.Summary.web.Running == 1")}`);
    expect(page.status, page.text).toBe(200);
    expect(page.ids).toEqual(["job-01"]);
    expect(page.next).toBe("default.job-02");
  });

  it("pretty prints with a four-space indent and a newline", async () => {
    const pretty = await (await fetch(`${server.base}/v1/jobs?per_page=1&pretty`)).text();
    expect(pretty.startsWith('[\n    {\n        "CreateIndex": 1000,')).toBe(true);
    expect(pretty.endsWith("\n")).toBe(true);
  });

  it("ACL: job:read@NS reads its namespace only, with namespace=* too, and the filter only sees what the token may read", async () => {
    const h = { "X-Svc-Token": "nondefault-reader" };
    const get = (path: string) => fetch(`${acl.base}${path}`, { headers: h });
    expect((await get("/v1/jobs")).status).toBe(403);
    expect(await (await get("/v1/jobs?namespace=non-default")).json()).toMatchObject([{ ID: "job-03" }]);
    expect(await (await get("/v1/jobs?namespace=*")).json()).toMatchObject([{ ID: "job-03", Namespace: "non-default" }]);
    expect(await (await get(`/v1/jobs?namespace=*&filter=${encodeURIComponent('Status == "pending"')}`)).json()).toMatchObject([{ ID: "job-03" }]);
    // A filter that fails on jobs of namespaces the token cannot read answers as over its own namespace.
    const failing = encodeURIComponent("JobSummary.Summary.web.Running == 0");
    const everywhere = await get(`/v1/jobs?namespace=*&filter=${failing}`);
    const own = await get(`/v1/jobs?namespace=non-default&filter=${failing}`);
    expect([everywhere.status, await everywhere.text()]).toEqual([own.status, await own.text()]);
    expect(((await (await get("/v1/deployments?namespace=*")).json()) as { ID: string }[]).map((d) => short(d.ID))).toEqual(["aaaaaa33"]);
    for (const path of ["/v1/allocations", "/v1/evaluations"]) {
      expect((await get(path)).status).toBe(403);
      expect(((await (await get(`${path}?namespace=*`)).json()) as { ID: string }[]).map((d) => short(d.ID))).toEqual(["aaaaaa33"]);
    }
    // Nodes have no namespace: read whole with node:read, not with a namespace's job:read.
    expect((await get("/v1/nodes?namespace=non-default")).status).toBe(403);
    const nodes = await fetch(`${acl.base}/v1/nodes`, { headers: { "X-Svc-Token": "node-reader" } });
    expect(((await nodes.json()) as { ID: string }[]).map((n) => short(n.ID))).toEqual(byId(NODES));
    expect((await fetch(`${acl.base}/v1/jobs`, { headers: { "X-Svc-Token": "node-reader" } })).status).toBe(403);
    expect((await get("/v1/job/job-03?namespace=non-default")).status).toBe(200);
    expect((await get("/v1/job/job-01")).status).toBe(403);
  });

  it("a new store starts at index 1", async () => {
    const empty = await serveStore(kind, cluster(), {});
    try {
      for (const path of ["/v1/jobs", "/v1/deployments", "/v1/allocations", "/v1/evaluations", "/v1/nodes"]) {
        const res = await fetch(`${empty.base}${path}`);
        expect(await res.text()).toBe("[]");
        expect(res.headers.get("x-svc-index")).toBe("1");
      }
    } finally {
      await empty.close();
    }
  });

  it("registration moves the job, its summary, its deployment (cancelling the previous one) and the index together; a blocking query wakes", async () => {
    const fresh = await serveStore(kind, cluster(), DATA);
    try {
      const blocked = fetch(`${fresh.base}/v1/deployments?index=1009&wait=20s&namespace=web`);
      // Blocking reads of a job not yet registered, and of the evaluations: both wake with the write.
      const job = fetch(`${fresh.base}/v1/job/api?namespace=web&index=1009&wait=20s`);
      const evaluation = fetch(`${fresh.base}/v1/evaluations?namespace=web&index=1009&wait=20s`);
      const put = (body: unknown) => fetch(`${fresh.base}/v1/jobs`, { method: "PUT", body: JSON.stringify(body) });
      const first = (await (await put({ Job: { ID: "api", Namespace: "web", TaskGroups: [{ Name: "g", Count: 2 }] } })).json()) as { Index: number; EvalID: string; EvalCreateIndex: number };
      expect(first.Index).toBe(1010);
      // The registration's evaluation is listed, and a blocking query on the evaluations wakes with it.
      const evaluations = await evaluation;
      expect(evaluations.headers.get("x-svc-index")).toBe("1010");
      expect(await evaluations.json()).toMatchObject([{ ID: first.EvalID, JobID: "api", Namespace: "web", TriggeredBy: "job-register", Status: "complete", QueuedAllocations: { g: 2 }, CreateIndex: first.EvalCreateIndex, JobModifyIndex: 1010 }]);
      const woke = await blocked;
      expect(woke.headers.get("x-svc-index")).toBe("1010");
      const info = await job;
      expect([info.headers.get("x-svc-index"), ((await info.json()) as { Version: number }).Version]).toEqual(["1010", 0]);
      // A write to other tables leaves these lists' indexes; a blocking query on one answers at its wait's end.
      const still = await fetch(`${fresh.base}/v1/allocations?index=1009&wait=50ms`);
      expect([still.status, still.headers.get("x-svc-index")]).toEqual([200, "1009"]);
      expect(await woke.json()).toMatchObject([{ JobID: "api", Status: "running", CreateIndex: 1010 }]);
      const second = (await (await put({ Job: { ID: "api", Namespace: "web", TaskGroups: [{ Name: "g", Count: 3 }] } })).json()) as { Index: number };
      expect(second.Index).toBe(1011);
      const jobs = await fetch(`${fresh.base}/v1/jobs?namespace=web`);
      expect(jobs.headers.get("x-svc-index")).toBe("1011");
      expect(await jobs.json()).toMatchObject([{ ID: "api", CreateIndex: 1010, ModifyIndex: 1011, JobSummary: { Summary: { g: { Queued: 3 } }, ModifyIndex: 1011 } }]);
      const deployments = (await (await fetch(`${fresh.base}/v1/deployments?namespace=web`)).json()) as { Status: string; StatusDescription: string; JobVersion: number }[];
      expect(deployments.map((d) => [d.JobVersion, d.Status, d.StatusDescription])).toEqual([
        [0, "cancelled", "Cancelled due to newer version of job"],
        [1, "running", "Deployment is running"],
      ]);
      // Each registration made its evaluation.
      const both = await fetch(`${fresh.base}/v1/evaluations?namespace=web`);
      expect(both.headers.get("x-svc-index")).toBe("1011");
      expect(((await both.json()) as { CreateIndex: number; QueuedAllocations: unknown }[]).map((e) => [e.CreateIndex, e.QueuedAllocations])).toEqual([
        [1010, { g: 2 }],
        [1011, { g: 3 }],
      ]);
    } finally {
      await fresh.close();
    }
  });
});

describe("choosing the store", () => {
  it("--database takes a postgres:// URL; server { database } in the configuration file is the same setting (env:// resolved), the command line wins", async () => {
    const { parseCommandLine, resolveOptions, UsageError } = await import("../src/options.js");
    const { configOptions, loadConfigFile, ConfigError } = await import("../src/ops/config.js");
    expect(parseCommandLine(["--database", "postgres://u@127.0.0.1:5432/db"]).given.database).toBe("postgres://u@127.0.0.1:5432/db");
    expect(() => parseCommandLine(["--database", "mysql://x"])).toThrow(UsageError);
    const { mkdtempSync, writeFileSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { join } = await import("node:path");
    const dir = mkdtempSync(join(tmpdir(), "filter-server-cfg-"));
    try {
      const file = join(dir, "c.json");
      const listener = [{ tcp: { purpose: "api", tls_disable: true } }, { tcp: { purpose: "ops", tls_disable: true } }];
      writeFileSync(file, JSON.stringify({ controller: { name: "c", database: { url: "postgresql://gateway" } }, server: { database: "env://SCHED_DB" }, listener }));
      const config = await loadConfigFile(file, { SCHED_DB: "postgres://s@127.0.0.1/sched" });
      expect(configOptions(config).database).toBe("postgres://s@127.0.0.1/sched");
      expect(resolveOptions({ database: "postgres://cli/db" }, configOptions(config), {}).database).toBe("postgres://cli/db");
      // The gateway's controller.database.url alone does not move the scheduler's state.
      writeFileSync(file, JSON.stringify({ controller: { name: "c", database: { url: "postgresql://gateway" } }, listener }));
      expect(configOptions(await loadConfigFile(file, {})).database).toBeUndefined();
      writeFileSync(file, JSON.stringify({ controller: { name: "c" }, server: { database: "mysql://x" }, listener }));
      await expect(loadConfigFile(file, {})).rejects.toThrow(ConfigError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the PostgreSQL store's seed", () => {
  it("keeps the data file's applies with the seed, and every later server reads them from the database (a later file's are ignored)", async () => {
    const { PostgresStore } = await import("../src/store/postgres/index.js");
    const { snapshotFromData } = await import("../src/lists/load.js");
    const url = await cluster().createDatabase("applies");
    const applies = [{ id: "apply-1", status: "applied" }];
    const first = await PostgresStore.open(url, () => snapshotFromData(DATA), () => undefined, 2, applies);
    expect(first.applies).toEqual(applies);
    await first.close();
    const second = await PostgresStore.open(url, () => snapshotFromData({}), () => undefined, 2, [{ id: "other" }]);
    try {
      expect(second.applies).toEqual(applies);
      expect(await second.summary()).toEqual({ jobs: JOBS.length, deployments: DEPLOYMENTS.length, index: 1009 });
    } finally {
      await second.close();
    }
  });
});

describe("the PostgreSQL store's indexes", () => {
  it("has, for each endpoint's text-indexed field, a btree on its text then the list's key, a GIN jsonb_path_ops on each table, and pg_trgm indexes on names", async () => {
    const { PostgresStore } = await import("../src/store/postgres/index.js");
    const { snapshotFromData } = await import("../src/lists/load.js");
    const { LIST_ENDPOINTS } = await import("../src/lists/endpoints.js");
    const pg = (await import("pg")).default;
    const url = await cluster().createDatabase("indexes");
    const store = await PostgresStore.open(url, () => snapshotFromData(DATA), () => undefined, 2);
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ tablename: string; indexdef: string }>("SELECT tablename, indexdef FROM pg_indexes WHERE schemaname = 'public'");
      const defs = (table: string) => rows.filter((r) => r.tablename === table).map((r) => r.indexdef);
      for (const endpoint of LIST_ENDPOINTS) {
        const key = endpoint.order.column;
        for (const path of endpoint.textIndexed) {
          const expression = `((doc #>> '{${path.join(",")}}'::text[])), ${key})`;
          expect(defs(endpoint.table).some((d) => d.includes("USING btree") && d.endsWith(expression)), `${endpoint.table}: ${expression}`).toBe(true);
        }
        expect(defs(endpoint.table).some((d) => d.includes("USING gin (doc jsonb_path_ops)")), endpoint.table).toBe(true);
      }
      expect(defs("jobs").some((d) => d.includes("gin_trgm_ops") && d.includes("'{Name}'"))).toBe(true);
    } finally {
      await client.end();
    }
  });
});
