/**
 * The list endpoints, each declared once: its path, table and filter schema, which changes of a write
 * are its items', how an item names its namespace, the order it is listed and paged in, and what its
 * `prefix` parameter means. Both stores and the HTTP layer read these declarations (the tables too:
 * `perTable`, `listChange`); a new list endpoint is a declaration here, its record type, and its table
 * in each store.
 */
import { BadRequest } from "./errors.js";
import type { SchemaName } from "./filters.js";
import { byNamespaceAndId, createIndexAndIdOrder, idOrder, prefixEnd, type Indexed, type ListOrder } from "./orders.js";
import type { AllocationListStub, Change, Deployment, Evaluation, JobListEntry, NodeListStub, Snapshot, Table } from "./records.js";

/** What the `prefix` parameter selects: the items of an order whose keys lie in a range. */
export interface PrefixRule<T> {
  /** The order a request with a prefix is read in. */
  readonly order: ListOrder<T>;
  /** Throws `BadRequest` for a prefix the index refuses. */
  check(prefix: string): void;
  /** The keys of the items with this prefix, within a partition of the order: `from` up to `to` (excluded; undefined: no end). */
  keys(prefix: string, partition: string | undefined): { from: string; to: string | undefined };
}

export interface ListEndpoint<T> {
  /** The list's path under `/v1`. */
  readonly path: string;
  readonly table: Table;
  /**
   * The versions of this list's item that a write's change holds: the one it replaces (undefined:
   * created) and the one it writes; undefined when the change is to another list.
   */
  versionsOf(change: Change): readonly [T | undefined, T] | undefined;
  /** The schema its filters are compiled with. */
  readonly schema: SchemaName;
  /**
   * The item's namespace; undefined for a list without namespaces (nodes): its `namespace` parameter
   * is ignored, and a token reads all of it with `node:read` (the others: `job:read` in the namespace).
   */
  readonly namespaceOf: ((item: T) => string) | undefined;
  /**
   * Query parameters that keep the items whose field equals their value (evaluations' `job` and
   * `status`), by parameter: the field's path. Given, they are the filter they mean (`JobID == "…"`);
   * with `filter` too, a 400.
   */
  readonly fieldParameters?: Readonly<Record<string, readonly string[]>>;
  /** The order of a request without `prefix`. */
  readonly order: ListOrder<T>;
  readonly prefix: PrefixRule<T>;
  /**
   * Selector paths whose values repeat across items (statuses, types, flags): the embedded store
   * keeps a column of each (4 bytes an item), and filters on them are decided per distinct value.
   */
  readonly columns: readonly (readonly string[])[];
  /**
   * String fields whose equality pages are common (`Status == "pending"`): the PostgreSQL store keeps
   * a btree index on each one's text followed by the list's key (migrations 1 and 3), so that such a
   * page reads the index in list order; the store's translation compares them as text (`textIndexed`).
   */
  readonly textIndexed: readonly (readonly string[])[];
}

/** Keys that start with `start`: from it up to the first string past all of them. */
function startingWith(start: string): { from: string; to: string | undefined } {
  return { from: start, to: prefixEnd(start) };
}

/** `GET /v1/jobs`: by namespace and ID; `prefix` is an ID prefix (case-sensitive). */
export const jobsEndpoint: ListEndpoint<JobListEntry> = {
  path: "/jobs",
  table: "jobs",
  versionsOf: (change) => (change.kind === "job" ? [change.previous, change.record.entry] : undefined),
  schema: "job",
  namespaceOf: (job) => job.Namespace,
  order: byNamespaceAndId,
  prefix: {
    order: byNamespaceAndId,
    check: () => undefined,
    keys: (prefix, namespace) => startingWith(`${namespace ?? ""}.${prefix}`),
  },
  columns: [["Namespace"], ["Status"], ["Type"], ["Priority"], ["Datacenters"], ["Stop"], ["ParentID"], ["Periodic"], ["ParameterizedJob"]],
  textIndexed: [["Status"], ["Type"], ["Name"], ["Namespace"]],
};

/** The UUID index's rules for a partial ID: hex digits in pairs, at most 36 characters and 4 hyphens. */
export function checkUuidPrefix(prefix: string): void {
  const hex = prefix.replaceAll("-", "");
  if (prefix.length > 36 || prefix.length - hex.length > 4) throw new BadRequest("index error: Invalid UUID length");
  if (hex.length % 2 !== 0) throw new BadRequest("index error: Input (without hyphens) must be even length");
  const bad = /[^0-9a-fA-F]/.exec(hex);
  if (bad !== null) {
    const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    throw new BadRequest(`index error: Invalid UUID: encoding/hex: invalid byte: U+${code} '${bad[0]}'`);
  }
}

/** A list by create index and ID whose `prefix` reads the UUID index (a partial UUID, any case), as the scheduler's deployments, allocations and evaluations. */
function byCreateIndex<T extends Indexed>(): Pick<ListEndpoint<T>, "order" | "prefix"> {
  return { order: createIndexAndIdOrder<T>(), prefix: uuidPrefix(idOrder<T>()) };
}

