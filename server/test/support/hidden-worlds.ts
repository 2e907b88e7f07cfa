/**
 * Random "worlds" for the ACL non-interference test (acl-noninterference.test.ts): two data sets, left
 * and right, that differ only in the jobs, deployments, allocations and evaluations of some namespaces
 * (the hidden ones: extra, missing and changed items, some that make filters fail, some that match),
 * ACL tokens none of which may read a hidden namespace, and random list requests over both (filters
 * that fail on some items, namespaces, prefixes, evaluations' `job` and `status`, pages, next tokens of
 * either side's data and made-up ones, reverse). Nodes have no namespace: both sides hold the same.
 *
 * X-Svc-Index is equal on both sides by construction. It is a table-wide index (the highest index that
 * touched the table), so any write in a hidden namespace moves it: that is inherent to the scheduler's
 * API and is not what the test is about. Every item therefore has CreateIndex, ModifyIndex and
 * JobSummary.ModifyIndex below `TOP_INDEX`, and one anchor job, deployment, allocation and evaluation,
 * the same on both sides in a namespace that is not hidden, carry `TOP_INDEX` as their ModifyIndex:
 * every namespaced table has the index `TOP_INDEX` on both sides whatever the hidden items hold.
 */
import fc from "fast-check";
import { filterOf } from "./filters.js";
import type { AclToken } from "../../src/context.js";

/** The namespaces of every world: `a`, `a-` and `a-b` make job tokens sort unlike the list (`a-.x` < `a-b.x` < `a.x`). */
export const NAMESPACES = ["a", "a-", "a-b", "default", "dev", "prod"] as const;

/** The table index of both tables on both sides (see the module's comment). */
export const TOP_INDEX = 10_000;

/** What every deployment ID ends with (IDs differ in their first 8 hex digits). */
const SUFFIX = "-3350-4b4b-d185-0e1992ed43e9";
/** The same for allocations, evaluations and nodes. */
const ALLOCATION_SUFFIX = "-5f1c-4e2a-9b07-6d3e8a1c2b40";
const EVALUATION_SUFFIX = "-0c9d-4a61-8e3f-27b5d1e4f6a8";
const NODE_SUFFIX = "-9e2b-47d0-a1c6-3f8e5b7d0c12";

/** A UUID from a small alphabet in its first 8 hex digits (prefixes collide), then `suffix`. */
const uuid = (suffix: string): fc.Arbitrary<string> => fc.string({ unit: fc.constantFrom("0", "a", "b", "c"), minLength: 8, maxLength: 8 }).map((hex) => `${hex}${suffix}`);

type Item = Record<string, unknown>;

/** One side's data, as a `--data` file holds it. */
export interface WorldData {
  jobs: Item[];
  deployments: Item[];
  allocations: Item[];
  evaluations: Item[];
  /** The same on both sides (nodes have no namespace to hide). */
  nodes: Item[];
}

export interface World {
  /** Namespaces whose items differ between the sides; no token of the world may read one. */
  hidden: string[];
  left: WorldData;
  right: WorldData;
  /** The servers' tokens (`t0`, `t1`, …). */
  tokens: AclToken[];
}

/** One list request: the path, the token's secret (undefined: none) and the query's pairs. */
export interface ListCase {
  path: ListPath;
  token: string | undefined;
  query: [string, string][];
}

/** The namespaced lists. */
export const LIST_PATHS = ["/v1/jobs", "/v1/deployments", "/v1/allocations", "/v1/evaluations"] as const;
export type ListPath = (typeof LIST_PATHS)[number];

/** A side's items of a list. */
export function itemsAt(side: WorldData, path: ListPath): Item[] {
  return side[path.slice("/v1/".length) as "jobs" | "deployments" | "allocations" | "evaluations"];
}

/** The request's path and query string. */
export function urlOf(c: ListCase): string {
  return `${c.path}?${new URLSearchParams(c.query)}`;
}

const JOB_IDS = ["web-1", "web-2", "web-3", "api-1", "api-2", "b.x", "web.1", "secret-ab", "secret-kq", "db", "cron", "a"];

