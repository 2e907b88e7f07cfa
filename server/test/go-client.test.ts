/**
 * The scheduler's own Go API client (github.com/hashicorp/nomad/api, vendored in test/go-client/vendor
 * by test/go-client/prepare.sh) against the server's bin with `--api-headers nomad`, on a loopback
 * port: a small program (test/go-client/main.go) lists with a filter, pages with PerPage/NextToken to
 * the end, blocks with WaitIndex and wakes on a registration, reads deployments, registers a job and
 * reads the event stream; it lists allocations, nodes and evaluations (filters, pages, prefixes, the
 * evaluations' `job` parameter, a blocking query that times out) and prints them as the client
 * decoded them, each answer as JSON. The test's data file holds the records (support/go-client-records.ts)
 * its expectations are computed from.
 *
 * The program is built once per content of its sources (main.go, go.mod, vendor/), cached under the
 * system's temporary folder, with Debian's Go (/usr/lib/go-1.23/bin/go) or `go` on PATH (1.23 or
 * later), offline. Without Go the tests are skipped, and the reason is printed.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, start, stop, type Running } from "./server-process.js";
import { metric } from "./support/event-streams.js";
import { runChild } from "../../test/support/child.js";
import { until } from "../../test/support/wait.js";
import { ALLOCATIONS, EVALUATIONS, NODES, allocationView, evaluationView, nodeView } from "./support/go-client-records.js";

const SOURCES = join(import.meta.dirname, "go-client");
const DEBIAN_GO = "/usr/lib/go-1.23/bin/go";

/** Every file the build reads, by path relative to SOURCES, sorted. */
function sourceFiles(dir = SOURCES): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== ".modules") out.push(...sourceFiles(path));
    } else if (entry.name.endsWith(".go") || entry.name === "go.mod" || entry.name === "modules.txt") out.push(relative(SOURCES, path));
  }
  return out.sort();
}

/** The Go toolchain to build with, or why there is none. */
async function findGo(): Promise<{ go: string } | { reason: string }> {
  if (!existsSync(join(SOURCES, "vendor", "modules.txt"))) return { reason: `${SOURCES}/vendor is missing: run server/test/go-client/prepare.sh` };
  for (const go of [DEBIAN_GO, "go"]) {
    if (go === DEBIAN_GO && !existsSync(go)) continue;
    const version = await runChild(go, ["version"]).catch(() => undefined);
    if (version === undefined || version.status !== 0) continue;
    const m = /go(\d+)\.(\d+)/.exec(version.stdout);
    if (m !== null && (Number(m[1]) > 1 || Number(m[2]) >= 23)) return { go };
    return { reason: `${go} is ${version.stdout.trim()}; the client needs Go 1.23 or later` };
  }
  return { reason: `no Go toolchain (${DEBIAN_GO}, or go on PATH): install golang-1.23-go (bookworm-backports)` };
}

/** Builds the program unless a build of these sources is cached; its path. */
async function buildClient(go: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of sourceFiles()) hash.update(file).update("\0").update(readFileSync(join(SOURCES, file))).update("\0");
  const root = join(tmpdir(), "filter-server-go-client");
  const bin = join(root, hash.digest("hex").slice(0, 16), "go-client");
  if (existsSync(bin)) return bin;
  mkdirSync(root, { recursive: true });
  const scratch = mkdtempSync(join(root, "build-"));
  const env = {
    ...process.env,
    GOFLAGS: "-mod=vendor",
    GOPROXY: "off",
    GOTOOLCHAIN: "local",
    GOWORK: "off",
    CGO_ENABLED: "0",
    GOCACHE: join(root, "gocache"),
    GOMODCACHE: join(root, "gomodcache"),
    GOPATH: join(root, "gopath"),
  };
  const built = await runChild(go, ["build", "-trimpath", "-o", join(scratch, "go-client"), "."], { cwd: SOURCES, env });
  if (built.status !== 0) throw new Error(`building the Go client failed (${go}):\n${built.stderr}`);
  mkdirSync(join(bin, ".."), { recursive: true });
  // Another run may have built it meanwhile: the rename puts a whole file in place either way.
  renameSync(join(scratch, "go-client"), bin);
  return bin;
}

