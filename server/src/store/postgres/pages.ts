/**
 * List pages read from PostgreSQL with the library's pushdown (`filterPage`): SQL narrows in key order,
 * the compiled filter decides on each candidate, so the page, the next token and the first error are
 * those of the embedded store's full scan. Without the pushdown (`ReadMode.pushdown` false: its
 * statement ran out of time) the same scans read every row in keyset chunks and the filter decides
 * each. Everything here runs inside one read-only snapshot.
 */
import { filterPage, type PageFilter } from "filter-expr";
import type { ListEndpoint } from "../../lists/endpoints.js";
import type { Table } from "../../lists/records.js";
import { planWalk, type Page, type Walk } from "../../lists/paginate.js";
import type { ListRead } from "../types.js";
import { holdable, seekBound, beforeBound, type Bound } from "./text-bounds.js";

/**
 * How the store translates an endpoint's filters: every document is written with `JSON.stringify`
 * (its numbers canonical), so number equality is jsonb containment too, which the GIN index serves;
 * the endpoint's text-indexed fields compare as text, which their btree indexes serve in list order.
 */
export function pushdownSql(endpoint: ListEndpoint<unknown>): { canonicalNumbers: true; textIndexed: readonly (readonly string[])[] } {
  return { canonicalNumbers: true, textIndexed: endpoint.textIndexed };
}

/** A scan of one table in key order. */
interface Scan {
  /** The endpoint's table (`ListEndpoint.table`). */
  table: Table;
  /** The bytewise-ordered, unique (within the scan) key column. */
  key: string;
  /** Conditions ANDed to the filter's (`p` binds a value). */
  scope: ((p: (value: unknown) => string) => string)[];
  /** Start at this key (inclusive); "" from the start. */
  from: string;
  reverse: boolean;
  /** The key of an item (the same value as the key column). */
  keyOf(item: unknown): string;
  /** Checked before each row read in this process: true yields to the event loop until `turn` resolves. */
  pause: () => boolean;
  /** The read's next turn of the loop (`ListRead.turn`): rejects once its clients have gone. */
  turn: () => Promise<void>;
}

/** The filter as the scan runs it: the request's budgeted check, then the ACL check. */
interface ScanFilter {
  filter: PageFilter<unknown>;
  /** How its translation is written (`pushdownSql`). */
  sql: ReturnType<typeof pushdownSql>;
  exact: boolean;
  /** Whether its translation narrows the rows in SQL; false: every row of the scan is read and evaluated. */
  pushdown: boolean;
  /** Pushed-down statements each pass over at most this many rows of the key order (undefined: no bound). */
  rangeRows: number | undefined;
}

/**
 * How a page is read: with the filter pushed into SQL (`exact`: its translation decides alone), or
 * not; `rangeRows`: each pushed-down statement passes over at most that many rows of the key order.
 */
export interface ReadMode {
  exact: boolean;
  pushdown: boolean;
  rangeRows?: number;
}

/**
 * Rows of the key order a ranged pushed-down statement passes over at most: a condition no index
 * serves is checked row by row along the key order, about 1 µs a row, so such a statement stays
 * within tens of milliseconds however few rows match.
 */
export const RANGE_ROWS = 20_000;

/** Thrown by a filter to stop at the first match. */
class FirstMatch {
  constructor(readonly item: unknown) {}
}

function scopeOf(scan: Scan): ((p: (value: unknown) => string) => string) | undefined {
  if (scan.scope.length === 0) return undefined;
  return (p) => scan.scope.map((s) => `(${s(p)})`).join(" AND ");
}

/**
 * Rows a statement reads at most (a keyset chunk, or `filterPage`'s): a chunk's rows are held together.
 * 10,000 (`filterPage`'s default) let ten scans of a million jobs hold the event loop up to half a
 * second in garbage collection; 2,000 keep `/health` under 100 ms (200,000 jobs: max 205 → 86 ms,
 * `bench/scan.ts`).
 */
const MAX_CHUNK = 2_000;