const group = fc.record({ Running: fc.integer({ min: 0, max: 2 }), Queued: fc.integer({ min: 0, max: 1 }) });

/** `Multiregion` is plain JSON below its two fields: `Strategy.x` a string or a number, regions with or without `Meta`. */
const multiregion = fc.record(
  {
    Strategy: fc.record({ x: fc.constantFrom<unknown>("a", "ab", 1) }, { requiredKeys: [] }),
    Regions: fc.array(fc.record({ Name: fc.constantFrom("east", "west"), Meta: fc.record({ x: fc.constantFrom("east", "west") }) }, { requiredKeys: ["Name"] }), { maxLength: 2 }),
  },
  { requiredKeys: [] },
);

/** A job in one of `namespaces`; its indexes below `TOP_INDEX`. Summaries lack some groups (`web`, `api`, `zz`). */
export function job(namespaces: readonly string[]): fc.Arbitrary<Item> {
  const index = fc.integer({ min: 1, max: TOP_INDEX - 1 });
  return fc
    .record({
      Namespace: fc.constantFrom(...namespaces),
      ID: fc.constantFrom(...JOB_IDS),
      Name: fc.constantFrom("", "", "web-1", "secret-ab", "secret-k", "svc-1", "db"),
      Status: fc.constantFrom("pending", "running", "dead"),
      Type: fc.constantFrom("service", "batch", "system"),
      Priority: fc.constantFrom(10, 50, 70),
      ParentID: fc.constantFrom("", "parent"),
      Datacenters: fc.subarray(["dc1", "dc2", "dc3"]),
      Stop: fc.boolean(),
      CreateIndex: index,
      ModifyIndex: index,
      Multiregion: fc.option(multiregion, { nil: null }),
      summary: fc.record({ web: group, api: group, zz: group }, { requiredKeys: [] }),
      summaryIndex: index,
    })
    .map(({ summary, summaryIndex, ...j }) => ({ ...j, JobSummary: { JobID: j.ID, Namespace: j.Namespace, ModifyIndex: summaryIndex, Summary: summary } }));
}

const state = fc.record({ DesiredTotal: fc.integer({ min: 0, max: 3 }), Promoted: fc.boolean(), DesiredCanaries: fc.integer({ min: 0, max: 1 }) });

/** A deployment in one of `namespaces`; IDs from a small alphabet (prefixes collide), create indexes in a small range (orders interleave). */
export function deployment(namespaces: readonly string[]): fc.Arbitrary<Item> {
  return fc.record({
    ID: uuid(SUFFIX),
    Namespace: fc.constantFrom(...namespaces),
    JobID: fc.constantFrom("web", "api", "db"),
    Status: fc.constantFrom("running", "successful", "cancelled", "failed"),
    CreateIndex: fc.integer({ min: 100, max: 120 }),
    ModifyIndex: fc.integer({ min: 100, max: TOP_INDEX - 1 }),
    TaskGroups: fc.record({ web: state, api: state }, { requiredKeys: [] }),
  });
}

const taskState = fc.record({ State: fc.constantFrom("pending", "running", "dead"), Failed: fc.boolean(), Restarts: fc.integer({ min: 0, max: 2 }) });

/**
 * An allocation in one of `namespaces` (IDs and create indexes as deployments'). `TaskStates` lacks
 * some groups (`web`, `api`) or is null, `DeploymentStatus` is null or its `Healthy` unset in some.
 */
export function allocation(namespaces: readonly string[]): fc.Arbitrary<Item> {
  return fc.record({
    ID: uuid(ALLOCATION_SUFFIX),
    Namespace: fc.constantFrom(...namespaces),
    JobID: fc.constantFrom("web", "api", "db"),
    JobType: fc.constantFrom("service", "batch"),
    TaskGroup: fc.constantFrom("web", "api", "cache"),
    NodeName: fc.constantFrom("n1", "n2"),
    ClientStatus: fc.constantFrom("pending", "running", "complete", "failed"),
    DesiredStatus: fc.constantFrom("run", "stop"),
    TaskStates: fc.option(fc.record({ web: taskState, api: taskState }, { requiredKeys: [] }), { nil: null, freq: 6 }),
    DeploymentStatus: fc.option(fc.record({ Healthy: fc.option(fc.boolean(), { nil: null }), Canary: fc.boolean() }), { nil: null }),
    CreateIndex: fc.integer({ min: 100, max: 120 }),
    ModifyIndex: fc.integer({ min: 100, max: TOP_INDEX - 1 }),
  });
}

