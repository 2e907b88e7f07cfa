/**
 * `toSQL`: a filter as a NULL-free SQL condition over a JSON column that keeps every row the filter
 * may accept or fail on (docs/sql.md). SQL narrows, the compiled filter decides: the rows it selects
 * are re-checked in-process unless the translation is exact.
 */
import { compilePattern, type Pattern } from "../evaluate/regex.js";
import { COLLECTION_MISSING, literalValue, OPERATORS } from "../semantics/operators.js";
import { ANY, type Schema, type Type } from "../semantics/schema.js";
import type { CollectionExpr, Expr, MatchExpr } from "../syntax/ast.js";
import { parse } from "../syntax/parse.js";
import { postgres, sqlite, type Dialect } from "./dialects.js";
import { byAnswer, kindCases, reachedAs, Untranslatable, walkPath, type Walk } from "./path.js";
import { operate } from "./ops.js";
import { both, bounded, cases, constant, either, negate, UNKNOWN, type Triple } from "./predicates.js";
import { and, FALSE, not, render, TRUE } from "./sql.js";

/** The SQL engines `toSQL` writes for. */
export type SqlDialect = "postgres" | "sqlite";

/** The name under which `sqliteMatches` is expected to be registered (see `registerSqliteFunctions`). */
export const SQLITE_MATCHES_FUNCTION = "filter_expr_matches";

/** Options of `toSQL`. */
export interface ToSqlOptions {
  /** `postgres` (also PGlite; the column is `jsonb`) or `sqlite` (the column holds JSON text). */
  dialect: SqlDialect;
  /** The JSON column (a trusted identifier, quoted as one). Default `doc`. It must be NOT NULL. */
  column?: string;
  /** With an expression string: the record type of the data (as for `compile`). */
  schema?: Schema;
  /**
   * SQLite: the name of the registered RE2 function for `matches` (default `filter_expr_matches`), or
   * false when none is registered (`matches` then narrows by a literal prefix only, as on PostgreSQL).
   */
  sqliteFunction?: string | false;
  /**
   * The filter was compiled with `unknownValue`: a missing key then reads as that value. The
   * translation keeps every row (`TRUE`); the in-process re-check decides.
   */
  unknownValue?: unknown;
  /** PostgreSQL: bound values already in the statement; placeholders continue after them. Default 0. */
  paramOffset?: number;
}

/** The translation of a filter. */
export interface SqlTranslation {
  /** A NULL-free condition: it keeps every row on which the filter is true or fails. */
  readonly where: string;
  /** The values bound to its placeholders (`$1…` on PostgreSQL, `?` on SQLite), in order. */
  readonly params: unknown[];
  /** The selected rows are exactly those on which the filter is true (none fails): no re-check needed. */
  readonly exact: boolean;
  readonly dialect: SqlDialect;
}

/** What `toSQL` accepts: a compiled filter or an expression (parsed here). */
export type FilterSource = string | { readonly ast: Expr; readonly schema: Schema | undefined };

/** The dialect object for a translation. */
export function dialectFor(options: ToSqlOptions): Dialect {
  const column = options.column ?? "doc";
  if (options.dialect === "postgres") return postgres(column);
  if (options.dialect === "sqlite") {
    const fn = options.sqliteFunction ?? SQLITE_MATCHES_FUNCTION;
    if (fn !== false && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(fn)) throw new TypeError(`sqliteFunction must be a plain SQL name, not ${JSON.stringify(fn)}`);
    return sqlite(column, fn === false ? {} : { regexFunction: fn });
  }
  throw new TypeError(`dialect must be "postgres" or "sqlite", not ${JSON.stringify(options.dialect)}`);
}

/**
 * Translates a filter to a SQL condition over a JSON column. Nothing from the expression is spliced
 * into the SQL text: paths, strings and numbers are bound values. Throws `FilterSyntaxError` for an
 * expression string that does not parse.
 */
export function toSQL(filter: FilterSource, options: ToSqlOptions): SqlTranslation {
  const { ast, schema } = typeof filter === "string" ? { ast: parse(filter), schema: options.schema } : filter;
  const d = dialectFor(options);
  const t = "unknownValue" in options ? UNKNOWN : translateExpr(ast, schema ?? ANY, d);
  const params: unknown[] = new Array<unknown>(options.paramOffset ?? 0);
  const { sql } = render(t.u, d.placeholders, params);
  return { where: sql, params: params.slice(options.paramOffset ?? 0), exact: t.tight, dialect: d.name };
}

