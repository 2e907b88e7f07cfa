/**
 * `toSQL`: a filter as a NULL-free SQL condition over a JSON column that keeps every row the filter
 * may accept or fail on (docs/sql.md). SQL narrows, the compiled filter decides: the rows it selects
 * are re-checked in-process unless the translation is exact.
 */
import { compilePattern, type Pattern } from "../semantics/regex.js";
import { COLLECTION_MISSING, literalValue, OPERATORS } from "../semantics/operators.js";
import { ANY, t, type Schema, type Type } from "../semantics/schema.js";
import { elementType } from "../semantics/select.js";
import { boundNames, placeholderClash } from "../evaluate/common.js";
import type { CollectionExpr, Expr, MatchExpr } from "../syntax/ast.js";
import { parse } from "../syntax/parse.js";
import { postgres, sqlite, type Dialect, type Ref } from "./dialects.js";
import { byAnswer, kindCases, reachedAs, Untranslatable, walkPath, type Walk } from "./path.js";
import { operate } from "./ops.js";
import { both, bounded, cases, constant, either, negate, UNKNOWN, type Triple } from "./predicates.js";
import { and, FALSE, not, or, render, TRUE, type Cond } from "./sql.js";

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

const POSTGRES_RESERVED = ["fe_k", "fe_v"];
const SQLITE_RESERVED = ["key", "value", "type", "atom", "id", "parent", "fullkey", "path", "json", "root"];

/** The dialect object for a translation. */
export function dialectFor(options: ToSqlOptions): Dialect {
  const column = options.column ?? "doc";
  // Inside the element searches these names are the searched rows' own columns.
  const taken = options.dialect === "sqlite" ? SQLITE_RESERVED : POSTGRES_RESERVED;
  if (taken.includes(column.toLowerCase())) throw new TypeError(`the JSON column cannot be named ${JSON.stringify(column)} for ${options.dialect}: rename it, or select it under another name`);
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
  const offset = options.paramOffset ?? 0;
  return shallow(
    () => {
      const t = "unknownValue" in options ? UNKNOWN : translateExpr(ast, schema ?? ANY, d);
      const params: unknown[] = new Array<unknown>(offset);
      const { sql } = render(t.u, d.placeholders, params);
      return { where: sql, params: params.slice(offset), exact: t.tight, dialect: d.name };
    },
    () => ({ where: "TRUE", params: [], exact: false, dialect: d.name }),
  );
}

/** Runs `f`; an expression nested too deeply for the stack translates to the fallback instead. */
function shallow<T>(f: () => T, fallback: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RangeError) return fallback();
    throw e;
  }
}

/**
 * All three predicates rendered (for tests and tools): `u` is `toSQL`'s `where`, `l` holds where the
 * filter is surely true without error, `e` where it may fail. Their values share one `params` list.
 */
export function toSQLPredicates(filter: FilterSource, options: ToSqlOptions): { u: string; l: string; e: string; params: unknown[]; exact: boolean } {
  const { ast, schema } = typeof filter === "string" ? { ast: parse(filter), schema: options.schema } : filter;
  const d = dialectFor(options);
  return shallow(
    () => {
      const t = "unknownValue" in options ? UNKNOWN : translateExpr(ast, schema ?? ANY, d);
      const params: unknown[] = [];
      const u = render(t.u, d.placeholders, params).sql;
      const l = render(t.l, d.placeholders, params).sql;
      const e = render(t.e, d.placeholders, params).sql;
      return { u, l, e, params, exact: t.tight };
    },
    () => ({ u: "TRUE", l: "FALSE", e: "TRUE", params: [], exact: false }),
  );
}

/** A name bound by an enclosing `any`/`all`: its type and SQL value (undefined: SQL cannot read it). */
interface Bound {
  readonly type: Type;
  readonly ref: Ref | undefined;
}
type Scope = ReadonlyMap<string, Bound>;

/** The three predicates of an expression over data of type `root`. */
export function translateExpr(e: Expr, root: Type, d: Dialect): Triple {
  const patterns = new Map<string, Pattern>();
  const go = (x: Expr, scope: Scope, depth: number): Triple => {
    switch (x.kind) {
      case "not": {
        // Runs of `not` (the reference accepts tens of thousands) fold without recursion.
        let inner: Expr = x.operand;
        let odd = true;
        while (inner.kind === "not") [inner, odd] = [inner.operand, !odd];
        const t = go(inner, scope, depth);
        return odd ? negate(t) : t;
      }
      case "and":
        return bounded(x.operands.map((o) => go(o, scope, depth)).reduceRight((rest, a) => both(a, rest)));
      case "or":
        return bounded(x.operands.map((o) => go(o, scope, depth)).reduceRight((rest, a) => either(a, rest)));
      case "match":
        return bounded(match(x, root, d, patterns, scope));
      case "collection":
        return bounded(collection(x, root, d, scope, depth, go));
    }
  };
  return go(e, new Map(), 1);
}