const allocMetric = fc.record({ NodesEvaluated: fc.integer({ min: 0, max: 3 }), NodesExhausted: fc.integer({ min: 0, max: 1 }), CoalescedFailures: fc.integer({ min: 0, max: 1 }) });

/** An evaluation in one of `namespaces` (IDs and create indexes as deployments'). `QueuedAllocations` and `FailedTGAllocs` lack some groups. */
export function evaluation(namespaces: readonly string[]): fc.Arbitrary<Item> {
  return fc.record({
    ID: uuid(EVALUATION_SUFFIX),
    Namespace: fc.constantFrom(...namespaces),
    JobID: fc.constantFrom("web", "api", "db"),
    Type: fc.constantFrom("service", "batch"),
    Status: fc.constantFrom("blocked", "pending", "complete", "failed", "canceled"),
    TriggeredBy: fc.constantFrom("job-register", "node-update", "alloc-failure", "deployment-watcher"),
    Priority: fc.constantFrom(10, 50, 70),
    QueuedAllocations: fc.record({ web: fc.integer({ min: 0, max: 2 }), api: fc.integer({ min: 0, max: 2 }) }, { requiredKeys: [] }),
    FailedTGAllocs: fc.option(fc.record({ web: allocMetric, api: allocMetric }, { requiredKeys: [] }), { nil: null }),
    CreateIndex: fc.integer({ min: 100, max: 120 }),
    ModifyIndex: fc.integer({ min: 100, max: TOP_INDEX - 1 }),
  });
}

/** A node (the same on both sides of a world). */
export function node(): fc.Arbitrary<Item> {
  return fc.record({
    ID: uuid(NODE_SUFFIX),
    Name: fc.constantFrom("n1", "n2", "n3"),
    Datacenter: fc.constantFrom("dc1", "dc2"),
    NodePool: fc.constantFrom("default", "gpu"),
    Status: fc.constantFrom("initializing", "ready", "down"),
    SchedulingEligibility: fc.constantFrom("eligible", "ineligible"),
    Drain: fc.boolean(),
    Attributes: fc.record({ "kernel.name": fc.constantFrom("linux", "darwin") }, { requiredKeys: [] }),
    CreateIndex: fc.integer({ min: 1, max: 50 }),
    ModifyIndex: fc.integer({ min: 50, max: TOP_INDEX }),
  });
}

/** How a hidden item differs between the sides. */
type Fate = "same" | "changed" | "left" | "right";
const fate = fc.constantFrom<Fate>("same", "changed", "left", "right");

/** Splits hidden items by fate: both sides, a changed copy on the right (`change` keeps its identity), one side only. */
function split(items: readonly [Item, Fate, Item][], change: (item: Item, other: Item) => Item): { left: Item[]; right: Item[] } {
  const left: Item[] = [];
  const right: Item[] = [];
  for (const [item, f, other] of items) {
    if (f !== "right") left.push(item);
    if (f === "same" || f === "left") continue;
    right.push(f === "changed" ? change(item, other) : item);
  }
  return { left, right };
}

const jobKey = (j: Item): string => `${j["Namespace"] as string}.${j["ID"] as string}`;

/**
 * A token that reads some of `visible` only, at least one (`job:read@ns` or `job:write@ns`), with
 * capabilities of no use to a namespaced list (`node:read` reads the nodes; a scoped `node:write` does not).
 */
