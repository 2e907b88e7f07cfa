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

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * UTF-8 bytes as text, every byte kept (a leading U+FEFF too). SQLite writes an escaped lone surrogate
 * (`"\ud800"`) as that surrogate's three bytes, which are not UTF-8: each such sequence reads as one
 * U+FFFD, as `parseJson` (and Go's decoder) read the escape.
 */
function decode(bytes: Uint8Array): string {
  let out = "";
  let from = 0;
  for (let i = bytes.indexOf(0xed); i >= 0 && i + 2 < bytes.length; i = bytes.indexOf(0xed, i + 1)) {
    const b1 = bytes[i + 1]!;
    const b2 = bytes[i + 2]!;
    if (b1 >= 0xa0 && b1 <= 0xbf && b2 >= 0x80 && b2 <= 0xbf) {
      out += `${decoder.decode(bytes.subarray(from, i))}\ufffd`;
      from = i + 3;
      i += 2;
    }
  }
  return out + decoder.decode(bytes.subarray(from));
}

function text(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  // sql.js passes a blob as a Uint8Array, better-sqlite3 as a Buffer (a Uint8Array).
  if (v instanceof Uint8Array) return decode(v);
  return undefined;
}

/**
 * `filter_expr_matches(pattern, text)`: 1 when the RE2 pattern matches somewhere in the text, else 0
 * (also for a value that is neither text nor bytes, or an invalid pattern, which `toSQL` never sends:
 * those fail in-process). `toSQL` passes both as blobs (`CAST(… AS BLOB)`), the UTF-8 bytes, which no
 * driver decodes on the way: sql.js drops a leading U+FEFF from a text argument.
 */
export function sqliteMatches(patternArg: unknown, textArg: unknown): 0 | 1 {
  const pattern = text(patternArg);
  const value = text(textArg);
  if (pattern === undefined || value === undefined) return 0;
  let p = cache.get(pattern);
  if (p === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(pattern, (p = compilePattern(pattern)));
  }
  if (p.error !== undefined) return 0;
  return p.test(value) ? 1 : 0;
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
