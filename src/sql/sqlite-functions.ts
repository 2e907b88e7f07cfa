/**
 * The SQLite function behind an exact `matches`: RE2 (Go's `regexp`, through re2js, as the compiled
 * filter matches), registered by the caller under `filter_expr_matches`:
 *
 * ```ts
 * // sql.js
 * db.create_function("filter_expr_matches", sqliteMatches);
 * // better-sqlite3
 * db.function("filter_expr_matches", { deterministic: true }, sqliteMatches);
 * // either
 * registerSqliteFunctions(db);
 * ```
 */
import { compilePattern, type Pattern } from "../semantics/regex.js";
import { SQLITE_MATCHES_FUNCTION } from "./translate.js";

const cache = new Map<string, Pattern>();
const CACHE_LIMIT = 256;

/**
 * `filter_expr_matches(pattern, text)`: 1 when the RE2 pattern matches somewhere in the text, else 0
 * (also for a non-text value or an invalid pattern, which `toSQL` never sends: those fail in-process).
 */
export function sqliteMatches(pattern: unknown, text: unknown): 0 | 1 {
  if (typeof pattern !== "string" || typeof text !== "string") return 0;
  let p = cache.get(pattern);
  if (p === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(pattern, (p = compilePattern(pattern)));
  }
  if (p.error !== undefined) return 0;
  return p.test(text) ? 1 : 0;
}

/** A sql.js or better-sqlite3 database (the two ways of registering a scalar function). */
export type SqliteDatabase =
  | { create_function(name: string, fn: (...args: never[]) => unknown): unknown }
  | { function(name: string, options: { deterministic: boolean }, fn: (...args: never[]) => unknown): unknown };

/** Registers `filter_expr_matches` on a sql.js or better-sqlite3 database. */
export function registerSqliteFunctions(db: SqliteDatabase, name: string = SQLITE_MATCHES_FUNCTION): void {
  if ("create_function" in db) db.create_function(name, sqliteMatches as (...args: never[]) => unknown);
  else db.function(name, { deterministic: true }, sqliteMatches as (...args: never[]) => unknown);
}
