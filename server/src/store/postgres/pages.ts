/**
 * List pages read from PostgreSQL with the library's pushdown (`filterPage`): SQL narrows in key order,
 * the compiled filter decides on each candidate, so the page, the next token and the first error are
 * those of the embedded store's full scan. Without the pushdown (`ReadMode.pushdown` false: its
 * statement ran out of time) the same scans read every row in keyset chunks and the filter decides
 * each. Everything here runs inside one read-only snapshot.
 */
import { filterPage, type PageFilter, type QueryFunction } from "filter-expr";
import type { ListRead } from "../types.js";
import type { Deployment, JobListEntry } from "../../scheduler/types.js";
import { checkUuidPrefix } from "../../scheduler/sources.js";
import type { Page } from "../../scheduler/paginate.js";

/** A scan of one table in key order. */
interface Scan {
  table: "jobs" | "deployments";
  /** The bytewise-ordered, unique (within the scan) key column. */
  key: string;
  /** Conditions ANDed to the filter's (`p` binds a value). */
  scope: ((p: (value: unknown) => string) => string)[];
  /** Start at this key (inclusive); "" from the start. */
  from: string;
  reverse: boolean;
  /** The key of an item (the same value as the key column). */
  keyOf(item: unknown): string;
  /** Checked before each row read in this process: true yields to the event loop. */
  pause: () => boolean;
}

/** The filter as the scan runs it: the request's budgeted check, then the ACL check. */
interface ScanFilter {
  filter: PageFilter<unknown>;
  exact: boolean;
  /** Whether its translation narrows the rows in SQL; false: every row of the scan is read and evaluated. */
  pushdown: boolean;
}

/** How a page is read: with the filter pushed into SQL (`exact`: its translation decides alone), or not. */
export interface ReadMode {
  exact: boolean;
  pushdown: boolean;
}

/** Thrown by a filter to stop at the first match. */
class FirstMatch {
  constructor(readonly item: unknown) {}
}

const BODY_SELECT = /^SELECT ("[a-z_]+")::text AS k, "doc"::text AS d FROM /;

/**
 * The query function `filterPage` runs: the same statement, but the rows carry the exact JSON text the
 * list answers with (`body`), parsed as the embedded store holds it, not the jsonb rendering.
 */