/**
 * All three predicates rendered (for tests and tools): `u` is `toSQL`'s `where`, `l` holds where the
 * filter is surely true without error, `e` where it may fail. Their values share one `params` list.
 */
export function toSQLPredicates(filter: FilterSource, options: ToSqlOptions): { u: string; l: string; e: string; params: unknown[]; exact: boolean } {
  const { ast, schema } = typeof filter === "string" ? { ast: parse(filter), schema: options.schema } : filter;
  const d = dialectFor(options);
  const t = "unknownValue" in options ? UNKNOWN : translateExpr(ast, schema ?? ANY, d);
  const params: unknown[] = [];
  const u = render(t.u, d.placeholders, params).sql;
  const l = render(t.l, d.placeholders, params).sql;
  const e = render(t.e, d.placeholders, params).sql;
  return { u, l, e, params, exact: t.tight };
}

/** The three predicates of an expression over data of type `root`. */
export function translateExpr(e: Expr, root: Type, d: Dialect): Triple {
  const patterns = new Map<string, Pattern>();
  const go = (x: Expr): Triple => {
    switch (x.kind) {
      case "not":
        return negate(go(x.operand));
      case "and":
        return bounded(x.operands.map(go).reduceRight((rest, a) => both(a, rest)));
      case "or":
        return bounded(x.operands.map(go).reduceRight((rest, a) => either(a, rest)));
      case "match":
        return bounded(match(x, root, d, patterns));
      case "collection":
        return bounded(collection(x, root, d));
    }
  };
  return go(e);
}

function walkSelector(x: MatchExpr | CollectionExpr, root: Type, d: Dialect): Walk | undefined {
  try {
    return walkPath(root, { base: "column", steps: [] }, x.selector.segments.map((s) => s.name), d);
  } catch (err) {
    if (err instanceof Untranslatable) return undefined;
    throw err;
  }
}

function match(x: MatchExpr, root: Type, d: Dialect, patterns: Map<string, Pattern>): Triple {
  const info = OPERATORS[x.op];
  const walk = walkSelector(x, root, d);
  if (walk === undefined) return UNKNOWN;
  const text = x.value?.text ?? "";
  const lit = literalValue(text);
  let pattern: Pattern | undefined;
  if (info.base === "matches") {
    pattern = patterns.get(text);
    if (!pattern) patterns.set(text, (pattern = compilePattern(text)));
  }
  const parts = [
    { when: walk.error, then: UNKNOWN },
    { when: walk.missing, then: constant(info.missing) },
  ];
  for (const v of walk.values) {
    const answers = byAnswer(kindCases(v.type, v.ref, d), (c) => {
      const base = operate(info.base, c, lit, pattern, d);
      return info.negated ? negate(base) : base;
    }, d);
    for (const a of answers) parts.push({ when: reachedAs(v, a), then: a.then });
  }
  return cases(parts);
}

/**
 * `any`/`all`: the body is not translated (it would need SQL over each element); what is known
 * without it: the walk's errors and fixed answers, non-collections fail, empty ones answer at once.
 */
function collection(x: CollectionExpr, root: Type, d: Dialect): Triple {
  const walk = walkSelector(x, root, d);
  if (walk === undefined) return UNKNOWN;
  const any = x.quantifier === "any";
  const parts = [
    { when: walk.error, then: UNKNOWN },
    { when: walk.missing, then: constant(COLLECTION_MISSING[x.quantifier]) },
  ];
  for (const v of walk.values) {
    const answers = byAnswer(kindCases(v.type, v.ref, d), (c): Triple | string => {
      if (c.kind !== "list" && c.kind !== "map") return UNKNOWN;
      if (c.zero) return constant(!any);
      return c.kind; // decided below, per collection kind
    }, d);
    for (const a of answers) {
      let then: Triple;
      if (typeof a.then !== "string") then = a.then;
      else {
        const ref = a.cases[0]!.ref;
        const empty = a.then === "list" ? d.isEmptyArray(ref) : d.isEmptyObject(ref);
        // Over a non-empty collection the body decides (and may fail).
        then = any ? { u: not(empty), l: FALSE, e: not(empty), tight: false } : { u: TRUE, l: empty, e: not(empty), tight: false };
      }
      parts.push({ when: reachedAs(v, a), then });
    }
  }
  return cases(parts);
}

