/**
 * The whole loop for a paginated list kept in a database: candidate rows come from SQL in the
 * caller's key order, in keyset chunks (never `LIMIT per_page` past a residual filter), and the
 * compiled filter decides on each, so the page, the next token and the first error are those of a
 * full scan (`server`'s paginator): items whose key sorts before the token are skipped, the first
 * `perPage` matches form the page, the key of the next match is the next token.
 */
import { parseJson } from "../json.js";
import { quoteIdent } from "./dialects.js";
import { toSQL, type SqlDialect, type ToSqlOptions } from "./translate.js";
import type { Expr } from "../syntax/ast.js";
import type { Schema } from "../semantics/schema.js";

/** Runs parameterised SQL and resolves to its rows as objects (pg, PGlite, sql.js, better-sqlite3 …). */
export type QueryFunction = (sql: string, params: unknown[]) => Promise<readonly Record<string, unknown>[]>;

/** A compiled filter, as `compile` returns it. */
export interface PageFilter<T> {
  readonly ast: Expr;
  readonly schema: Schema | undefined;
  evaluate(datum: T): boolean;
}

/** Options of `filterPage`. */
export interface FilterPageOptions<T> {
  /** Runs one statement. */
  query: QueryFunction;
  filter: PageFilter<T>;
  dialect: SqlDialect;
  /** The table (a trusted identifier). */
  table: string;
  /** The JSON column (NOT NULL). Default `doc`. */
  column?: string;
  /**
   * The column the items are read from (JSON text, decoded with `parseJson` and re-checked), when it is
   * not the JSON column the condition reads: e.g. the document exactly as it was written, beside its
   * `jsonb` copy. Default: the JSON column.
   */
  read?: string;
  /**
   * How a row's JSON text becomes an item. Default `parseJson` (integers beyond ±2^53 as `bigint`).
   * A server whose other store holds its documents as `JSON.parse` reads them passes `JSON.parse`, so
   * both stores give the filter the same values.
   */
  decode?: (text: string) => unknown;
  /** The unique text key the list is ordered by, bytewise (`COLLATE "C"` on PostgreSQL). Default `id`. */
  key?: string;
  /** Start at the first item whose key is ≥ this (≤ in reverse); "" or absent: from the start. */
  nextToken?: string;
  /** Items per page; 0: all. */
  perPage: number;
  /** Descending key order. */
  reverse?: boolean;
  /** Rows fetched by the first query of a residual filter (it doubles on each further query). Default perPage + 1. */
  chunkSize?: number;
  /** Rows fetched by one query at most (what one statement's rows hold in memory at once). Default 10,000. */
  maxChunkSize?: number;
  /**
   * Rows of the key order one statement may pass over at most: each statement's keys end where this
   * many rows on ends (found first by a scan of the key's index, `OFFSET rangeRows - 1`), so that a
   * condition no index serves, which the engine checks row by row along the key order, costs each
   * statement at most that many rows, however few match. Default: no range (one statement reads as
   * far as it must to fill its chunk).
   */
  rangeRows?: number;
  /**
   * An extra condition of the caller's (a namespace, a key prefix), ANDed to the filter's: `p(value)`
   * binds a value and returns its placeholder.
   */
  scope?: (p: (value: unknown) => string) => string;
  /** Passed to `toSQL` (SQLite's function name, `unknownValue`, PostgreSQL's `canonicalNumbers` and `textIndexed`). */
  sql?: Pick<ToSqlOptions, "sqliteFunction" | "unknownValue" | "canonicalNumbers" | "textIndexed">;
  /**
   * Asked before each row is re-checked: when it returns a promise, the page waits for it first. A
   * server yields to its event loop this way between slices of a long re-check, and stops the page by
   * rejecting (its client left).
   */
  pause?: () => Promise<void> | undefined;
}

/** A page of results. */
export interface FilterPage<T> {
  readonly items: T[];
  /** Their keys. */
  readonly keys: string[];
  /** The key of the first match after the page; "" on the last page. */
  readonly nextToken: string;
  /** Rows the database returned (the candidates the filter re-checked). */
  readonly candidates: number;
  /** Statements run. */
  readonly queries: number;
  /** Whether the SQL condition was exact (no re-check was needed). */
  readonly exact: boolean;
}

const MAX_CHUNK = 10_000;

/**
 * One page of the rows of `table` whose JSON matches the filter, as a full scan in key order would
 * give it. An evaluation error of the filter is thrown exactly where the full scan would throw it.
 */
