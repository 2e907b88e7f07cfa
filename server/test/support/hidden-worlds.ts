/**
 * Random "worlds" for the ACL non-interference test (acl-noninterference.test.ts): two data sets, left
 * and right, that differ only in the jobs and deployments of some namespaces (the hidden ones: extra,
 * missing and changed items, some that make filters fail, some that match), ACL tokens none of which
 * may read a hidden namespace, and random list requests over both (filters that fail on some items,
 * namespaces, prefixes, pages, next tokens of either side's data and made-up ones, reverse).
 *
 * X-Svc-Index is equal on both sides by construction. It is a table-wide index (the highest index that
 * touched the table), so any write in a hidden namespace moves it: that is inherent to the scheduler's
 * API and is not what the test is about. Every item therefore has CreateIndex, ModifyIndex and
 * JobSummary.ModifyIndex below `TOP_INDEX`, and one anchor job and one anchor deployment, the same on
 * both sides in a namespace that is not hidden, carry `TOP_INDEX` as their ModifyIndex: both tables
 * have the index `TOP_INDEX` on both sides whatever the hidden items hold.
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

type Item = Record<string, unknown>;

/** One side's data, as a `--data` file holds it. */
export interface WorldData {
  jobs: Item[];
  deployments: Item[];
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
  path: "/v1/jobs" | "/v1/deployments";
  token: string | undefined;
  query: [string, string][];
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
    ID: fc.string({ unit: fc.constantFrom("0", "a", "b", "c"), minLength: 8, maxLength: 8 }).map((hex) => `${hex}${SUFFIX}`),
    Namespace: fc.constantFrom(...namespaces),
    JobID: fc.constantFrom("web", "api", "db"),
    Status: fc.constantFrom("running", "successful", "cancelled", "failed"),
    CreateIndex: fc.integer({ min: 100, max: 120 }),
    ModifyIndex: fc.integer({ min: 100, max: TOP_INDEX - 1 }),
    TaskGroups: fc.record({ web: state, api: state }, { requiredKeys: [] }),
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

/** A token that reads some of `visible` only, at least one (`job:read@ns` or `job:write@ns`), with capabilities of no use to a list. */
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
    const hiddenDeployments: fc.Arbitrary<[Item, Fate, Item][]> =
      hidden.length === 0 ? fc.constant([]) : fc.uniqueArray(fc.tuple(deployment(hidden), fate, deployment(hidden)), { minLength: 2, maxLength: 16, size: "max", selector: ([d]) => d["ID"] });
    return fc
      .record({
        sharedJobs: fc.uniqueArray(job(visible), { minLength: 6, maxLength: 30, size: "max", selector: jobKey }),
        sharedDeployments: fc.uniqueArray(deployment(visible), { minLength: 4, maxLength: 24, size: "max", selector: (d) => d["ID"] }),
        hiddenJobs,
        hiddenDeployments,
        anchorNamespace: fc.constantFrom(...visible),
        tokens: fc.array(token(visible, hidden), { minLength: 3, maxLength: 5 }),
      })
      .map(({ sharedJobs, sharedDeployments, hiddenJobs, hiddenDeployments, anchorNamespace, tokens }) => {
        const anchors = {
          job: { ID: "anchor", Name: "anchor", Namespace: anchorNamespace, Status: "running", CreateIndex: 1, ModifyIndex: TOP_INDEX, JobSummary: { ModifyIndex: TOP_INDEX, Summary: { web: { Running: 1 } } } },
          deployment: { ID: `ffffffff${SUFFIX}`, Namespace: anchorNamespace, JobID: "anchor", Status: "running", CreateIndex: 110, ModifyIndex: TOP_INDEX },
        };
        const sharedIds = new Set(sharedDeployments.map((d) => d["ID"]));
        const jobs = split(hiddenJobs, (j, other) => ({ ...other, Namespace: j["Namespace"], ID: j["ID"], JobSummary: { ...(other["JobSummary"] as Item), JobID: j["ID"], Namespace: j["Namespace"] } }));
        const deployments = split(
          hiddenDeployments.filter(([d]) => !sharedIds.has(d["ID"])),
          (d, other) => ({ ...other, ID: d["ID"] }),
        );
        const side = (hiddenJobItems: Item[], hiddenDeploymentItems: Item[]): WorldData => ({
          jobs: [anchors.job, ...sharedJobs, ...hiddenJobItems],
          deployments: [anchors.deployment, ...sharedDeployments, ...hiddenDeploymentItems],
        });
        return {
          hidden,
          left: side(jobs.left, deployments.left),
          right: side(jobs.right, deployments.right),
          tokens: tokens.map((t, i) => ({ SecretID: `t${i}`, ...t })),
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

/** Ways to wrap an expression in a collection (nested `any` when wrapped twice). */
const JOB_WRAPS = [(e: string) => `any Datacenters as d { (d == "dc1") and (${e}) }`, (e: string) => `any JobSummary.Summary as tg, s { (s.Queued == 1) and (${e}) }`];
const DEPLOYMENT_WRAPS = [(e: string) => `any TaskGroups as name, tg { (tg.Promoted == true) and (${e}) }`];


const JOB_FILTER = filterOf(JOB_ATOMS, JOB_WRAPS);
const DEPLOYMENT_FILTER = filterOf(DEPLOYMENT_ATOMS, DEPLOYMENT_WRAPS);

/** Next tokens of both sides' data, and made-up ones. */
function nextTokens(world: World, path: ListCase["path"]): string[] {
  const sides = [world.left, world.right];
  if (path === "/v1/jobs") {
    const real = sides.flatMap((s) => s.jobs.map(jobKey));
    return [...new Set(real), "a.", "a-b.web", "a.b.x", "dev.secret-", "dev.", "zzz", "a", "default.zz", "~%", "é"];
  }
  const real = sides.flatMap((s) => s.deployments.flatMap((d) => [`${d["CreateIndex"] as number}.${d["ID"] as string}`, d["ID"] as string]));
  return [...new Set(real), "110", "-3.x", "110.", "+110.0", "abc", "99999999999999999999999.x", "110.b", "0.0"];
}

/** Prefixes of IDs of both sides, and others (odd or not hex ones for deployments: a 400 on both). */
function prefixes(world: World, path: ListCase["path"]): string[] {
  if (path === "/v1/jobs") return ["w", "web", "web-", "web.", "b.", "s", "secret-", "secret-a", "secret-k", "a", "an", "d", "api", "x"];
  const ids = [world.left, world.right].flatMap((s) => s.deployments.map((d) => d["ID"] as string));
  return [...new Set(ids.flatMap((id) => [id.slice(0, 2), id.slice(0, 4)])), "ab", "0", "c3d", "1-", "ffff", "zz"];
}

/** One list request over `world`, mostly with a token of the world and a namespace it may read. */
export function listCaseArb(world: World): fc.Arbitrary<ListCase> {
  const secrets = world.tokens.map((t) => t.SecretID);
  return fc
    .record({
      path: fc.constantFrom<ListCase["path"]>("/v1/jobs", "/v1/deployments"),
      token: fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...secrets) }, { weight: 1, arbitrary: fc.constantFrom(undefined, "unknown") }),
    })
    .chain(({ path, token }) => {
      const readable = readableBy(world.tokens.find((t) => t.SecretID === token)) ?? [...NAMESPACES];
      const namespace = fc.oneof(
        { weight: 6, arbitrary: fc.constant("*") },
        { weight: 4, arbitrary: readable.length === 0 ? fc.constant("*") : fc.constantFrom(...readable) },
        { weight: 1, arbitrary: fc.constantFrom<string | undefined>(undefined, ...NAMESPACES, "zz") },
      );
      const selection = fc.oneof(
        { weight: 6, arbitrary: (path === "/v1/jobs" ? JOB_FILTER : DEPLOYMENT_FILTER).map((filter) => ({ filter, prefix: undefined })) },
        { weight: 2, arbitrary: fc.constantFrom(...prefixes(world, path)).map((prefix) => ({ filter: undefined, prefix })) },
        { weight: 2, arbitrary: fc.constant({ filter: undefined, prefix: undefined }) },
      );
      return fc.record({
        path: fc.constant(path),
        token: fc.constant(token),
        namespace,
        selection,
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
      if (next !== null) query.push(["next_token", next]);
      query.push(["per_page", String(perPage)]);
      if (reverse) query.push(["reverse", "true"]);
      if (pretty) query.push(["pretty", "1"]);
      return { path, token, query };
    });
}