const found = await findGo();
if ("reason" in found) console.warn(`server/test/go-client.test.ts: skipped, ${found.reason}`);

interface Meta {
  lastIndex: number;
  nextToken: string;
  knownLeader: boolean;
  lastContactMs: number;
}
interface Item {
  id: string;
  namespace: string;
  status: string;
  detail: string;
}
type Page = Meta & { items: Item[] };

const TOKENS = [
  { SecretID: "root-secret", Name: "root", Management: true, Capabilities: [] },
  { SecretID: "reader-secret", Name: "reader", Capabilities: ["job:read"] },
  { SecretID: "dev-reader-secret", Name: "dev reader", Capabilities: ["job:read@dev"] },
  { SecretID: "node-reader-secret", Name: "node reader", Capabilities: ["node:read"] },
];
const job = (id: string, namespace: string, type: string, i: number) => ({ ID: id, Name: id, Namespace: namespace, Type: type, Status: "running", Datacenters: ["dc1"], CreateIndex: 10 + i, ModifyIndex: 10 + i, JobModifyIndex: 10 + i });
const JOBS = [
  ...["api", "batch-1", "batch-2", "cache", "batch-3", "db", "batch-4", "edge", "batch-5"].map((id, i) => job(id, "default", id.startsWith("batch") ? "batch" : "service", i)),
  ...["batch-dev", "web-dev"].map((id, i) => job(id, "dev", id.startsWith("batch") ? "batch" : "service", 20 + i)),
];
const deployment = (n: number, status: string, namespace = "default") => ({
  ID: `${String(n).padStart(8, "0")}-0000-0000-0000-000000000000`,
  Namespace: namespace,
  JobID: `job-${n}`,
  Status: status,
  StatusDescription: status === "successful" ? "Deployment completed successfully" : "Cancelled due to newer version of job",
  CreateIndex: 100 + n,
  ModifyIndex: 100 + n,
  TaskGroups: { web: { DesiredTotal: 2, HealthyAllocs: 2, PlacedCanaries: null, RequireProgressBy: "2025-01-01T10:00:00Z", ProgressDeadline: 600000000000 } },
});
const DEPLOYMENTS = [deployment(1, "successful"), deployment(2, "cancelled"), deployment(3, "successful"), deployment(4, "successful", "dev"), deployment(5, "successful")];

/** An allocation, node or evaluation as the client decoded it (its api struct, encoded again by encoding/json). */
type Decoded = Record<string, unknown> & { ID: string };
type RecordPage = Meta & { items: Decoded[] };
interface Keyed {
  ID: string;
  CreateIndex: number;
  ModifyIndex: number;
}
const compareIds = (a: Keyed, b: Keyed): number => (a.ID < b.ID ? -1 : a.ID > b.ID ? 1 : 0);
/** The server's order of allocations and evaluations: create index, then ID; their next tokens `CreateIndex.ID`. */
const byCreateIndex = { compare: (a: Keyed, b: Keyed): number => a.CreateIndex - b.CreateIndex || compareIds(a, b), token: (r: Keyed): string => `${r.CreateIndex}.${r.ID}` };
/** The server's order of nodes: ID; their next tokens the ID. */
const byId = { compare: compareIds, token: (r: Keyed): string => r.ID };
/** A list's index (X-Nomad-Index): the highest ModifyIndex of its records (nothing writes them here). */
const indexOf = (records: readonly Keyed[]): number => Math.max(...records.map((r) => r.ModifyIndex));

/**
 * Checks a walk's pages against `records` (those the request selects): the server's `order`, `perPage`
 * at a time (all at once for 0), each page sorted as the client's List sorts it (CreateIndex
 * descending: AllocIndexSort, NodeIndexSort, EvalIndexSort), with the next page's first record's token,
 * the list's `index`, and every item, field for field, as the client keeps the record (`view`).
 */