export async function filterPage<T = unknown>(options: FilterPageOptions<T>): Promise<FilterPage<T>> {
  const { dialect, perPage } = options;
  const column = options.column ?? "doc";
  const key = quoteIdent(options.key ?? "id");
  const pg = dialect === "postgres";
  const t = toSQL({ ast: options.filter.ast, schema: options.filter.schema }, { dialect, column, ...options.sql });
  const want = perPage === 0 ? Infinity : perPage + 1;
  const ordered = pg ? `${key} COLLATE "C"` : key;
  const dir = options.reverse ? "DESC" : "ASC";
  const read = quoteIdent(options.read ?? column);
  const decode = options.decode ?? parseJson;
  // The key as a JSON string, which starts with `"`: sql.js and PGlite drop a leading U+FEFF from a text
  // result (`pg` keeps it).
  const selectKey = pg ? `SELECT to_json(${key})::text AS k` : `SELECT json_quote(${key}) AS k`;
  const select = `${selectKey}, ${read}${pg ? "::text" : ""} AS d`;
  const keyOf = (row: Record<string, unknown>): string => String(JSON.parse(String(row.k)));

  const items: T[] = [];
  const itemKeys: string[] = [];
  let nextToken = "";
  let candidates = 0;
  let queries = 0;
  let bound: { key: string; inclusive: boolean } | undefined = options.nextToken ? { key: options.nextToken, inclusive: true } : undefined;
  // A first chunk of a page and one row: enough when most candidates match.
  const maxChunk = Math.max(1, options.maxChunkSize ?? MAX_CHUNK);
  let chunk = t.exact ? want : Math.min(Math.max(options.chunkSize ?? (perPage === 0 ? 1000 : perPage + 1), 1), maxChunk);
  const rangeRows = options.rangeRows === undefined ? undefined : Math.max(1, Math.floor(options.rangeRows));
  /** Appends a bound value to `params` and returns its placeholder. */
  const binder =
    (params: unknown[]) =>
    (value: unknown): string => {
      params.push(value);
      return pg ? `$${params.length}` : "?";
    };
  /** The caller's scope and the keyset bound now (and the range's end), their values bound by `bind`. */
  const keysWhere = (bind: (value: unknown) => string, end?: string): string => {
    let out = "";
    if (options.scope) out += ` AND (${options.scope(bind)})`;
    if (bound) out += ` AND ${ordered} ${options.reverse ? (bound.inclusive ? "<=" : "<") : bound.inclusive ? ">=" : ">"} ${bind(bound.key)}`;
    if (end !== undefined) out += ` AND ${ordered} ${options.reverse ? ">=" : "<="} ${bind(end)}`;
    return out;
  };
  for (;;) {
    let end: string | undefined;
    if (rangeRows !== undefined) {
      // The key `rangeRows` rows on: read from the key's index alone, no condition of the filter's.
      const edge: unknown[] = [];
      const bindEdge = binder(edge);
      const at = keysWhere(bindEdge);
      const rows = await options.query(`${selectKey} FROM ${quoteIdent(options.table)} WHERE TRUE${at} ORDER BY ${ordered} ${dir} LIMIT 1 OFFSET ${bindEdge(rangeRows - 1)}`, edge);
      queries++;
      if (rows.length > 0) end = keyOf(rows[0]!);
    }
    const params = [...t.params];
    const bind = binder(params);
    const keys = keysWhere(bind, end);
    const limit = Number.isFinite(chunk) ? ` LIMIT ${bind(chunk)}` : "";
    const rows = await options.query(`${select} FROM ${quoteIdent(options.table)} WHERE (${t.where})${keys} ORDER BY ${ordered} ${dir}${limit}`, params);
    queries++;
    candidates += rows.length;
    for (const row of rows) {
      const paused = options.pause?.();
      if (paused !== undefined) await paused;
      const k = keyOf(row);
      const raw = row.d;
      const doc = (typeof raw === "string" ? decode(raw) : raw) as T;
      // Re-checked even when the translation is exact (cheap, and a budget still counts its steps).
      if (!options.filter.evaluate(doc)) continue;
      if (items.length + 1 === want) {
        nextToken = k;
        return { items, keys: itemKeys, nextToken, candidates, queries, exact: t.exact };
      }
      items.push(doc);
      itemKeys.push(k);
    }
    const full = Number.isFinite(chunk) && rows.length === chunk;
    if (full && !t.exact) bound = { key: keyOf(rows[rows.length - 1]!), inclusive: false };
    // An exact chunk holds the page and one row; a short one ends the range, or the keys.
    else if (end !== undefined && !(full && t.exact)) bound = { key: end, inclusive: false };
    else break;
    if (full) chunk = Math.min(chunk * 2, maxChunk);
  }
  return { items, keys: itemKeys, nextToken, candidates, queries, exact: t.exact };
}