function token(visible: readonly string[], hidden: readonly string[]): fc.Arbitrary<Omit<AclToken, "SecretID">> {
  const noise = ["node:read", "agent:read", "job:read@zz", ...hidden.map((h) => `deployment:read@${h}`), ...hidden.map((h) => `node:write@${h}`)];
  const scoped = fc.subarray([...visible], { minLength: 1 }).chain((names) => fc.tuple(...names.map((ns) => fc.constantFrom(`job:read@${ns}`, `job:write@${ns}`))));
  // Every namespace readable: only when nothing is hidden.
  const wide = hidden.length === 0 ? fc.subarray(["job:read", "job:read@*"], { maxLength: 1 }) : fc.constant([]);
  return fc
    .tuple(scoped, fc.subarray(noise, { maxLength: 2 }), wide, hidden.length === 0 ? fc.boolean() : fc.constant(false))
    .map(([caps, extra, all, management]) => ({ Capabilities: [...caps, ...extra, ...all], ...(management ? { Management: true } : {}) }));
}

/** A world (see the module's comment). */
export const worldArb: fc.Arbitrary<World> = fc
  .oneof(
    // Now and then nothing is hidden (tokens may then read every namespace): both sides are the same.
    { weight: 1, arbitrary: fc.constant<string[]>([]) },
    { weight: 15, arbitrary: fc.subarray([...NAMESPACES], { minLength: 1, maxLength: NAMESPACES.length - 1 }) },
  )
  .chain((hidden) => {
    const visible = NAMESPACES.filter((n) => !hidden.includes(n));
    // Hidden items: each with its fate and the content of its changed copy.
    const hiddenJobs: fc.Arbitrary<[Item, Fate, Item][]> =
      hidden.length === 0 ? fc.constant([]) : fc.uniqueArray(fc.tuple(job(hidden), fate, job(hidden)), { minLength: 2, maxLength: 20, size: "max", selector: ([j]) => jobKey(j) });
    const hiddenById = (item: (namespaces: readonly string[]) => fc.Arbitrary<Item>, maxLength: number): fc.Arbitrary<[Item, Fate, Item][]> =>
      hidden.length === 0 ? fc.constant([]) : fc.uniqueArray(fc.tuple(item(hidden), fate, item(hidden)), { minLength: 2, maxLength, size: "max", selector: ([d]) => d["ID"] });
    const sharedById = (item: (namespaces: readonly string[]) => fc.Arbitrary<Item>, minLength: number, maxLength: number): fc.Arbitrary<Item[]> =>
      fc.uniqueArray(item(visible), { minLength, maxLength, size: "max", selector: (d) => d["ID"] });
    return fc
      .record({
        sharedJobs: fc.uniqueArray(job(visible), { minLength: 6, maxLength: 30, size: "max", selector: jobKey }),
        sharedDeployments: sharedById(deployment, 4, 24),
        sharedAllocations: sharedById(allocation, 4, 24),
        sharedEvaluations: sharedById(evaluation, 4, 24),
        hiddenJobs,
        hiddenDeployments: hiddenById(deployment, 16),
        hiddenAllocations: hiddenById(allocation, 16),
        hiddenEvaluations: hiddenById(evaluation, 16),
        nodes: fc.uniqueArray(node(), { minLength: 1, maxLength: 6, selector: (n) => n["ID"] }),
        anchorNamespace: fc.constantFrom(...visible),
        tokens: fc.array(token(visible, hidden), { minLength: 3, maxLength: 5 }),
      })
      .map((w) => {
        const { sharedJobs, hiddenJobs, anchorNamespace } = w;
        const anchors = {
          job: { ID: "anchor", Name: "anchor", Namespace: anchorNamespace, Status: "running", CreateIndex: 1, ModifyIndex: TOP_INDEX, JobSummary: { ModifyIndex: TOP_INDEX, Summary: { web: { Running: 1 } } } },
          deployment: { ID: `ffffffff${SUFFIX}`, Namespace: anchorNamespace, JobID: "anchor", Status: "running", CreateIndex: 110, ModifyIndex: TOP_INDEX },
          allocation: { ID: `ffffffff${ALLOCATION_SUFFIX}`, Namespace: anchorNamespace, JobID: "anchor", TaskGroup: "web", ClientStatus: "running", DesiredStatus: "run", CreateIndex: 110, ModifyIndex: TOP_INDEX },
          evaluation: { ID: `ffffffff${EVALUATION_SUFFIX}`, Namespace: anchorNamespace, JobID: "anchor", Status: "complete", TriggeredBy: "job-register", CreateIndex: 110, ModifyIndex: TOP_INDEX },
        };
        const jobs = split(hiddenJobs, (j, other) => ({ ...other, Namespace: j["Namespace"], ID: j["ID"], JobSummary: { ...(other["JobSummary"] as Item), JobID: j["ID"], Namespace: j["Namespace"] } }));
        /** Hidden items of a list with IDs unique in its table (none a shared item's), split by fate; a changed copy keeps its ID. */
        const byId = (shared: Item[], hiddenItems: [Item, Fate, Item][]) => {
          const sharedIds = new Set(shared.map((d) => d["ID"]));
          return split(
            hiddenItems.filter(([d]) => !sharedIds.has(d["ID"])),
            (d, other) => ({ ...other, ID: d["ID"] }),
          );
        };
        const deployments = byId(w.sharedDeployments, w.hiddenDeployments);
        const allocations = byId(w.sharedAllocations, w.hiddenAllocations);
        const evaluations = byId(w.sharedEvaluations, w.hiddenEvaluations);
        const side = (s: "left" | "right"): WorldData => ({
          jobs: [anchors.job, ...sharedJobs, ...jobs[s]],
          deployments: [anchors.deployment, ...w.sharedDeployments, ...deployments[s]],
          allocations: [anchors.allocation, ...w.sharedAllocations, ...allocations[s]],
          evaluations: [anchors.evaluation, ...w.sharedEvaluations, ...evaluations[s]],
          nodes: w.nodes,
        });
        return {
          hidden,
          left: side("left"),
          right: side("right"),
          tokens: w.tokens.map((t, i) => ({ SecretID: `t${i}`, ...t })),
        };
      });
  });

