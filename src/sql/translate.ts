/**
 * `toSQL`: a filter as a NULL-free SQL condition over a JSON column that keeps every row the filter
 * may accept or fail on (docs/sql.md). SQL narrows, the compiled filter decides: the rows it selects
 * are re-checked in-process unless the translation is exact.
 */
import { compilePattern, type Pattern } from "../semantics/regex.js";
import { COLLECTION_MISSING, OPERATORS } from "../semantics/operators.js";
import { literalValue } from "../semantics/values.js";
import { ANY, t, type Schema, type Type } from "../semantics/schema.js";
import { elementType, placeholderClash } from "../semantics/path.js";
import { boundNames } from "../syntax/reads.js";
import { notRun, type CollectionExpr, type Expr, type MatchExpr } from "../syntax/ast.js";
import { parse } from "../syntax/parse.js";
import { settingsOf } from "../evaluate/settings.js";
import { has, NEWEST_TARGET, resolveTarget, type Target } from "../releases.js";
import { postgres, sqlite, type Dialect, type Ref } from "./dialects.js";
import { byAnswer, kindCases, reachedAs, Untranslatable, walkPath, type KindCase, type Walk, type WalkValue } from "./path.js";
import { equalAny, operate } from "./ops.js";
import { cases, chain, constant, DEPTH_LIMIT, lazy, loose, negate, UNKNOWN, type Reader, type Triple } from "./predicates.js";
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
  /**
   * The release the filter answers as (`compile`'s `target`; a compiled filter carries its own). On
   * go-bexpr 0.1.11 a missing map key fails: the translation keeps every row, the re-check decides.
   */
  target?: string | Target;
  /**
   * PostgreSQL: every number in the column was written as `JSON.stringify` (or `stringifyJson`) writes
   * it, its shortest round-trip text, so that two numbers read as the same double exactly when their
   * texts are equal. Number equality then becomes jsonb containment, which a GIN index serves; without
   * it a number compares as `float8` (`1.0000000000000001` in the column equals the filter's `1`,
   * which containment would miss). Default false.
   */
  canonicalNumbers?: boolean;
  /**
   * PostgreSQL: key paths (`[["Status"], ["Meta", "team"]]`) with a btree index on the value's text,
   * `column #>> '{Status}'`, usually followed by the list's key so that it reads in key order. A string
   * equality on one is written as that text comparison (`(doc #>> $1::text[]) = $2`), which the index
   * serves in key order, instead of containment, which a GIN index serves without order: a page of a
   * filter that keeps 1 % of a million rows walks 1,300 index entries instead of 13,000 rows.
   */
  textIndexed?: readonly (readonly string[])[];
  /** PostgreSQL: bound values already in the statement; placeholders continue after them. Default 0. */
  paramOffset?: number;
  /**
   * How bound values are written, for where the condition goes:
   * - `numbered` (PostgreSQL's default): `$1`, `$2`…, an equal value's number used again, as `pg`,
   *   PGlite and postgres.js take them;
   * - `question` (SQLite's only form before): `?` for each value, in order, never shared, and no `?`
   *   operator on PostgreSQL (`jsonb_exists` instead): for knex's `whereRaw(where, params)`;
   * - `template`: the same, and `template` holds the condition as a tagged template's strings and
   *   values, for Kysely's and Drizzle's `sql(strings, ...values)`.
   */
  placeholders?: "numbered" | "question" | "template";
}

