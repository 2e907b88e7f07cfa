/**
 * The SQL each engine needs to inspect a JSON column: type tests, key and index tests, string, number
 * and bool comparisons, element searches. Every condition returned is NULL-free; every value that comes
 * from the expression (a path, a string, a number) is a bound parameter.
 *
 * - PostgreSQL: the column is `jsonb`; a path is `col #> $n::text[]`, text `#>>`, types `jsonb_typeof`.
 * - SQLite: the column holds JSON text; a path is a bound `$."key"[0]` path for `json_type` and
 *   `json_extract`, elements come from `json_each`.
 */
import { postgresRegex } from "./postgres-regex.js";
import { and, atom, caseWhen, contains, impliesType, typeTest, embed, FALSE, not, or, orAll, param, TRUE, type Cond, type Frag, type Json, type Placeholders } from "./sql.js";

/** The JSON types as the data has them. */
export type JsonKind = "string" | "number" | "boolean" | "null" | "array" | "object";

/** One step of a path: an object key or an array index (each container kind is known when it is taken). */
export type PathStep = { readonly key: string } | { readonly index: number };

/**
 * A JSON value: a path from the column, or the element `e` of the innermost element search.
 * A path that reaches nothing is "missing" (SQL NULL inside, never outside, a condition).
 */
export type Ref =
  | { readonly base: "column"; readonly steps: readonly PathStep[] }
  /** `alias` names the element search (default `e`, the innermost of a membership test). */
  | { readonly base: "element"; readonly alias?: string; readonly steps?: readonly PathStep[] };

/** Whether a number comparison is exact (`u` ≡ `l`) or a sound bracket. */
export interface NumberTest {
  /** The value may equal (true where it does). */
  readonly u: Cond;
  /** The value surely equals. */
  readonly l: Cond;
}

/** The engine-specific SQL. */
export interface Dialect {
  readonly name: "postgres" | "sqlite";
  readonly placeholders: Placeholders;
  /** The most bound values a statement may hold. */
  readonly maxParams: number;
  /**
   * Whether this text can be bound and compared with the data's strings as the filter compares them
   * (well-formed; no NUL on PostgreSQL, whose text cannot hold one; no U+FFFD on SQLite, which reads
   * an escaped lone surrogate as bytes where the filter reads U+FFFD).
   */
  canBind(text: string): boolean;
  /** The value exists (the path reaches something, JSON null included). */
  exists(ref: Ref): Cond;
  /** A path through this key existing implies the container was an object holding the key. */
  keyImpliesObject(key: string): boolean;
  /** A path through an index existing implies the container was an array that long. */
  readonly indexImpliesArray: boolean;
  /** Whether the path can be written (its keys can be bound). */
  canPath(ref: Ref): boolean;
  /** The value exists and has one of these JSON types. */
  typeIs(ref: Ref, kinds: readonly JsonKind[]): Cond;
  /** An object has the key (only meaningful where the value is an object). */
  hasKey(ref: Ref, key: string): Cond;
  /** An array has more than `n` elements (where the value is an array). */
  longerThan(ref: Ref, n: number): Cond;
  /** The value is the JSON string `s`. */
  strEq(ref: Ref, s: string): Cond;
  /** The value is one of the JSON strings `ss` (one membership test, however many). */
  strIn(ref: Ref, ss: readonly string[]): Cond;
  /** The value is a string containing `s`, starting or ending with it. */
  strHas(ref: Ref, s: string, where: "anywhere" | "start" | "end"): Cond;
  /** The value is the JSON bool `b`. */
  boolIs(ref: Ref, b: boolean): Cond;
  /** The value is a number whose float64 reading equals `v` (not NaN). */
  numEq(ref: Ref, v: number): NumberTest;
  /** The value is a number whose float64 reading equals one of `vs` (none NaN). */
  numIn(ref: Ref, vs: readonly number[]): NumberTest;
  /** The value is a number equal to the integer `v` with `|v| ≥ 2^53` (exactly, or by float64 reading). */
  bigIntEq(ref: Ref, v: bigint): NumberTest;
  /** The value is `[]` / `{}`. */
  isEmptyArray(ref: Ref): Cond;
  isEmptyObject(ref: Ref): Cond;
  /** Some element of an array satisfies `pred` (only meaningful where the value is an array). */
  someElement(ref: Ref, pred: Cond): Cond;
  /**
   * Some element of a list (`map`: some value of a map) satisfies `pred`, in which the element is
   * `{ base: "element", alias }`; undefined when the engine cannot search the collection at `ref`.
   */
  someMember?(ref: Ref, kind: "list" | "map", alias: string, pred: Cond): Cond | undefined;
  /** An array holds the string `s` as an element, index-friendly where the engine allows. */
  arrayHasString(ref: Ref, s: string): Cond;
  /**
   * The string value matches an RE2 pattern exactly: through SQLite's registered RE2 function, or a
   * PostgreSQL regular expression that decides the same strings (`postgres-regex.ts`); undefined
   * when the engine has neither for this pattern.
   */
  regex?(ref: Ref, pattern: string): Cond | undefined;
}