/** The namespaces a token may list jobs in, as the server reads its capabilities; null: every one. */
export function readableBy(token: AclToken | undefined): string[] | null {
  if (token === undefined) return [];
  if (token.Management === true) return null;
  const names: string[] = [];
  for (const cap of token.Capabilities) {
    const m = /^job:(?:read|write)(?:@(.*))?$/.exec(cap);
    if (m === null) continue;
    if (m[1] === undefined || m[1] === "*") return null;
    names.push(m[1]);
  }
  return names;
}

/** Filter atoms over a job: some fail on the items that lack a summary group or hold another type. */
export const JOB_ATOMS = [
  'Status == "running"',
  'Status != "dead"',
  '"dc1" in Datacenters',
  "Datacenters is empty",
  "Priority == 50",
  'Name matches "^secret-a"',
  'Name matches "^web-[0-9]$"',
  'Name contains "1"',
  "ParentID is empty",
  'Namespace == "dev"',
  'ID matches "\\\\."',
  "JobSummary.Summary.web.Running == 1",
  '"zz" in JobSummary.Summary',
  'JobSummary.Summary["zz"].Running == 1',
  'Multiregion.Strategy.x matches "^a"',
  'any Multiregion.Regions as r { r.Meta.x == "east" }',
  "any JobSummary.Summary as tg, s { s.Running == 1 }",
  'Namespace == "dev" and Name matches "^secret-a" and JobSummary.Summary["zz"].Running == 1',
];

/** Filter atoms over a deployment: `TaskGroups.web` is missing from some. */
export const DEPLOYMENT_ATOMS = [
  'Status == "running"',
  'JobID == "web"',
  "TaskGroups.web.DesiredTotal == 2",
  '"web" in TaskGroups',
  'Namespace == "dev"',
  'ID contains "ab"',
  'ID matches "^[0a]"',
  "CreateIndex == 110",
  "any TaskGroups as name, tg { tg.DesiredTotal == 2 }",
  "all TaskGroups as _, tg { tg.Promoted == false }",
];