/** A condition as a tagged template's arguments: `strings` around `values` (one fewer). */
export interface SqlTemplate {
  readonly strings: TemplateStringsArray;
  readonly values: readonly unknown[];
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
  /** With `placeholders: "template"`: the condition as a tagged template's strings and values. */
  readonly template?: SqlTemplate;
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
  if (column.includes("\u0000")) throw new TypeError("the JSON column's name cannot hold a NUL character");
  const style = options.placeholders ?? "numbered";
  if (style !== "numbered" && style !== "question" && style !== "template") throw new TypeError(`placeholders must be "numbered", "question" or "template", not ${JSON.stringify(style)}`);
  if (options.dialect === "postgres") return postgres(column, style !== "numbered", options);
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
  const { ast, schema, keepAll } = sourceOf(filter, options);
  const d = dialectFor(options);
  const template = options.placeholders === "template";
  const offset = d.placeholders === "numbered" ? (options.paramOffset ?? 0) : 0;
  const translation = (where: string, params: unknown[], exact: boolean): SqlTranslation => {
    if (!template) return { where, params, exact, dialect: d.name };
    // Cut at the marks: the strings around the values.
    const strings = where.split("\u0000");
    return { where: strings.join("?"), params, exact, dialect: d.name, template: { strings: Object.assign(strings, { raw: [...strings] }), values: params } };
  };
  const everything = (): SqlTranslation => translation("TRUE", [], false);
  return shallow(() => {
    const t = keepAll ? UNKNOWN : translateExpr(ast, schema ?? ANY, d);
    const params: unknown[] = new Array<unknown>(offset);
    const { sql } = render(t.u, template ? "marked" : d.placeholders, params);
    // Within the engine's bound values, leaving room for the caller's (a scope, a keyset, a limit).
    if (params.length > d.maxParams - PARAMS_LEFT) return everything();
    return translation(sql, params.slice(offset), t.tight);
  }, everything);
}

/**
 * The filter's AST and schema, and whether its rules leave SQL nothing to narrow by: an unknown value
 * (a missing key reads as it), or a release where a missing map key fails (go-bexpr 0.1.11).
 */
function sourceOf(filter: FilterSource, options: ToSqlOptions): { ast: Expr; schema: Schema | undefined; keepAll: boolean } {
  const settings = typeof filter === "string" ? undefined : settingsOf(filter);
  const target = resolveTarget(options.target ?? settings?.target ?? NEWEST_TARGET);
  const keepAll = "unknownValue" in options || (settings !== undefined && "unknownValue" in settings.options) || !has(target, "missing-leaf-answer");
  return typeof filter === "string" ? { ast: parse(filter, { target }), schema: options.schema, keepAll } : { ast: filter.ast, schema: filter.schema, keepAll };
}

/** Bound values left to the caller's own conditions within the engine's limit. */
const PARAMS_LEFT = 1000;