/** Walks a selector from the datum, or from a bound name when its first step is one (any form). */
function walkSelector(x: MatchExpr | CollectionExpr, root: Type, d: Dialect, scope: Scope): Walk | undefined {
  const keys = x.selector.segments.map((s) => s.name);
  try {
    const bound = keys.length > 0 ? scope.get(keys[0]!) : undefined;
    if (bound !== undefined) return bound.ref === undefined ? undefined : walkPath(bound.type, bound.ref, keys.slice(1), d, 1);
    return walkPath(root, { base: "column", steps: [] }, keys, d);
  } catch (err) {
    if (err instanceof Untranslatable) return undefined;
    throw err;
  }
}

function match(x: MatchExpr, root: Type, d: Dialect, patterns: Map<string, Pattern>, scope: Scope): Triple {
  const info = OPERATORS[x.op];
  const walk = walkSelector(x, root, d, scope);
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
 * `any`/`all`: the walk's errors and fixed answers; nil and non-collections answer at once; over a
 * list or map the body's predicates are searched over the members (`EXISTS` over
 * `jsonb_array_elements`/`jsonb_each`, `json_each`), where the engine can read the bound value:
 *   any: u = ∃ u_body,          l = ∃ l_body ∧ ¬∃ e_body,  e = ∃ e_body
 *   all: u = ¬∃ ¬u_body ∨ ∃ e_body,  l = ¬∃ ¬l_body,   e = ∃ e_body
 * A bound index or key is not read in SQL (a match on it is UNKNOWN). Otherwise only empty
 * collections are decided, and a non-empty one keeps the row.
 */
function collection(x: CollectionExpr, root: Type, d: Dialect, scope: Scope, depth: number, go: (e: Expr, scope: Scope, depth: number) => Triple): Triple {
  const walk = walkSelector(x, root, d, scope);
  if (walk === undefined) return UNKNOWN;
  const any = x.quantifier === "any";
  const clash = placeholderClash(x.binding, x.selector);
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
        const c = a.cases[0]!;
        const kind = a.then as "list" | "map";
        const searched = clash.both || clash.hidden ? undefined : members(x, c.type, c.ref, kind, d, scope, depth, go);
        if (searched) then = searched;
        else {
          const empty = kind === "list" ? d.isEmptyArray(c.ref) : d.isEmptyObject(c.ref);
          // Over a non-empty collection the body decides (and may fail).
          then = any ? { u: not(empty), l: FALSE, e: not(empty), tight: false } : { u: TRUE, l: empty, e: not(empty), tight: false };
        }
      }
      parts.push({ when: reachedAs(v, a), then });
    }
  }
  return cases(parts);
}

/** The body searched over the members of the collection at `ref`, or undefined. */
function members(
  x: CollectionExpr,
  type: Type,
  ref: Ref,
  kind: "list" | "map",
  d: Dialect,
  scope: Scope,
  depth: number,
  go: (e: Expr, scope: Scope, depth: number) => Triple,
): Triple | undefined {
  if (!d.someMember) return undefined;
  const alias = `c${depth}`;
  const element: Bound = { type: elementType(type), ref: { base: "element", alias } };
  const inner = new Map(scope);
  for (const n of boundNames(x.binding)) {
    const role = n.role === "default" ? (kind === "list" ? "value" : "index") : n.role;
    inner.set(n.name, role === "value" ? element : { type: kind === "list" ? t.int : t.string, ref: undefined });
  }
  const body = go(x.body, inner, depth + 1);
  const some = (pred: Cond) => d.someMember!(ref, kind, alias, pred);
  const [su, sl, se, snu, snl] = [some(body.u), some(body.l), some(body.e), some(not(body.u)), some(not(body.l))];
  if (su === undefined || sl === undefined || se === undefined || snu === undefined || snl === undefined) return undefined;
  // Exact when the body is and cannot fail (then every search above has the same shape).
  const tight = body.tight && se.k === "const" && !se.v;
  return x.quantifier === "any" ? { u: su, l: and(sl, not(se)), e: se, tight } : { u: or(not(snu), se), l: not(snl), e: se, tight };
}