/** Filter atoms over an allocation: `TaskStates.web` and `.api` are missing from some, `DeploymentStatus` is nil in some. */
export const ALLOCATION_ATOMS = [
  'ClientStatus == "running"',
  'DesiredStatus != "stop"',
  'JobID == "web"',
  'TaskGroup == "api"',
  'Namespace == "dev"',
  'ID contains "ab"',
  'ID matches "^[0a]"',
  "CreateIndex == 110",
  'TaskStates.web.State == "running"',
  '"api" in TaskStates',
  'TaskStates["api"].Failed == true',
  "TaskStates is empty",
  "DeploymentStatus.Canary == true",
  "any TaskStates as name, ts { ts.Restarts == 1 }",
  'all TaskStates as _, ts { ts.State != "dead" }',
  'Namespace == "dev" and TaskGroup == "web" and TaskStates.web.Failed == false',
];

/** Filter atoms over an evaluation: `FailedTGAllocs.web` and `.api` are missing from some; `QueuedAllocations.api is empty` fails on those that have the key. */
export const EVALUATION_ATOMS = [
  'Status == "blocked"',
  'Status != "complete"',
  'JobID == "api"',
  'TriggeredBy == "node-update"',
  "Priority == 50",
  'Namespace == "dev"',
  'ID contains "0a"',
  'ID matches "^[bc]"',
  "CreateIndex == 110",
  "QueuedAllocations.web == 1",
  '"api" in QueuedAllocations',
  "QueuedAllocations.api is empty",
  "FailedTGAllocs is empty",
  "FailedTGAllocs.web.NodesEvaluated == 2",
  'FailedTGAllocs["api"].CoalescedFailures == 1',
  "any QueuedAllocations as tg, n { n == 0 }",
  "all FailedTGAllocs as _, m { m.CoalescedFailures == 0 }",
];

/** Ways to wrap an expression in a collection (nested `any` when wrapped twice). */
const JOB_WRAPS = [(e: string) => `any Datacenters as d { (d == "dc1") and (${e}) }`, (e: string) => `any JobSummary.Summary as tg, s { (s.Queued == 1) and (${e}) }`];
const DEPLOYMENT_WRAPS = [(e: string) => `any TaskGroups as name, tg { (tg.Promoted == true) and (${e}) }`];
const ALLOCATION_WRAPS = [(e: string) => `any TaskStates as name, ts { (ts.Failed == false) and (${e}) }`];
const EVALUATION_WRAPS = [(e: string) => `any QueuedAllocations as tg, n { (n == 1) and (${e}) }`, (e: string) => `any FailedTGAllocs as tg, m { (m.NodesExhausted == 0) and (${e}) }`];

/** Random filters of each list. */
const FILTERS: Record<ListPath, fc.Arbitrary<string>> = {
  "/v1/jobs": filterOf(JOB_ATOMS, JOB_WRAPS),
  "/v1/deployments": filterOf(DEPLOYMENT_ATOMS, DEPLOYMENT_WRAPS),
  "/v1/allocations": filterOf(ALLOCATION_ATOMS, ALLOCATION_WRAPS),
  "/v1/evaluations": filterOf(EVALUATION_ATOMS, EVALUATION_WRAPS),
};

/** Next tokens of both sides' data, and made-up ones. */
function nextTokens(world: World, path: ListPath): string[] {
  const items = [world.left, world.right].flatMap((s) => itemsAt(s, path));
  if (path === "/v1/jobs") {
    const real = items.map(jobKey);
    return [...new Set(real), "a.", "a-b.web", "a.b.x", "dev.secret-", "dev.", "zzz", "a", "default.zz", "~%", "é"];
  }
  // By create index and ID; the ID alone is the token of a request with a prefix (by ID).
  const real = items.flatMap((d) => [`${d["CreateIndex"] as number}.${d["ID"] as string}`, d["ID"] as string]);
  return [...new Set(real), "110", "-3.x", "110.", "+110.0", "abc", "99999999999999999999999.x", "110.b", "0.0"];
}