/**
 * Up to `n` items (0: all) from the scan's start that `keep` accepts (undefined: every row), and the key
 * of the next one: the rows in key order in keyset chunks, as `filterPage` reads them when the
 * translation is TRUE (a first chunk of a page and one row, 1,000 rows for a whole list, doubling up to
 * `MAX_CHUNK`), so that no statement reads more than a chunk; yielding to the event loop as `pause` says.
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
      if (scan.pause()) await scan.turn();
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
      query: run,
      // The rows carry the exact JSON text the list answers with (`body`), parsed as the embedded
      // store holds it (`JSON.parse`), not the jsonb rendering the condition reads. Each row is parsed
      // when `filterPage` re-checks it, between its pauses.
      read: "body",
      decode: (text: string) => JSON.parse(text) as unknown,
      filter: f.filter,
      dialect: "postgres" as const,
      table: scan.table,
      key: scan.key,
      nextToken: scan.from,
      perPage: n,
      reverse: scan.reverse,
      // The candidates' re-check runs in slices, in the read's turns of the loop, a chunk of rows at a time.
      pause: () => (scan.pause() ? scan.turn() : undefined),
      maxChunkSize: MAX_CHUNK,
      sql: f.sql,
      ...(f.rangeRows === undefined ? {} : { rangeRows: f.rangeRows }),
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
    await collect(run, scan, { ...f, filter: stop, exact: false }, 0);
    return undefined;
  } catch (e) {
    if (e instanceof FirstMatch) return { item: e.item, key: scan.keyOf(e.item) };
    throw e;
  }
}

/** The first row from the scan's start that `accept` takes and the filter matches (evaluating nothing past it). */
async function firstWhere(run: Run, scan: Scan, accept: (item: unknown) => boolean, f: ScanFilter | undefined): Promise<{ item: unknown; key: string } | undefined> {
  if (f === undefined) {
    const page = await keyset(run, scan, accept, 1);
    return page.items.length === 0 ? undefined : { item: page.items[0], key: page.keys[0]! };
  }
  return first(run, scan, { ...f, exact: false, filter: { ...f.filter, evaluate: (item) => accept(item) && f.filter.evaluate(item) } });
}