function expectWalk<T extends Keyed>(pages: RecordPage[], records: T[], perPage: number, order: typeof byId, index: number, view: (record: T) => object): void {
  const sorted = [...records].sort(order.compare);
  const size = perPage === 0 ? Math.max(1, sorted.length) : perPage;
  const chunks: T[][] = [];
  for (let i = 0; i < sorted.length || chunks.length === 0; i += size) chunks.push(sorted.slice(i, i + size));
  expect(pages.map((p) => p.items.map((i) => i.ID))).toEqual(chunks.map((c) => [...c].sort((a, b) => b.CreateIndex - a.CreateIndex).map((r) => r.ID)));
  expect(pages.map((p) => p.nextToken)).toEqual(chunks.map((_, i) => (i + 1 < chunks.length ? order.token(chunks[i + 1]![0]!) : "")));
  const byID = new Map(records.map((r) => [r.ID, r]));
  for (const page of pages) {
    expect(page).toMatchObject({ lastIndex: index, knownLeader: true, lastContactMs: 0 });
    for (const item of page.items) expect(item).toMatchObject(view(byID.get(item.ID)!));
  }
}

describe.skipIf("reason" in found)("the scheduler's Go API client against --api-headers nomad", () => {
  let client = "";
  let server: Running;
  let svc: Running;
  /** A server of the same data that no test writes to: its allocations, nodes and evaluations stay the data file's. */
  let records: Running;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-server-go-client-"));
    writeFileSync(join(dir, "data.json"), JSON.stringify({ jobs: JOBS, deployments: DEPLOYMENTS, allocations: ALLOCATIONS, nodes: NODES, evaluations: EVALUATIONS }));
    writeFileSync(join(dir, "tokens.json"), JSON.stringify(TOKENS));
    const common = ["--data", join(dir, "data.json"), "--acl-tokens", join(dir, "tokens.json")];
    // The seed's dialect without ACLs: what a client of the scheduler meets there.
    [client, server, svc, records] = await Promise.all([
      buildClient((found as { go: string }).go),
      start([...common, "--api-headers", "nomad"]),
      start(["--data", join(dir, "data.json")]),
      start([...common, "--api-headers", "nomad"]),
    ]);
  });
  afterAll(async () => {
    await Promise.all([server, svc, records].filter((s) => s !== undefined).map(stop));
    killAll();
  });

  /** Runs the program against `base` with the token; its JSON answer. */
  async function run<T>(base: string, token: string, ...args: string[]): Promise<T> {
    const r = await runChild(client, ["-addr", base, ...(token === "" ? [] : ["-token", token]), ...args]);
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as T;
  }
  const ids = (pages: Page[]) => pages.flatMap((p) => p.items.map((i) => i.id));

  it("lists jobs with a filter and pages with PerPage and NextToken to the end", async () => {
    const { pages } = await run<{ pages: Page[] }>(server.api, "reader-secret", "walk", "-endpoint", "jobs", "-filter", 'Type == "batch"', "-per-page", "2");
    expect(pages.map((p) => p.items.map((i) => i.id))).toEqual([["batch-1", "batch-2"], ["batch-3", "batch-4"], ["batch-5"]]);
    expect(pages.map((p) => p.nextToken)).toEqual(["default.batch-3", "default.batch-5", ""]);
    for (const p of pages) {
      expect(p.lastIndex).toBe(31);
      expect(p.knownLeader).toBe(true);
      expect(p.lastContactMs).toBe(0);
      expect(p.items.every((i) => i.detail === "batch" && i.namespace === "default")).toBe(true);
    }
    // What the server answers to the same request without the client.
    const direct = await fetch(`${server.api}/v1/jobs?filter=${encodeURIComponent('Type == "batch"')}`, { headers: { "X-Nomad-Token": "reader-secret" } });
    expect(ids(pages)).toEqual(((await direct.json()) as { ID: string }[]).map((j) => j.ID));
  });

  it("pages every namespace; a namespace-limited token sees its own", async () => {
    const all = await run<{ pages: Page[] }>(server.api, "reader-secret", "walk", "-endpoint", "jobs", "-namespace", "*", "-per-page", "4");
    expect(all.pages.map((p) => p.items.length)).toEqual([4, 4, 3]);
    // The server's pages in (Namespace, ID) order; the client sorts each page it gets by ID (JobIDSort).
    expect(all.pages.map((p) => p.items.map((i) => `${i.namespace}.${i.id}`))).toEqual([
      ["default.api", "default.batch-1", "default.batch-2", "default.batch-3"],
      ["default.batch-4", "default.batch-5", "default.cache", "default.db"],
      ["dev.batch-dev", "default.edge", "dev.web-dev"],
    ]);
    expect(all.pages.map((p) => p.nextToken)).toEqual(["default.batch-4", "default.edge", ""]);
    const dev = await run<{ pages: Page[] }>(server.api, "dev-reader-secret", "walk", "-endpoint", "jobs", "-namespace", "*", "-per-page", "1");
    expect(ids(dev.pages)).toEqual(["batch-dev", "web-dev"]);
  });

  it("reads deployments with a filter, pages included, and decodes their task groups", async () => {
    const { pages } = await run<{ pages: Page[] }>(server.api, "reader-secret", "walk", "-endpoint", "deployments", "-filter", 'Status == "successful"', "-per-page", "1");
    expect(pages.map((p) => p.items.map((i) => i.detail))).toEqual([["job-1"], ["job-3"], ["job-5"]]);
    expect(pages.at(-1)?.nextToken).toBe("");
    expect(pages[0]?.nextToken).toBe(`103.${DEPLOYMENTS[2]!.ID}`);
  });

  it("blocks with WaitIndex and wakes on a registration, with the write's index", async () => {
    const first = await run<{ pages: Page[] }>(server.api, "reader-secret", "walk", "-endpoint", "jobs");
    const index = first.pages[0]!.lastIndex;
    const before = await metric(server.api, "filter_server_blocking_queries_waiting");
    const blocked = run<{ meta: Meta; items: Item[] }>(server.api, "reader-secret", "block", "-index", String(index), "-wait", "5m");
    await until("the client's query waiting", async () => (await metric(server.api, "filter_server_blocking_queries_waiting")) > before, 20);
    const put = await fetch(`${server.api}/v1/jobs`, { method: "PUT", headers: { "X-Nomad-Token": "root-secret" }, body: JSON.stringify({ Job: { ID: "woken", TaskGroups: [{ Name: "g", Count: 1 }] } }) });
    expect(put.status, await put.clone().text()).toBe(200);
    const written = Number(put.headers.get("X-Nomad-Index"));
    const answer = await blocked;
    expect(answer.meta.lastIndex).toBe(written);
    expect(written).toBeGreaterThan(index);
    expect(answer.items.map((i) => i.id)).toContain("woken");
  });

  it("registers a job with Jobs().Register and reads its events from the stream", async () => {
    const registered = await run<{ lastIndex: number; jobModifyIndex: number; evalID: string }>(server.api, "root-secret", "register", "-id", "from-go", "-count", "3");
    expect(registered.jobModifyIndex).toBe(registered.lastIndex);
    expect(registered.evalID).toMatch(/^[0-9a-f-]{36}$/);
    const { pages } = await run<{ pages: Page[] }>(server.api, "reader-secret", "walk", "-endpoint", "jobs", "-filter", 'ID == "from-go"');
    expect(pages[0]?.items).toEqual([{ id: "from-go", namespace: "default", status: "pending", detail: "service" }]);

    const jobs = await run<{ events: { topic: string; type: string; key: string; index: number; decoded: string }[] }>(server.api, "root-secret", "events", "-topic", "Job", "-index", String(registered.lastIndex - 1), "-count", "1");
    expect(jobs.events[0]).toMatchObject({ topic: "Job", type: "JobRegistered", key: "from-go", index: registered.lastIndex });
    // The event's payload is the job's list entry (server/docs/events.md), not the scheduler's whole
    // job: Periodic and ParameterizedJob are booleans there, and the client's Event.Job() refuses them.
    expect(jobs.events[0]?.decoded).toMatch(/^error: .*'Job\.Periodic' expected a map or struct, got "bool"/s);
    const deployments = await run<{ events: { topic: string; type: string; key: string; index: number; decoded: string }[] }>(server.api, "root-secret", "events", "-topic", "Deployment", "-index", String(registered.lastIndex - 1), "-count", "1");
    expect(deployments.events[0]).toMatchObject({ topic: "Deployment", index: registered.lastIndex });
    expect(deployments.events[0]?.decoded).toBe(deployments.events[0]?.key);
  });

  it("every allocation, node and evaluation decodes, each field the client has as the server sent it", async () => {
    // A field of another JSON type than the client's struct makes its List fail (json: cannot unmarshal …).
    const allocations = await run<{ pages: RecordPage[] }>(records.api, "root-secret", "walk", "-endpoint", "allocations", "-namespace", "*");
    expectWalk(allocations.pages, [...ALLOCATIONS], 0, byCreateIndex, indexOf(ALLOCATIONS), allocationView);
    const nodes = await run<{ pages: RecordPage[] }>(records.api, "root-secret", "walk", "-endpoint", "nodes");
    expectWalk(nodes.pages, [...NODES], 0, byId, indexOf(NODES), nodeView);
    const evaluations = await run<{ pages: RecordPage[] }>(records.api, "root-secret", "walk", "-endpoint", "evaluations", "-namespace", "*");
    expectWalk(evaluations.pages, [...EVALUATIONS], 0, byCreateIndex, indexOf(EVALUATIONS), evaluationView);
    // The nested structs arrived filled (not their zero values), and times and durations as sent.
    const rich = allocations.pages[0]!.items.find((a) => a.ID === ALLOCATIONS[0]!.ID)!;
    expect(rich).toMatchObject({ AllocatedResources: { Tasks: { web: { Cpu: { CpuShares: 500 } } } }, DeploymentStatus: { Healthy: true, Timestamp: ALLOCATIONS[0]!.DeploymentStatus!.Timestamp } });
    expect(nodes.pages[0]!.items.find((n) => n.ID === NODES[0]!.ID)).toMatchObject({ NodeResources: { Devices: [{ Attributes: { clock: { Float: 1.59, Unit: "GHz" } } }] }, LastDrain: { Status: "draining" } });
    expect(evaluations.pages[0]!.items.find((e) => e.ID === EVALUATIONS[4]!.ID)).toMatchObject({ Wait: 30_000_000_000, WaitUntil: EVALUATIONS[4]!.WaitUntil });
  });

  it("lists allocations with a filter on ClientStatus and a TaskStates key, paging with PerPage and NextToken to the end", async () => {
    const filter = 'ClientStatus == "running" and "sidecar" in TaskStates';
    const running = ALLOCATIONS.filter((a) => a.ClientStatus === "running" && a.TaskStates !== null && "sidecar" in a.TaskStates);
    expect(running.length).toBe(3);
    const { pages } = await run<{ pages: RecordPage[] }>(records.api, "reader-secret", "walk", "-endpoint", "allocations", "-namespace", "*", "-filter", filter, "-per-page", "2");
    expectWalk(pages, running, 2, byCreateIndex, indexOf(ALLOCATIONS), allocationView);
    // Into a task's state (the key's presence first: a selector through a missing key is an error).
    const notRunning = ALLOCATIONS.filter((a) => a.TaskStates?.["worker"] !== undefined && a.TaskStates["worker"]!.State !== "running");
    expect(notRunning.length).toBe(2);
    const workers = await run<{ pages: RecordPage[] }>(records.api, "reader-secret", "walk", "-endpoint", "allocations", "-namespace", "*", "-filter", '"worker" in TaskStates and TaskStates.worker.State != "running"', "-per-page", "1");
    expectWalk(workers.pages, notRunning, 1, byCreateIndex, indexOf(ALLOCATIONS), allocationView);
    // Without a namespace: the default one; a token limited to dev sees dev's in every namespace.
    const inDefault = await run<{ pages: RecordPage[] }>(records.api, "reader-secret", "walk", "-endpoint", "allocations", "-filter", filter);
    expectWalk(inDefault.pages, running.filter((a) => a.Namespace === "default"), 0, byCreateIndex, indexOf(ALLOCATIONS), allocationView);
    const dev = await run<{ pages: RecordPage[] }>(records.api, "dev-reader-secret", "walk", "-endpoint", "allocations", "-namespace", "*", "-per-page", "1");
    expectWalk(dev.pages, ALLOCATIONS.filter((a) => a.Namespace === "dev"), 1, byCreateIndex, indexOf(ALLOCATIONS), allocationView);
  });

  it("lists nodes with a filter on a driver's health, paged, and by prefix (PrefixList), with node:read", async () => {
    const filter = 'Status == "ready" and "docker" in Drivers and Drivers.docker.Healthy == true';
    const healthy = NODES.filter((n) => n.Status === "ready" && n.Drivers?.["docker"]?.Healthy === true);
    expect(healthy.length).toBe(3);
    const { pages } = await run<{ pages: RecordPage[] }>(records.api, "node-reader-secret", "walk", "-endpoint", "nodes", "-filter", filter, "-per-page", "2");
    expectWalk(pages, healthy, 2, byId, indexOf(NODES), nodeView);
    // A partial UUID, in either case (the UUID index); the client's one request has no pages.
    const f00d = NODES.filter((n) => n.ID.startsWith("f00d"));
    expect(f00d.length).toBe(2);
    for (const prefix of ["f00d", "F00D"]) {
      const page = await run<RecordPage>(records.api, "node-reader-secret", "prefix-list", "-endpoint", "nodes", "-prefix", prefix);
      expectWalk([page], f00d, 0, byId, indexOf(NODES), nodeView);
    }
    // Nodes are read with node:read, which job:read is not.
    expect(await run(records.api, "reader-secret", "walk", "-endpoint", "nodes")).toEqual({ error: "Unexpected response code: 403 (Permission denied)" });
  });

  it("lists evaluations with a filter and with the legacy job= and status= parameters; job= with a filter is the client's 400 error", async () => {
    const pending = EVALUATIONS.filter((e) => e.Status !== "complete");
    const { pages } = await run<{ pages: RecordPage[] }>(records.api, "reader-secret", "walk", "-endpoint", "evaluations", "-namespace", "*", "-filter", 'Status != "complete"', "-per-page", "2");
    expectWalk(pages, pending, 2, byCreateIndex, indexOf(EVALUATIONS), evaluationView);
    // QueryOptions.Params: job= in the default namespace, in every one, for a token limited to dev; status=.
    expect(EVALUATIONS.filter((e) => e.JobID === "api").length).toBe(3);
    const cases: [token: string, args: string[], expected: (e: (typeof EVALUATIONS)[number]) => boolean][] = [
      ["reader-secret", ["-param", "job=api"], (e) => e.JobID === "api" && e.Namespace === "default"],
      ["reader-secret", ["-param", "job=api", "-namespace", "*"], (e) => e.JobID === "api"],
      ["dev-reader-secret", ["-param", "job=api", "-namespace", "*"], (e) => e.JobID === "api" && e.Namespace === "dev"],
      ["reader-secret", ["-param", "status=complete", "-per-page", "1"], (e) => e.Status === "complete" && e.Namespace === "default"],
    ];
    for (const [token, args, expected] of cases) {
      const walked = await run<{ pages: RecordPage[] }>(records.api, token, "walk", "-endpoint", "evaluations", ...args);
      const perPage = args.includes("-per-page") ? 1 : 0;
      expectWalk(walked.pages, EVALUATIONS.filter(expected), perPage, byCreateIndex, indexOf(EVALUATIONS), evaluationView);
    }
    expect(await run(records.api, "reader-secret", "walk", "-endpoint", "evaluations", "-param", "job=api", "-filter", 'Status == "complete"')).toEqual({
      error: "Unexpected response code: 400 (Filter expression cannot be used with other filter parameters)",
    });
  });

  it("a blocking query on a list nothing writes returns after WaitTime with the same index", async () => {
    // WaitIndex equal to the list's index: the server waits for WaitTime (plus up to 1/16 of it), then
    // answers the same page with the same index (the verdict reads the index, not the time taken).
    const [evaluations, nodes] = await Promise.all([
      run<{ meta: Meta; items: Decoded[] }>(records.api, "reader-secret", "block", "-endpoint", "evaluations", "-index", String(indexOf(EVALUATIONS)), "-wait", "200ms"),
      run<{ meta: Meta; items: Decoded[] }>(records.api, "node-reader-secret", "block", "-endpoint", "nodes", "-index", String(indexOf(NODES)), "-wait", "200ms"),
    ]);
    expect(evaluations.meta).toEqual({ lastIndex: indexOf(EVALUATIONS), nextToken: "", knownLeader: true, lastContactMs: 0 });
    expect(evaluations.items.map((e) => e.ID).sort()).toEqual(EVALUATIONS.filter((e) => e.Namespace === "default").map((e) => e.ID).sort());
    expect(nodes.meta).toEqual({ lastIndex: indexOf(NODES), nextToken: "", knownLeader: true, lastContactMs: 0 });
    expect(nodes.items.map((n) => n.ID).sort()).toEqual(NODES.map((n) => n.ID).sort());
  });

  it("reads a job with Jobs().Info, a 404 as the client's error, and the namespaces with Namespaces().List and PrefixList", async () => {
    const held = JOBS.find((j) => j.ID === "web-dev")!;
    const read = await run<{ meta: Meta; job: Record<string, unknown> }>(server.api, "dev-reader-secret", "info", "-namespace", held.Namespace, held.ID);
    expect(read.job).toMatchObject({ ID: held.ID, Name: held.Name, Namespace: held.Namespace, Type: held.Type, Status: held.Status, Datacenters: held.Datacenters, CreateIndex: held.CreateIndex, ModifyIndex: held.ModifyIndex, Version: 0, Region: "global", Stop: false });
    expect(read.meta.knownLeader).toBe(true);
    expect(await run(server.api, "reader-secret", "info", held.ID)).toEqual({ error: "Unexpected response code: 404 (job not found)" });
    expect(await run(server.api, "dev-reader-secret", "info", "api")).toEqual({ error: "Unexpected response code: 403 (Permission denied)" });
    const names = (answer: { namespaces: { Name: string }[] }) => answer.namespaces.map((n) => n.Name);
    const all = names(await run(server.api, "root-secret", "namespaces"));
    for (const name of new Set(["default", ...JOBS.map((j) => j.Namespace)])) expect(all).toContain(name);
    expect(names(await run(server.api, "dev-reader-secret", "namespaces"))).toEqual(["dev"]);
    expect(names(await run(server.api, "root-secret", "namespaces", "-prefix", "de"))).toEqual(all.filter((n) => n.startsWith("de")));
  });

  it("reads the leader, the peers and the regions with Status() and Regions()", async () => {
    const { port } = new URL(server.api);
    expect(await run(server.api, "", "status")).toEqual({ leader: `127.0.0.1:${port}`, peers: [`127.0.0.1:${port}`], regions: ["global"] });
  });

  it("tokens: none or an unknown one is the client's 403 error", async () => {
    expect(await run(server.api, "", "walk")).toEqual({ error: "Unexpected response code: 403 (Permission denied)" });
    expect(await run(server.api, "nope", "walk")).toEqual({ error: "Unexpected response code: 403 (Permission denied)" });
    expect(await run(server.api, "reader-secret", "walk", "-filter", "Nope ==")).toMatchObject({ error: expect.stringMatching(/^Unexpected response code: 400 \(/) });
  });

  it("against the seed's dialect (the default), the client cannot page or block, and its token is refused", async () => {
    // The first page is read, but its meta is under X-Svc-*: the client sees no next token (so the
    // walk ends after one page, silently), index 0 (a WaitIndex of 0 does not block) and no leader.
    const { pages } = await run<{ pages: Page[] }>(svc.api, "", "walk", "-per-page", "2");
    expect(pages).toEqual([{ lastIndex: 0, nextToken: "", knownLeader: false, lastContactMs: 0, items: [expect.objectContaining({ id: "api" }), expect.objectContaining({ id: "batch-1" })] }]);
    // Its token header is the other dialect's: refused, never ignored (even with ACLs off).
    expect(await run(svc.api, "reader-secret", "walk")).toEqual({
      error: "Unexpected response code: 400 (X-Nomad-Token is not read by this server, whose headers are the seed's (--api-headers svc): send the token as X-Svc-Token or Authorization: Bearer)",
    });
  });
});