/** Prefixes of IDs of both sides, and others (odd or not hex ones for the UUID lists: a 400 on both). */
function prefixes(world: World, path: ListPath): string[] {
  if (path === "/v1/jobs") return ["w", "web", "web-", "web.", "b.", "s", "secret-", "secret-a", "secret-k", "a", "an", "d", "api", "x"];
  const ids = [world.left, world.right].flatMap((s) => itemsAt(s, path).map((d) => d["ID"] as string));
  return [...new Set(ids.flatMap((id) => [id.slice(0, 2), id.slice(0, 4)])), "ab", "0", "c3d", "1-", "ffff", "zz"];
}

/** What a request selects by: a filter, a prefix, evaluations' field parameters (`job`, `status`), or nothing. */
interface Selection {
  filter?: string;
  prefix?: string;
  fields?: [string, string][];
}

/** Evaluations' `job` and `status` (one, or both), values that some items have and some none has. */
const evaluationFields: fc.Arbitrary<[string, string][]> = fc
  .record({ job: fc.constantFrom("web", "api", "db", "zz"), status: fc.constantFrom("blocked", "pending", "complete", "failed", "bogus") }, { requiredKeys: [] })
  .filter((f) => Object.keys(f).length > 0)
  .map((f) => Object.entries(f));

/** The selection of a request to `path`: mostly a filter; evaluations' field parameters alone, with a prefix, or with a filter (a 400). */
function selectionArb(world: World, path: ListPath): fc.Arbitrary<Selection> {
  const choices: fc.WeightedArbitrary<Selection>[] = [
    { weight: 6, arbitrary: FILTERS[path].map((filter) => ({ filter })) },
    { weight: 2, arbitrary: fc.constantFrom(...prefixes(world, path)).map((prefix) => ({ prefix })) },
    { weight: 2, arbitrary: fc.constant({}) },
  ];
  if (path === "/v1/evaluations") {
    choices.push(
      { weight: 3, arbitrary: evaluationFields.map((fields) => ({ fields })) },
      { weight: 1, arbitrary: fc.tuple(evaluationFields, fc.constantFrom(...prefixes(world, path))).map(([fields, prefix]) => ({ fields, prefix })) },
      { weight: 1, arbitrary: fc.tuple(evaluationFields, FILTERS[path]).map(([fields, filter]) => ({ fields, filter })) },
    );
  }
  return fc.oneof(...choices);
}

/** One list request over `world`, mostly with a token of the world and a namespace it may read; to one of `paths`. */
export function listCaseArb(world: World, paths: readonly ListPath[] = LIST_PATHS): fc.Arbitrary<ListCase> {
  const secrets = world.tokens.map((t) => t.SecretID);
  return fc
    .record({
      path: fc.constantFrom(...paths),
      token: fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...secrets) }, { weight: 1, arbitrary: fc.constantFrom(undefined, "unknown") }),
    })
    .chain(({ path, token }) => {
      const readable = readableBy(world.tokens.find((t) => t.SecretID === token)) ?? [...NAMESPACES];
      const namespace = fc.oneof(
        { weight: 6, arbitrary: fc.constant("*") },
        { weight: 4, arbitrary: readable.length === 0 ? fc.constant("*") : fc.constantFrom(...readable) },
        { weight: 1, arbitrary: fc.constantFrom<string | undefined>(undefined, ...NAMESPACES, "zz") },
      );
      return fc.record({
        path: fc.constant(path),
        token: fc.constant(token),
        namespace,
        selection: selectionArb(world, path),
        next: fc.option(fc.constantFrom(...nextTokens(world, path)), { freq: 2 }),
        perPage: fc.constantFrom(0, 1, 1, 2, 3, 5, 50),
        reverse: fc.boolean(),
        pretty: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      });
    })
    .map(({ path, token, namespace, selection, next, perPage, reverse, pretty }) => {
      const query: [string, string][] = [];
      if (namespace !== undefined) query.push(["namespace", namespace]);
      if (selection.filter !== undefined) query.push(["filter", selection.filter]);
      if (selection.prefix !== undefined) query.push(["prefix", selection.prefix]);
      query.push(...(selection.fields ?? []));
      if (next !== null) query.push(["next_token", next]);
      query.push(["per_page", String(perPage)]);
      if (reverse) query.push(["reverse", "true"]);
      if (pretty) query.push(["pretty", "1"]);
      return { path, token, query };
    });
}