type Run = (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
type Condition = (p: (value: unknown) => string) => string;

/**
 * The filter as a scan runs it. ACL first (the default): the namespaces the token may read are always
 * part of the SQL, so the filter never sees another's items. In the scheduler's order the filter runs
 * on every item and the ACL check follows it, and the namespaces are pushed into SQL only where
 * nothing is evaluated outside them (no filter, or an exact translation).
 */
function scanFilter<T>(read: ListRead<T>, mode: ReadMode): ScanFilter | undefined {
  const { filter, matches, allowed } = read;
  if (filter === undefined || matches === undefined) return undefined;
  const check = read.order === "acl-first" || allowed === undefined ? matches : (item: T) => matches(item) && allowed(item);
  return {
    exact: mode.exact && mode.pushdown,
    pushdown: mode.pushdown,
    rangeRows: mode.pushdown ? mode.rangeRows : undefined,
    sql: pushdownSql(read.endpoint as ListEndpoint<unknown>),
    filter: { ast: filter.ast, schema: filter.schema, evaluate: (item) => check(item as T) },
  };
}

function aclScope<T>(read: ListRead<T>, f: ScanFilter | undefined): Condition[] {
  if (read.readable === null || (read.order === "nomad" && f !== undefined && !f.exact)) return [];
  // A name PostgreSQL cannot hold is no namespace's.
  const names = [...read.readable].filter(holdable);
  return [(p) => `"namespace" = ANY(${p(names)}::text[])`];
}

/**
 * The read with its filter's verdicts remembered by row (the endpoint's key is unique in its table):
 * when a page is read again in the same snapshot (its pushed-down statement ran out of time), a row
 * already decided is not evaluated again, so the request's budget pays for each row once, as on the
 * embedded store's scan.
 */
export function remembering<T>(read: ListRead<T>): ListRead<T> {
  const matches = read.matches;
  if (matches === undefined) return read;
  const seen = new Map<string, boolean>();
  const key = read.endpoint.order.key;
  return {
    ...read,
    matches: (item) => {
      const id = key(item);
      let verdict = seen.get(id);
      if (verdict === undefined) {
        verdict = matches(item);
        seen.set(id, verdict);
      }
      return verdict;
    },
  };
}

/** The condition of a bound on `column`: a lower bound (`lower`) or an upper one; none for "all". */
function keyCondition(column: string, bound: Exclude<Bound, "none">, lower: boolean): Condition[] {
  if (bound === "all") return [];
  const op = `${lower ? ">" : "<"}${bound.inclusive ? "=" : ""}`;
  return [(p) => `"${column}" ${op} ${p(bound.key)}`];
}

/**
 * A page of any list endpoint: the request's walk (`planWalk`, the endpoint's declaration) run by run,
 * each run a keyset scan of the order's key column within its partition and key range. `namespaces`
 * are the database's, in order (an order that runs by namespace reads them).
 */
export async function readWalk<T>(run: Run, read: ListRead<T>, mode: ReadMode, namespaces: readonly string[]): Promise<Page<T> & { walk: Walk<T> }> {
  const { endpoint, query } = read;
  const walk = planWalk(endpoint, query, () => namespaces);
  const { order, seek } = walk;
  const f = scanFilter(read, mode);
  const common: Condition[] = aclScope(read, f);
  const namespace = walk.namespace;
  // Request text reaches SQL only as text PostgreSQL holds (text-bounds.ts): a namespace it cannot
  // hold is no item's, a bound is rewritten as the one that selects the same keys.
  if (namespace !== undefined && !holdable(namespace)) return { items: [], nextToken: "", walk };
  if (namespace !== undefined) common.push((p) => `"namespace" = ${p(namespace)}`);
  const items: unknown[] = [];
  let found = seek === undefined;
  for (const [nextRun, r] of walk.runs.entries()) {
    const scope = [...common];
    const partition = r.partition;
    if (partition !== undefined && !holdable(partition)) continue;
    if (partition !== undefined) scope.push((p) => `"${order.partitionColumn}" = ${p(partition)}`);
    const lower = r.from === undefined ? "all" : seekBound(r.from, true);
    const upper = r.to === undefined ? "all" : beforeBound(r.to);
    if (lower === "none" || upper === "none") continue;
    scope.push(...keyCondition(order.column, lower, true), ...keyCondition(order.column, upper, false));
    let from = "";
    if (!found && seek !== undefined && "key" in seek) {
      // Keys at or past the target (at or before it, in reverse): an inclusive bound is the scan's
      // start ("" is none: the scan's start then, and in reverse the bound, is a condition).
      const bound = seekBound(seek.key, !walk.reverse);
      if (bound === "none") continue;
      if (bound !== "all" && bound.inclusive && bound.key !== "") from = bound.key;
      else scope.push(...keyCondition(order.column, bound, !walk.reverse));
    }
    const base = { table: endpoint.table, key: order.column, scope, reverse: walk.reverse, keyOf: (item: unknown) => order.key(item as T), pause: read.pause, turn: read.turn };
    if (!found && seek !== undefined && !("key" in seek)) {
      // Tokens do not sort as keys: the run starts at its first match whose token is at or past the
      // target (in list order); from there on every item counts.
      const past = (item: unknown): boolean => {
        const c = seek.compare(order.token(item as T));
        return walk.reverse ? c <= 0 : c >= 0;
      };
      const start = await firstWhere(run, { ...base, from: "" }, past, f);
      if (start === undefined) continue;
      from = start.key;
    }
    const scan = { ...base, from };
    if (query.perPage !== 0 && items.length === query.perPage) {
      const next = await first(run, scan, f);
      if (next !== undefined) return { items: items as T[], nextToken: order.tokenOfKey(next.key), nextRun, walk };
      continue;
    }
    const page = await collect(run, scan, f, query.perPage === 0 ? 0 : query.perPage - items.length);
    if (page.items.length > 0) found = true;
    items.push(...page.items);
    if (page.nextKey !== "") return { items: items as T[], nextToken: order.tokenOfKey(page.nextKey), nextRun, walk };
  }
  return { items: items as T[], nextToken: "", walk };
}