/** `prefix` as a partial UUID in `order` (by ID). */
function uuidPrefix<T>(order: ListOrder<T>): PrefixRule<T> {
  return { order, check: checkUuidPrefix, keys: (prefix) => startingWith(prefix.toLowerCase()) };
}

/** `GET /v1/deployments`: by create index and ID; `prefix` reads the UUID index. */
export const deploymentsEndpoint: ListEndpoint<Deployment> = {
  path: "/deployments",
  table: "deployments",
  versionsOf: (change) => (change.kind === "deployment" ? [change.previous, change.deployment] : undefined),
  schema: "deployment",
  namespaceOf: (d) => d.Namespace,
  ...byCreateIndex<Deployment>(),
  columns: [["Namespace"], ["Status"], ["IsMultiregion"], ["JobVersion"]],
  textIndexed: [["Status"], ["JobID"]],
};

/**
 * `GET /v1/allocations`: the allocations' list stubs by create index and ID (`nomad/alloc_endpoint.go`);
 * `prefix` reads the UUID index. Filters see the stub (the scheduler's see the whole allocation).
 */
export const allocationsEndpoint: ListEndpoint<AllocationListStub> = {
  path: "/allocations",
  table: "allocations",
  versionsOf: (change) => (change.kind === "allocation" ? [change.previous, change.item] : undefined),
  schema: "allocation",
  namespaceOf: (a) => a.Namespace,
  ...byCreateIndex<AllocationListStub>(),
  columns: [["Namespace"], ["ClientStatus"], ["DesiredStatus"], ["TaskGroup"], ["JobType"], ["NodeName"]],
  textIndexed: [["ClientStatus"], ["JobID"], ["NodeID"]],
};

/**
 * `GET /v1/evaluations`: whole evaluations by create index and ID (`nomad/eval_endpoint.go`); `prefix`
 * reads the UUID index; `job` and `status` keep the evaluations of a job, or in a status.
 */
export const evaluationsEndpoint: ListEndpoint<Evaluation> = {
  path: "/evaluations",
  table: "evaluations",
  versionsOf: (change) => (change.kind === "evaluation" ? [change.previous, change.item] : undefined),
  schema: "evaluation",
  namespaceOf: (e) => e.Namespace,
  ...byCreateIndex<Evaluation>(),
  fieldParameters: { job: ["JobID"], status: ["Status"] },
  columns: [["Namespace"], ["Status"], ["TriggeredBy"], ["Type"], ["Priority"]],
  textIndexed: [["Status"], ["JobID"]],
};

/**
 * `GET /v1/nodes`: the nodes' list stubs by ID (`nomad/node_endpoint.go`: the UUID index, whose
 * `prefix` is a partial UUID); nodes have no namespace, a token reads them with `node:read`. Filters
 * see the stub (the scheduler's see the whole node).
 */
export const nodesEndpoint: ListEndpoint<NodeListStub> = {
  path: "/nodes",
  table: "nodes",
  versionsOf: (change) => (change.kind === "node" ? [change.previous, change.item] : undefined),
  schema: "node",
  namespaceOf: undefined,
  ...((order) => ({ order, prefix: uuidPrefix(order) }))(idOrder<NodeListStub>()),
  columns: [["Status"], ["Datacenter"], ["NodeClass"], ["NodePool"], ["Drain"], ["SchedulingEligibility"]],
  textIndexed: [["Status"], ["Name"]],
};

/** Every list endpoint. */
export const LIST_ENDPOINTS = [jobsEndpoint, deploymentsEndpoint, allocationsEndpoint, evaluationsEndpoint, nodesEndpoint] as const;

/** The list endpoint of a table. */
export function endpointOf(table: Table): ListEndpoint<unknown> {
  return (LIST_ENDPOINTS as readonly ListEndpoint<unknown>[]).find((e) => e.table === table)!;
}

/** A snapshot's items of a table (a job's list entry). */
export function itemsOf(snapshot: Snapshot, table: Table): readonly unknown[] {
  return table === "jobs" ? snapshot.jobs.map((r) => r.entry) : snapshot[table];
}

/** A value for each list's table, from `value(table)`. */
export function perTable<V>(value: (table: Table) => V): Record<Table, V> {
  return Object.fromEntries(LIST_ENDPOINTS.map(({ table }) => [table, value(table)])) as Record<Table, V>;
}

/** The table a write's change is to, and its item's versions (`ListEndpoint.versionsOf`). */
export function listChange(change: Change): { table: Table; before: unknown; after: unknown } {
  for (const endpoint of LIST_ENDPOINTS as readonly ListEndpoint<unknown>[]) {
    const versions = endpoint.versionsOf(change);
    if (versions !== undefined) return { table: endpoint.table, before: versions[0], after: versions[1] };
  }
  throw new Error(`a change to no declared list: ${change.kind}`);
}