export function bodyQuery(run: (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>): QueryFunction {
  return async (sql, params) => {
    if (!BODY_SELECT.test(sql)) throw new Error(`unexpected statement shape from filterPage: ${sql.slice(0, 80)}`);
    const rows = await run(sql.replace(BODY_SELECT, 'SELECT $1::text AS k, "body" AS d FROM '), params);
    return rows.map((row) => ({ k: row["k"], d: JSON.parse(row["d"] as string) as unknown }));
  };
}

function scopeOf(scan: Scan): ((p: (value: unknown) => string) => string) | undefined {
  if (scan.scope.length === 0) return undefined;
  return (p) => scan.scope.map((s) => `(${s(p)})`).join(" AND ");
}

/** Rows a keyset chunk reads at most (`filterPage`'s bound). */
const MAX_CHUNK = 10_000;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Up to `n` items (0: all) from the scan's start that `keep` accepts (undefined: every row), and the key
 * of the next one: the rows in key order in keyset chunks, as `filterPage` reads them when the
 * translation is TRUE (a first chunk of a page and one row, 1,000 rows for a whole list, doubling up to
 * 10,000), so that no statement reads more than a chunk; yielding to the event loop as `pause` says.
 */
async function keyset(run: Run, scan: Scan, keep: ((item: unknown) => boolean) | undefined, n: number) {
  const want = n === 0 ? Infinity : n + 1;
  let chunk = n !== 0 ? n + 1 : keep === undefined ? MAX_CHUNK : 1000;
  let bound = scan.from === "" ? undefined : { key: scan.from, inclusive: true };
  const key = `"${scan.key}"`;
  const items: unknown[] = [];
  const keys: string[] = [];
  for (;;) {
    const params: unknown[] = [];
    const p = (value: unknown): string => {
      params.push(value);
      return `$${params.length}`;
    };
    const where = scan.scope.map((s) => `(${s(p)})`);
    if (bound !== undefined) where.push(`${key} ${scan.reverse ? "<" : ">"}${bound.inclusive ? "=" : ""} ${p(bound.key)}`);
    const rows = await run(
      `SELECT ${key}::text AS k, "body" AS d FROM "${scan.table}"${where.length > 0 ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY ${key} ${scan.reverse ? "DESC" : "ASC"} LIMIT ${p(chunk)}`,
      params,
    );
    for (const row of rows) {
      if (scan.pause()) await nextTurn();
      const item = JSON.parse(row["d"] as string) as unknown;
      if (keep !== undefined && !keep(item)) continue;
      if (items.length + 1 === want) return { items, keys, nextKey: row["k"] as string };
      items.push(item);
      keys.push(row["k"] as string);
    }
    if (rows.length < chunk) return { items, keys, nextKey: "" };
    bound = { key: rows[rows.length - 1]!["k"] as string, inclusive: false };
    chunk = Math.min(chunk * 2, MAX_CHUNK);
  }
}

/** Up to `n` matches (0: all) from the scan's start, and the key of the next one. */
async function collect(run: Run, scan: Scan, f: ScanFilter | undefined, n: number) {
  if (f !== undefined && f.pushdown) {
    const options = {
      query: bodyQuery(run),
      filter: f.filter,
      dialect: "postgres" as const,
      table: scan.table,
      key: scan.key,
      nextToken: scan.from,
      perPage: n,
      reverse: scan.reverse,
    };
    const scope = scopeOf(scan);
    const page = await filterPage(scope === undefined ? options : { ...options, scope });
    return { items: page.items, keys: page.keys, nextKey: page.nextToken };
  }
  return keyset(run, scan, f === undefined ? undefined : (item) => f.filter.evaluate(item), n);
}

/** The first match from the scan's start (evaluating nothing past it), or undefined. */
async function first(run: Run, scan: Scan, f: ScanFilter | undefined): Promise<{ item: unknown; key: string } | undefined> {
  if (f === undefined || (f.exact && f.pushdown)) {
    // No filter, or an exact one (SQL decides, nothing is evaluated): the first row is the first match.
    const page = await collect(run, scan, f, 1);
    return page.items.length === 0 ? undefined : { item: page.items[0], key: page.keys[0]! };
  }
  const stop: PageFilter<unknown> = {
    ast: f.filter.ast,
    schema: f.filter.schema,
    evaluate: (item) => {
      if (f.filter.evaluate(item)) throw new FirstMatch(item);
      return false;
    },
  };
  try {
    await collect(run, scan, { filter: stop, exact: false, pushdown: f.pushdown }, 0);
    return undefined;
  } catch (e) {
    if (e instanceof FirstMatch) return { item: e.item, key: scan.keyOf(e.item) };
    throw e;
  }
}

type Run = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

/** The smallest string above every string that starts with `prefix` (bytewise), or undefined. */
function prefixEnd(prefix: string): string | undefined {
  const chars = [...prefix];
  while (chars.length > 0) {
    const cp = chars.pop()!.codePointAt(0)!;
    if (cp < 0x10ffff) {
      const next = cp + 1 === 0xd800 ? 0xe000 : cp + 1;
      return chars.join("") + String.fromCodePoint(next);
    }
  }
  return undefined;
}

function idPrefix(prefix: string): ((p: (value: unknown) => string) => string)[] {
  if (prefix === "") return [];
  const end = prefixEnd(prefix);
  return [(p) => `"id" >= ${p(prefix)}${end === undefined ? "" : ` AND "id" < ${p(end)}`} AND starts_with("id", ${p(prefix)})`];
}

function scanFilter<T>(read: ListRead<T>, mode: ReadMode): ScanFilter | undefined {
  const { filter, matches, allowed } = read;
  if (filter === undefined || matches === undefined) return undefined;
  return {
    exact: mode.exact && mode.pushdown,
    pushdown: mode.pushdown,
    filter: {
      ast: filter.ast,
      schema: filter.schema,
      evaluate: (item) => matches(item as T) && (allowed === undefined || allowed(item as T)),
    },
  };
}

/**
 * ACL namespaces: pushed into SQL when nothing is evaluated outside them (no filter, or an exact one);
 * otherwise the filter runs on every item, as the full scan does, and the ACL check follows it.
 */
function aclScope<T>(read: ListRead<T>, f: ScanFilter | undefined): ((p: (value: unknown) => string) => string)[] {
  if (read.readable === null || (f !== undefined && !f.exact)) return [];
  const names = [...read.readable];
  return [(p) => `"namespace" = ANY(${p(names)}::text[])`];
}

/** A row's identity in its table: (namespace, ID) for a job, the ID for a deployment. */
function identity(table: "jobs" | "deployments", item: unknown): string {
  if (table === "deployments") return (item as Deployment).ID;
  const job = item as JobListEntry;
  return `${job.Namespace}\u0000${job.ID}`;
}

/**
 * The read with its filter's verdicts remembered by row: when a page is read again in the same
 * snapshot (its pushed-down statement ran out of time), a row already decided is not evaluated again,
 * so the request's budget pays for each row once, as on the embedded store's scan.
 */
export function remembering<T>(read: ListRead<T>): ListRead<T> {
  const matches = read.matches;
  if (matches === undefined) return read;
  const seen = new Map<string, boolean>();
  const table = read.endpoint.table;
  return {
    ...read,
    matches: (item) => {
      const id = identity(table, item);
      let verdict = seen.get(id);
      if (verdict === undefined) {
        verdict = matches(item);
        seen.set(id, verdict);
      }
      return verdict;
    },
  };
}

/** True when "Namespace.ID" tokens sort like (Namespace, ID) (the state's `jobTokensMonotonic`). */
function monotonic(namespaces: readonly string[]): boolean {
  return namespaces.every((a, i) => {
    const b = namespaces[i + 1];
    if (b === undefined || !b.startsWith(a)) return true;
    return (b[a.length] ?? "") > ".";
  });
}

const jobKey = (item: unknown): string => `${(item as JobListEntry).Namespace}.${(item as JobListEntry).ID}`;

/** GET /v1/jobs. */
export async function readJobs<T>(run: Run, read: ListRead<T>, mode: ReadMode, namespaces: readonly string[]): Promise<Page<T>> {
  const { query } = read;
  const f = scanFilter(read, mode);
  const acl = aclScope(read, f);
  const base = { table: "jobs" as const, key: "token", reverse: query.reverse, keyOf: jobKey, pause: read.pause };
  if (query.namespace !== "*") {
    const scope = [(p: (v: unknown) => string) => `"namespace" = ${p(query.namespace)}`, ...idPrefix(query.prefix)];
    const page = await collect(run, { ...base, scope, from: query.nextToken }, f, query.perPage);
    return { items: page.items as T[], nextToken: page.nextKey };
  }
  const names = [...namespaces];
  if (monotonic(names)) {
    const page = await collect(run, { ...base, scope: [...acl, ...idPrefix(query.prefix)], from: query.nextToken }, f, query.perPage);
    return { items: page.items as T[], nextToken: page.nextKey };
  }
  // Tokens do not sort like the list: namespace by namespace, as the full scan meets them; before the
  // page's start is found, each namespace skips the tokens below the target (its tokens sort like its IDs).
  const items: unknown[] = [];
  let found = query.nextToken === "";
  if (query.reverse) names.reverse();
  for (const namespace of names) {
    const scan = { ...base, scope: [(p: (v: unknown) => string) => `"namespace" = ${p(namespace)}`, ...acl, ...idPrefix(query.prefix)], from: found ? "" : query.nextToken };
    if (query.perPage !== 0 && items.length === query.perPage) {
      const next = await first(run, scan, f);
      if (next !== undefined) return { items: items as T[], nextToken: next.key };
      continue;
    }
    const page = await collect(run, scan, f, query.perPage === 0 ? 0 : query.perPage - items.length);
    if (page.items.length > 0) found = true;
    items.push(...page.items);
    if (page.nextKey !== "") return { items: items as T[], nextToken: page.nextKey };
  }
  return { items: items as T[], nextToken: "" };
}

const ordKey = (createIndex: bigint | number, id: string): string => `${String(createIndex).padStart(20, "0")}.${id}`;
const deploymentKey = (item: unknown): string => ordKey((item as Deployment).CreateIndex, (item as Deployment).ID);
/** "00000000000000000012.<id>" → "12.<id>" */
const ordToken = (key: string): string => {
  const dot = key.indexOf(".");
  return `${BigInt(key.slice(0, dot))}.${key.slice(dot + 1)}`;
};

/** GET /v1/deployments. */
export async function readDeployments<T>(run: Run, read: ListRead<T>, mode: ReadMode): Promise<Page<T>> {
  const { query } = read;
  const f = scanFilter(read, mode);
  const scope = aclScope(read, f);
  if (query.namespace !== "*") scope.push((p) => `"namespace" = ${p(query.namespace)}`);
  if (query.prefix !== "") {
    // The UUID index: IDs in lower-case order, the ID as token.
    checkUuidPrefix(query.prefix);
    const prefix = query.prefix.toLowerCase();
    scope.push((p) => `lower("id") LIKE ${p(`${prefix}%`)}`);
    const page = await collect(run, { table: "deployments", key: "id", scope, from: query.nextToken, reverse: query.reverse, keyOf: (d) => (d as Deployment).ID, pause: read.pause }, f, query.perPage);
    return { items: page.items as T[], nextToken: page.nextKey };
  }
  const base = { table: "deployments" as const, key: "ord", scope, reverse: query.reverse, keyOf: deploymentKey, pause: read.pause };
  const target = query.nextToken;
  const dot = target.indexOf(".");
  const left = dot < 0 ? "" : target.slice(0, dot);
  let from = "";
  if (target !== "" && dot >= 0 && /^[+-]?\d+$/.test(left)) {
    // "<CreateIndex>.<ID>": CreateIndex compared as an unsigned number (a negative one wraps), then the ID.
    const n = BigInt(left);
    from = ordKey(n < 0n ? 2n ** 64n + n : n, target.slice(dot + 1));
  } else if (target !== "") {
    // Any other token compares as a string with "CreateIndex.ID": the page starts at the first match
    // (in list order) whose token is at or past it; from there on every item counts.
    const op = query.reverse ? "<=" : ">=";
    const start = await first(run, { ...base, from: "", scope: [...scope, (p) => `(create_index::text || '.' || "id") COLLATE "C" ${op} ${p(target)}`] }, f);
    if (start === undefined) return { items: [], nextToken: "" };
    from = start.key;
  }
  const page = await collect(run, { ...base, from }, f, query.perPage);
  return { items: page.items as T[], nextToken: page.nextKey === "" ? "" : ordToken(page.nextKey) };
}