/**
 * Runs `f`; should the stack still run out (translation is bounded in depth, rendering iterative, so
 * this is a last resort), the translation is the fallback, `TRUE`, which keeps every row.
 */
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
  const { ast, schema, keepAll } = sourceOf(filter, options);
  const d = dialectFor(options);
  return shallow(
    () => {
      const t = keepAll ? UNKNOWN : translateExpr(ast, schema ?? ANY, d);
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

/**
 * The three predicates of an expression over data of type `root`. Nesting of `and`, `or` and
 * collections deeper than the SQL may nest (`DEPTH_LIMIT`) is unknown there (the recursion stays
 * shallow whatever the input); runs of `not` fold without recursion, and so do `and` in `and` and
 * `or` in `or` (parentheses). A run of `S == v1 or S == v2 …` on one selector is translated as one
 * membership test (as is `S != v1 and S != v2 …`).
 */
export function translateExpr(e: Expr, root: Type, d: Dialect): Triple {
  const cx: Context = { root, d, patterns: new Map(), walks: new WeakMap(), kinds: new WeakMap(), work: 0 };
  const go = (x: Expr, scope: Scope, level: number, searches: number): Triple => {
    // Past the bounds the node is unknown there (sound): too deep for the SQL, or past the work
    // budget (collection bodies are translated once per kind of collection, so nesting multiplies).
    if (level > DEPTH_LIMIT || ++cx.work > WORK_LIMIT) return UNKNOWN;
    switch (x.kind) {
      case "not": {
        const { operand, negated } = notRun(x);
        const t = go(operand, scope, level, searches);
        return negated ? negate(t) : t;
      }
      case "and":
      case "or": {
        const operands = flatten(x);
        const ts: (() => Triple)[] = [];
        const op = x.kind === "or" ? "==" : "!=";
        for (let i = 0; i < operands.length; ) {
          const o = operands[i]!;
          let j = i + 1;
          if (o.kind === "match" && o.op === op && o.value !== undefined) {
            const key = selectorKey(o);
            for (; j < operands.length; j++) {
              const n = operands[j]!;
              if (n.kind !== "match" || n.op !== op || n.value === undefined || selectorKey(n) !== key) break;
            }
          }
          // Translated when a predicate reaches it (a chain past the bounds reads no further).
          const group = operands.slice(i, j) as MatchExpr[];
          ts.push(group.length > 1 ? () => (++cx.work > WORK_LIMIT ? UNKNOWN : matchAny(group, cx, scope)) : () => go(o, scope, level + 1, searches));
          i = j;
        }
        return chain(x.kind, ts);
      }
      case "match":
        return match(x, cx, scope);
      case "collection":
        return collection(x, cx, scope, level, searches, go);
    }
  };
  return go(e, new Map(), 1, 0);
}

/** Expression nodes translated at most (a node past it is unknown). */
const WORK_LIMIT = 10_000;
/** Member searches nested at most: each nests a subquery, which the engines count as ~30 levels. */
const MAX_SEARCHES = Math.floor(DEPTH_LIMIT / 32);

type Go = (e: Expr, scope: Scope, level: number, searches: number) => Triple;

/** The operands of an `and`/`or`, with those of the same kind (parenthesised) spliced in, in order. */
function flatten(x: Expr & { kind: "and" | "or" }): Expr[] {
  const out: Expr[] = [];
  const stack: Expr[] = [...x.operands].reverse();
  while (stack.length > 0) {
    const o = stack.pop()!;
    if (o.kind === x.kind) for (let i = o.operands.length - 1; i >= 0; i--) stack.push(o.operands[i]!);
    else out.push(o);
  }
  return out;
}

function selectorKey(x: MatchExpr | CollectionExpr): string {
  return JSON.stringify(x.selector.segments.map((s) => s.name));
}

/** One translation's data, and what it has already worked out (a selector's walk, a value's kinds). */
interface Context {
  readonly root: Type;
  readonly d: Dialect;
  readonly patterns: Map<string, Pattern>;
  readonly walks: WeakMap<Scope, Map<string, Walk | undefined>>;
  readonly kinds: WeakMap<WalkValue, KindCase[]>;
  /** Expression nodes translated so far. */
  work: number;
}

/** The kinds a reached value can have (kept: every match on the selector asks). */
function kindsOf(cx: Context, v: WalkValue): KindCase[] {
  let k = cx.kinds.get(v);
  if (k === undefined) cx.kinds.set(v, (k = kindCases(v.type, v.ref, cx.d)));
  return k;
}

/** Walks a selector from the datum, or from a bound name when its first step is one (any form). */
function walkSelector(x: MatchExpr | CollectionExpr, cx: Context, scope: Scope): Walk | undefined {
  let byKey = cx.walks.get(scope);
  if (byKey === undefined) cx.walks.set(scope, (byKey = new Map()));
  const key = selectorKey(x);
  if (byKey.has(key)) return byKey.get(key);
  const walk = walkFrom(x.selector.segments.map((s) => s.name), cx.root, cx.d, scope);
  byKey.set(key, walk);
  return walk;
}

function walkFrom(keys: readonly string[], root: Type, d: Dialect, scope: Scope): Walk | undefined {
  try {
    const bound = keys.length > 0 ? scope.get(keys[0]!) : undefined;
    if (bound !== undefined) return bound.ref === undefined ? undefined : walkPath(bound.type, bound.ref, keys.slice(1), d, 1);
    return walkPath(root, { base: "column", steps: [] }, keys, d);
  } catch (err) {
    if (err instanceof Untranslatable) return undefined;
    throw err;
  }
}

function match(x: MatchExpr, cx: Context, scope: Scope): Triple {
  const { d, patterns } = cx;
  const info = OPERATORS[x.op];
  const walk = walkSelector(x, cx, scope);
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
    const answers = byAnswer(kindsOf(cx, v), (c) => {
      const base = operate(info.base, c, lit, pattern, d);
      return info.negated ? negate(base) : base;
    }, d);
    for (const a of answers) parts.push({ when: reachedAs(v, a), then: a.then });
  }
  return cases(parts);
}

/**
 * `S == v1 or S == v2 or …` (or `S != v1 and S != v2 and …`) on one selector: one walk, and per kind
 * of value the terms in order up to the first that fails on that kind (`equalAny`).
 */
function matchAny(xs: readonly MatchExpr[], cx: Context, scope: Scope): Triple {
  const { d } = cx;
  const first = xs[0]!;
  const walk = walkSelector(first, cx, scope);
  if (walk === undefined) return UNKNOWN;
  const lits = xs.map((x) => literalValue(x.value!.text));
  const parts = [
    { when: walk.error, then: UNKNOWN },
    { when: walk.missing, then: constant(OPERATORS["=="].missing) },
  ];
  for (const v of walk.values) {
    const answers = byAnswer(kindsOf(cx, v), (c) => equalAny(c, lits, d), d);
    for (const a of answers) parts.push({ when: reachedAs(v, a), then: a.then });
  }
  const t = cases(parts);
  return OPERATORS[first.op].negated ? negate(t) : t;
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
function collection(x: CollectionExpr, cx: Context, scope: Scope, level: number, searches: number, go: Go): Triple {
  const { d } = cx;
  const walk = walkSelector(x, cx, scope);
  if (walk === undefined) return UNKNOWN;
  const any = x.quantifier === "any";
  const clash = placeholderClash(x.binding, x.selector);
  const parts = [
    { when: walk.error, then: UNKNOWN },
    { when: walk.missing, then: constant(COLLECTION_MISSING[x.quantifier]) },
  ];
  for (const v of walk.values) {
    const answers = byAnswer(kindsOf(cx, v), (c): Triple | string => {
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
        // Inside a search, a collection of the document itself (not reached through a bound member)
        // would be searched once per member of every enclosing search: the engine's work would
        // multiply by each level's length (8 datacenters, 5 levels: 32,768 searches a row), where
        // members reached through the enclosing member add up to the document's size at most.
        const cross = searches > 0 && c.ref.base === "column";
        const searched = clash.both || clash.hidden || cross || searches >= MAX_SEARCHES ? undefined : members(x, c.type, c.ref, kind, d, scope, level, searches, go);
        if (searched) then = searched;
        else {
          const empty = kind === "list" ? d.isEmptyArray(c.ref) : d.isEmptyObject(c.ref);
          // Over a non-empty collection the body decides (and may fail).
          then = any ? loose(not(empty), FALSE, not(empty)) : loose(TRUE, empty, not(empty));
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
  level: number,
  searches: number,
  go: Go,
): Triple | undefined {
  if (!d.someMember) return undefined;
  const alias = `c${level}`;
  const element: Bound = { type: elementType(type), ref: { base: "element", alias } };
  const inner = new Map(scope);
  for (const n of boundNames(x.binding)) {
    const role = n.role === "default" ? (kind === "list" ? "value" : "index") : n.role;
    inner.set(n.name, role === "value" ? element : { type: kind === "list" ? t.int : t.string, ref: undefined });
  }
  const body = go(x.body, inner, level + 1, searches + 1);
  /** Some member satisfies the body's predicate `p` (negated: fails it). */
  const some = (r: Reader, p: "u" | "l" | "e", negated = false): Cond => {
    const pred = r.get(body, p);
    const c = d.someMember!(ref, kind, alias, negated ? not(pred) : pred);
    if (c !== undefined) return c;
    // The engine cannot search here: "some member" may hold or not.
    r.degrade();
    return negated === (p === "l") ? TRUE : FALSE;
  };
  // Exact when the body is and cannot fail (then every search above has the same shape).
  const flags = () => ({ shapeTight: body.shapeTight, mayFail: body.mayFail });
  return x.quantifier === "any"
    ? lazy(flags, {
        // u = ∃ u_body, l = ∃ l_body ∧ ¬∃ e_body, e = ∃ e_body
        u: (r) => some(r, "u"),
        l: (r) => and(some(r, "l"), not(some(r, "e"))),
        e: (r) => some(r, "e"),
      })
    : lazy(flags, {
        // u = ¬∃ ¬u_body ∨ ∃ e_body, l = ¬∃ ¬l_body, e = ∃ e_body
        u: (r) => or(not(some(r, "u", true)), some(r, "e")),
        l: (r) => not(some(r, "l", true)),
        e: (r) => some(r, "e"),
      });
}