const TWO_53 = 2 ** 53;

/** What PostgreSQL's translation may assume of the column and its indexes (`ToSqlOptions`). */
export interface PostgresIndexes {
  readonly canonicalNumbers?: boolean;
  readonly textIndexed?: readonly (readonly string[])[];
}

/** Double quotes an identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export function wellFormed(s: string): boolean {
  return (s as string & { isWellFormed(): boolean }).isWellFormed();
}

/**
 * PostgreSQL (also PGlite): a `jsonb` column. With `positional`, placeholders are `?` in order (a query
 * builder numbers them), and `jsonb_exists` stands for the `?` operator, which a builder would read as
 * a placeholder (the same test; an index serves only the operator).
 */
export function postgres(column: string, positional = false, indexes: PostgresIndexes = {}): Dialect {
  const col = quoteIdent(column);
  const canonicalNumbers = indexes.canonicalNumbers === true;
  const textIndexed = new Set((indexes.textIndexed ?? []).map((keys) => JSON.stringify(keys)));
  const stepsOf = (ref: Ref): readonly PathStep[] => (ref.base === "column" ? ref.steps : (ref.steps ?? []));
  /** The object keys from the column to the value (none that `#>` could take as an array index), or undefined. */
  const keyPath = (ref: Ref): string[] | undefined => {
    if (ref.base !== "column" || ref.steps.length === 0) return undefined;
    const keys: string[] = [];
    for (const s of ref.steps) {
      if (!("key" in s) || /^\s*[+-]?\d/.test(s.key)) return undefined;
      keys.push(s.key);
    }
    return keys;
  };
  /** The value's path is one with a btree index on its text (`textIndexed`). */
  const onTextIndex = (ref: Ref): boolean => {
    const keys = textIndexed.size > 0 ? keyPath(ref) : undefined;
    return keys !== undefined && textIndexed.has(JSON.stringify(keys));
  };
  /**
   * The value at `ref` is `value`, as one containment test (`col @> '{"a":{"b":value}}'`), when the
   * path is object keys from the column: a key that reads as an integer is left out (`#>` would
   * take it as an index into an array, containment never does).
   */
  const containing = (ref: Ref, value: Json): Cond | undefined => {
    const keys = keyPath(ref);
    if (keys === undefined) return undefined;
    let doc: Json = value;
    for (let i = keys.length - 1; i >= 0; i--) doc = { [keys[i]!]: doc };
    return contains(col, doc as { readonly [key: string]: Json });
  };
  /** Numbers by containment: with canonical texts (`canonicalNumbers`) equal doubles have equal texts. */
  const containingNumber = (ref: Ref, v: number): Cond | undefined =>
    canonicalNumbers && Number.isFinite(v) && Math.abs(v) < TWO_53 ? containing(ref, v) : undefined;
  const pathParam = (ref: Ref) => param(stepsOf(ref).map((s) => ("key" in s ? s.key : String(s.index))), "text[]");
  const start = (ref: Ref): string => (ref.base === "column" ? col : `${ref.alias ?? "e"}.fe_v`);
  /** The jsonb value (NULL when missing). */
  const x = (ref: Ref): Frag => (stepsOf(ref).length === 0 ? [start(ref)] : ["(", start(ref), " #> ", pathParam(ref), ")"]);
  /** The text of a string value (NULL when missing or JSON null). */
  const text = (ref: Ref): Frag => (stepsOf(ref).length === 0 ? [`(${start(ref)} #>> '{}')`] : ["(", start(ref), " #>> ", pathParam(ref), ")"]);
  const typeIs = (ref: Ref, kinds: readonly JsonKind[]): Cond => {
    if (kinds.length === 0) return FALSE;
    const list = kinds.map((k) => `'${k}'`).join(", ");
    const c = atom("COALESCE(jsonb_typeof(", ...x(ref), kinds.length === 1 ? `) = ${list}` : `) IN (${list})`, ", FALSE)");
    const keys = keyPath(ref);
    return keys === undefined ? c : typeTest(c, { col, keys, kinds });
  };
  const isString = (ref: Ref) => typeIs(ref, ["string"]);
  const textParam = (s: string) => param(s, "text");
  const inRange = (ref: Ref): Cond => atom("abs((", ...x(ref), ")::numeric) BETWEEN 1e-307 AND 1e308 OR (", ...x(ref), ")::numeric = 0");
  const floatIn = (ref: Ref, vs: readonly number[]): NumberTest => {
    const cmp =
      vs.length === 1
        ? atom("(", ...x(ref), ")::float8 = ", param(String(vs[0]), "float8"))
        : atom("(", ...x(ref), ")::float8 = ANY(", param(vs.map(String), "float8[]"), ")");
    // Outside the guarded range a number reads as a double far from any v with 1e-300 ≤ |v| ≤ 1e300.
    const far = vs.every((v) => Math.abs(v) >= 1e-300 && Math.abs(v) <= 1e300);
    return {
      u: caseWhen(typeIs(ref, ["number"]), caseWhen(inRange(ref), cmp, far ? FALSE : TRUE), FALSE),
      l: caseWhen(typeIs(ref, ["number"]), caseWhen(inRange(ref), cmp, FALSE), FALSE),
    };
  };
  const floatEq = (ref: Ref, v: number): NumberTest => {
    const c = containingNumber(ref, v);
    return c !== undefined ? { u: c, l: c } : floatIn(ref, [v]);
  };
  /**
   * The text comparison, NULL-free; the type test only where another JSON value's text could equal
   * `s` (a number, `true`, `false`, `null`, an array's or object's JSON): the planner cannot estimate
   * it, and it would cloud its estimate of a comparison an expression index serves.
   */
  const textEq = (ref: Ref, ss: readonly string[]): Cond => {
    const cmp = ss.length === 1 ? atom(...text(ref), " = ", textParam(ss[0]!)) : atom(...text(ref), " = ANY(", param([...ss], "text[]"), ")");
    if (ss.some((s) => /^[-0-9tfn[{]/.test(s))) return and(cmp, isString(ref));
    // NULL-free through a test the index's statistics estimate (its share of NULLs).
    const present = atom(...text(ref), " IS NOT NULL");
    const keys = keyPath(ref);
    return and(keys === undefined ? cmp : impliesType(cmp, { col, keys, kinds: ["string"] }), present);
  };
  const strEq = (ref: Ref, s: string): Cond => (onTextIndex(ref) ? undefined : containing(ref, s)) ?? textEq(ref, [s]);
  /** Up to this many values, a membership test is one containment test per value (an index serves each). */
  const CONTAINED_IN = 16;
  return {
    name: "postgres",
    placeholders: positional ? "positional" : "numbered",
    maxParams: 65_535,
    exists: (ref) => (stepsOf(ref).length === 0 ? TRUE : atom(...x(ref), " IS NOT NULL")),
    // `#>` takes a key that reads as an integer as an index into an array.
    keyImpliesObject: (key) => !/^\s*[+-]?\d/.test(key),
    indexImpliesArray: false,
    canBind: (s) => wellFormed(s) && !s.includes("\u0000"),
    canPath: (ref) => stepsOf(ref).every((s) => !("key" in s) || (wellFormed(s.key) && !s.key.includes("\u0000"))),
    typeIs,
    hasKey: (ref, key) => (positional ? atom("COALESCE(jsonb_exists(", ...x(ref), ", ", textParam(key), "), FALSE)") : atom("COALESCE(", ...x(ref), " ? ", textParam(key), ", FALSE)")),
    longerThan: (ref, n) =>
      n >= 2 ** 31 - 1
        ? FALSE
        : caseWhen(typeIs(ref, ["array"]), atom("jsonb_array_length(", ...x(ref), ") > ", param(String(n), "int")), FALSE),
    // Along object keys containment (a GIN index), on a text-indexed path the text comparison (its
    // btree, in key order), elsewhere the comparison guarded by the type test.
    strEq,
    strIn: (ref, ss) => {
      if (ss.length === 1 || (ss.length <= CONTAINED_IN && !onTextIndex(ref) && keyPath(ref) !== undefined)) return orAll(ss.map((s) => strEq(ref, s)));
      return textEq(ref, ss);
    },
    strHas: (ref, s, where) => {
      if (s === "") return isString(ref);
      if (where === "anywhere") return and(atom("strpos(", ...text(ref), ", ", textParam(s), ") > 0"), isString(ref));
      const escaped = s.replace(/[\\%_]/g, (c) => `\\${c}`);
      return and(atom(...text(ref), ' COLLATE "C" LIKE ', textParam(where === "start" ? `${escaped}%` : `%${escaped}`)), isString(ref));
    },
    boolIs: (ref, b) => containing(ref, b) ?? atom("COALESCE(", ...x(ref), b ? " = 'true'::jsonb" : " = 'false'::jsonb", ", FALSE)"),
    numEq: floatEq,
    numIn: (ref, vs) => {
      const each = vs.length <= CONTAINED_IN ? vs.map((v) => containingNumber(ref, v)) : [];
      if (each.length === 0 || each.some((c) => c === undefined)) return floatIn(ref, vs);
      const c = orAll(each as Cond[]);
      return { u: c, l: c };
    },
    bigIntEq: (ref, v) => {
      // The re-check reads the column back as text: an integer there beyond 2^53 - 1 becomes an exact
      // bigint (parseJson), any other number a double.
      const n = ["(", ...x(ref), ")::numeric"];
      const big = atom("scale(", ...n, ") = 0 AND abs(", ...n, ") > 9007199254740991");
      const exact = atom(...n, " = ", param(String(v), "numeric"));
      const asDouble = BigInt(Number(v)) === v ? floatEq(ref, Number(v)) : { u: FALSE, l: FALSE };
      const test = (f: Cond) => caseWhen(typeIs(ref, ["number"]), caseWhen(big, exact, f), FALSE);
      return { u: test(asDouble.u), l: test(asDouble.l) };
    },
    isEmptyArray: (ref) => atom("COALESCE(", ...x(ref), " = '[]'::jsonb, FALSE)"),
    isEmptyObject: (ref) => atom("COALESCE(", ...x(ref), " = '{}'::jsonb, FALSE)"),
    someElement: (ref, pred) => {
      if (pred.k === "const" && !pred.v) return FALSE;
      return caseWhen(typeIs(ref, ["array"]), atom("EXISTS (SELECT 1 FROM jsonb_array_elements(", ...x(ref), ") AS e(fe_v) WHERE ", embed(pred), ")"), FALSE);
    },
    someMember: (ref, kind, alias, pred) => {
      if (pred.k === "const" && !pred.v) return FALSE;
      const from = kind === "list" ? ["jsonb_array_elements(", ...x(ref), `) AS ${alias}(fe_v)`] : ["jsonb_each(", ...x(ref), `) AS ${alias}(fe_k, fe_v)`];
      return caseWhen(typeIs(ref, [kind === "list" ? "array" : "object"]), atom("EXISTS (SELECT 1 FROM ", ...from, " WHERE ", embed(pred), ")"), FALSE);
    },
    regex: (ref, pattern) => {
      const are = postgresRegex(pattern);
      // A trigram index (`pg_trgm`'s `gin_trgm_ops`) on the value's text serves `~`.
      return are === undefined ? undefined : and(atom(...text(ref), " ~ ", textParam(are)), isString(ref));
    },
    // `col @> '{"a":{"b":["s"]}}'`: a GIN index on the column serves it.
    arrayHasString: (ref, s) => containing(ref, [s]) ?? atom("COALESCE(", ...x(ref), " @> ", param(JSON.stringify([s]), "jsonb"), ", FALSE)"),
  };
}

/**
 * A key SQLite's path syntax reads back as itself in every version: inside `"…"` SQLite 3.45+ reads
 * escapes (`\"`, `\n`) and older versions compare the key as the JSON text writes it, so a key with
 * `"`, `\` or a control character (JSON text escapes them) has no path both read alike; a NUL ends
 * the path (`bad JSON path`); U+FFFD may stand for an escaped lone surrogate, which SQLite keeps as bytes.
 */
const SQLITE_PATH_KEY = /^[^"\\\u0000-\u001f\ufffd]*$/;

const utf8 = new TextEncoder();

/** SQLite: a TEXT column holding JSON (stored as `JSON.stringify` writes it, see docs/sql.md). */
export function sqlite(column: string, options: { regexFunction?: string } = {}): Dialect {
  const col = quoteIdent(column);
  const stepsOf = (ref: Ref): readonly PathStep[] => (ref.base === "column" ? ref.steps : (ref.steps ?? []));
  const path = (ref: Ref) => param(`$${stepsOf(ref).map((s) => ("key" in s ? `."${s.key}"` : `[${s.index}]`)).join("")}`);
  const alias = (ref: Ref & { base: "element" }) => ref.alias ?? "e";
  /** An element read as a whole, through the search's `type` and `value` columns. */
  const whole = (ref: Ref): ref is Ref & { base: "element" } => ref.base === "element" && stepsOf(ref).length === 0;
  /** The JSON a path is taken in: the column, or an element that is a container (else NULL: nothing). */
  const json = (ref: Ref): string => (ref.base === "column" ? col : `(CASE WHEN ${alias(ref)}.type IN ('object', 'array') THEN ${alias(ref)}.value END)`);
  /** The arguments of json_type, json_extract, json_each for the value at `ref` (not whole). */
  const at = (ref: Ref): Frag => [json(ref), ", ", path(ref)];
  const type = (ref: Ref): Frag => (whole(ref) ? [`${alias(ref)}.type`] : ["json_type(", ...at(ref), ")"]);
  const value = (ref: Ref): Frag => (whole(ref) ? [`${alias(ref)}.value`] : ["json_extract(", ...at(ref), ")"]);
  /** The JSON text of a container (json_each, json_array_length): NULL-safe, never a scalar's text. */
  const container = (ref: Ref): Frag => (whole(ref) ? [`(CASE WHEN ${alias(ref)}.type IN ('object', 'array') THEN ${alias(ref)}.value END)`] : at(ref));
  const NAMES: Record<JsonKind, readonly string[]> = {
    string: ["text"],
    number: ["integer", "real"],
    boolean: ["true", "false"],
    null: ["null"],
    array: ["array"],
    object: ["object"],
  };
  const typeIs = (ref: Ref, kinds: readonly JsonKind[]): Cond => {
    const names = kinds.flatMap((k) => NAMES[k]);
    if (names.length === 0) return FALSE;
    return atom("COALESCE(", ...type(ref), `, '') IN (${names.map((n) => `'${n}'`).join(", ")})`);
  };
  const isText = (ref: Ref) => atom("COALESCE(", ...type(ref), ", '') = 'text'");
  const real = (v: number) => ["CAST(", param(v), " AS REAL)"] as const;
  const dialect: Dialect = {
    name: "sqlite",
    placeholders: "positional",
    maxParams: 32_766,
    exists: (ref) => (whole(ref) || (ref.base === "column" && ref.steps.length === 0) ? TRUE : atom(...type(ref), " IS NOT NULL")),
    // `."key"` only steps into objects, `[i]` only into arrays.
    keyImpliesObject: () => true,
    indexImpliesArray: true,
    // SQLite reads an escaped lone surrogate (`\ud800`) as its three bytes, the filter as U+FFFD.
    canBind: (s) => wellFormed(s) && !s.includes("\ufffd"),
    canPath: (ref) => stepsOf(ref).every((s) => !("key" in s) || (wellFormed(s.key) && SQLITE_PATH_KEY.test(s.key))),
    typeIs,
    hasKey: (ref, key) => atom("EXISTS (SELECT 1 FROM json_each(", ...container(ref), ") AS k WHERE k.key = ", param(key), ")"),
    longerThan: (ref, n) => atom("COALESCE(json_array_length(", ...container(ref), ") > ", param(n), ", FALSE)"),
    strEq: (ref, s) => and(isText(ref), atom(...value(ref), " = ", param(s))),
    strIn: (ref, ss) =>
      ss.length === 1 ? dialect.strEq(ref, ss[0]!) : and(isText(ref), atom(...value(ref), " IN (SELECT value FROM json_each(", param(JSON.stringify(ss)), "))")),
    strHas: (ref, s, where) => {
      if (s === "") return isText(ref);
      const v = value(ref);
      if (where === "anywhere") return and(isText(ref), atom("instr(", ...v, ", ", param(s), ") > 0"));
      // Bytes, not characters: SQLite's length() and substr() stop at a NUL.
      const n = utf8.encode(s).length;
      return and(isText(ref), atom("substr(CAST(", ...v, " AS BLOB), ", param(where === "start" ? 1 : -n), ", ", param(n), ") = CAST(", param(s), " AS BLOB)"));
    },
    boolIs: (ref, b) => atom("COALESCE(", ...type(ref), b ? ", '') = 'true'" : ", '') = 'false'"),
    numEq: (ref, v) => {
      if (!Number.isFinite(v)) return { u: and(typeIs(ref, ["number"]), atom("abs(", ...value(ref), ") > 1.7976931348623157e308")), l: FALSE };
      // SQLite reads JSON numbers with its own decimal conversion: a small tolerance keeps `u` sound;
      // an integer compares exactly, and so does the number's JSON text when it is how JavaScript writes v.
      const tol = Math.abs(v) * 1e-14 + 1e-300;
      const u = and(typeIs(ref, ["number"]), atom("abs(", ...value(ref), " - ", ...real(v), ") <= ", param(tol)));
      const exactInt = Number.isInteger(v) && Math.abs(v) < TWO_53 ? atom("COALESCE(", ...type(ref), ", '') = 'integer' AND ", ...value(ref), " = ", ...real(v)) : FALSE;
      const exactText = whole(ref) ? FALSE : atom("COALESCE(", json(ref), " -> ", path(ref), " = ", param(JSON.stringify(v)), ", FALSE)");
      return { u, l: or(exactInt, exactText) };
    },
    bigIntEq: (ref, v) => {
      // An integer within int64 compares exactly (by its decimal text); others only within a tolerance.
      const f = dialect.numEq(ref, Number(v));
      const exact = atom("COALESCE(", ...type(ref), ", '') = 'integer' AND CAST(", ...value(ref), " AS TEXT) = ", param(String(v)));
      return { u: or(exact, f.u), l: exact };
    },
    numIn: (ref, vs) => {
      const finite = vs.filter((v) => Number.isFinite(v));
      const parts = vs.filter((v) => !Number.isFinite(v)).map((v) => dialect.numEq(ref, v));
      if (finite.length === 1) parts.push(dialect.numEq(ref, finite[0]!));
      else if (finite.length > 1) {
        // An integer within ±2^53 reads alike in SQLite and JavaScript: exact membership. Any other
        // number: within the tolerance band (numEq) of the smallest to that of the largest.
        const ints = finite.filter((v) => Number.isInteger(v) && Math.abs(v) < TWO_53);
        const exactInt = ints.length === 0 ? FALSE : atom("COALESCE(", ...type(ref), ", '') = 'integer' AND ", ...value(ref), " IN (SELECT value FROM json_each(", param(JSON.stringify(ints)), "))");
        const smallInt = atom("COALESCE(", ...type(ref), ", '') = 'integer' AND abs(", ...value(ref), ") < 9007199254740992");
        const lo = finite.reduce((a, b) => Math.min(a, b));
        const hi = finite.reduce((a, b) => Math.max(a, b));
        const tol = (v: number) => Math.abs(v) * 1e-14 + 1e-300;
        const band = atom(...value(ref), " BETWEEN ", ...real(lo - tol(lo)), " AND ", ...real(hi + tol(hi)));
        parts.push({ u: and(typeIs(ref, ["number"]), or(exactInt, and(not(smallInt), band))), l: exactInt });
      }
      return { u: or(...parts.map((p) => p.u)), l: or(...parts.map((p) => p.l)) };
    },
    isEmptyArray: (ref) => and(typeIs(ref, ["array"]), atom("COALESCE(json_array_length(", ...container(ref), ") = 0, FALSE)")),
    isEmptyObject: (ref) => and(typeIs(ref, ["object"]), atom("NOT EXISTS (SELECT 1 FROM json_each(", ...container(ref), "))")),
    someElement: (ref, pred) => {
      if (pred.k === "const" && !pred.v) return FALSE;
      return and(typeIs(ref, ["array"]), atom("EXISTS (SELECT 1 FROM json_each(", ...container(ref), ") AS e WHERE ", embed(pred), ")"));
    },
    someMember: (ref, kind, name, pred) => {
      if (pred.k === "const" && !pred.v) return FALSE;
      return and(typeIs(ref, [kind === "list" ? "array" : "object"]), atom("EXISTS (SELECT 1 FROM json_each(", ...container(ref), `) AS ${name} WHERE `, embed(pred), ")"));
    },
    arrayHasString: (ref, s) => dialect.someElement(ref, dialect.strEq({ base: "element" }, s)),
  };
  if (options.regexFunction !== undefined) {
    const fn = options.regexFunction;
    // Both as bytes: a driver decodes text arguments (sql.js drops a leading U+FEFF), not blobs.
    dialect.regex = (ref, pattern) => and(isText(ref), atom(fn, "(CAST(", param(pattern), " AS BLOB), CAST(", ...value(ref), " AS BLOB)) = 1"));
  }
  return dialect;
}
