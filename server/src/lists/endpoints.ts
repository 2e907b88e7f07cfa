/**
 * The list endpoints, each declared once: its path, table and filter schema, which changes of a write
 * are its items', how an item names its namespace, the order it is listed and paged in, and what its
 * `prefix` parameter means. Both stores and the HTTP layer read these declarations (the tables too:
 * `perTable`, `listChange`); a new list endpoint is a declaration here, its record type, and its table
 * in each store.
 */
import { BadRequest } from "./errors.js";
import type { SchemaName } from "./filters.js";
import { byCreateIndexAndId, byId, byNamespaceAndId, prefixEnd, type ListOrder } from "./orders.js";
import type { Change, Deployment, JobListEntry, Table } from "./records.js";

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
  namespaceOf(item: T): string;
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

/** `GET /v1/deployments`: by create index and ID; `prefix` reads the UUID index (a partial UUID, any case). */
export const deploymentsEndpoint: ListEndpoint<Deployment> = {
  path: "/deployments",
  table: "deployments",
  versionsOf: (change) => (change.kind === "deployment" ? [change.previous, change.deployment] : undefined),
  schema: "deployment",
  namespaceOf: (d) => d.Namespace,
  order: byCreateIndexAndId,
  prefix: {
    order: byId,
    check: checkUuidPrefix,
    keys: (prefix) => startingWith(prefix.toLowerCase()),
  },
  columns: [["Namespace"], ["Status"], ["IsMultiregion"], ["JobVersion"]],
  textIndexed: [["Status"], ["JobID"]],
};

/** Every list endpoint. */
export const LIST_ENDPOINTS = [jobsEndpoint, deploymentsEndpoint] as const;

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
