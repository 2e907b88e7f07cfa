/**
 * A tiny builder of NULL-free SQL conditions: constants fold, `and`/`or` flatten and drop repeated
 * parts, and rendering numbers the bound values in the dialect's placeholder style. Every atom is a
 * NULL-free boolean SQL fragment whose variable parts are bound values, never text spliced from the
 * expression.
 *
 * Each condition knows its size (rendered nodes), its depth (an upper bound of the nesting an engine
 * sees, see `junctionHeight`) and a structural hash, all kept at construction in O(1) per child, so
 * that building, bounding and deduplicating stay linear; rendering is iterative (no recursion).
 */

/** A bound value, with an optional PostgreSQL cast (`$1::text[]`); `key` is its identity. */
export interface Param {
  readonly value: unknown;
  readonly cast?: string;
  readonly key: string;
}

/** A condition written inside an atom (the `WHERE` of a subquery), rendered in place. */
export interface Embed {
  readonly embed: Cond;
}

/** SQL text pieces, bound values and embedded conditions, in order. */
export type Frag = readonly (string | Param | Embed)[];

interface Measures {
  /** Rendered nodes (a bound value counts 2). */
  readonly size: number;
  /** An upper bound of the expression height an engine sees (SQLite counts a chain `a OR b OR c` as 3). */
  readonly depth: number;
  /** Structural hash (equal conditions have equal hashes). */
  readonly h: number;
}

/** A NULL-free SQL condition. */
export type Cond = Measures &
  (
    | { readonly k: "const"; readonly v: boolean }
    /**
     * `contains`: the atom is `col @> doc` (jsonb containment), merged with others in a conjunction;
     * `typeOf`: the atom tests the JSON type of a value at a key path; `implies`: where the atom holds,
     * that value has one of these types (a type test it implies in a conjunction is left out).
     */
    | { readonly k: "atom"; readonly f: Frag; readonly contains?: Containment; readonly typeOf?: TypeTest; readonly implies?: TypeTest }
    | { readonly k: "not"; readonly x: Cond }
    | { readonly k: "and" | "or"; readonly xs: readonly Cond[] }
    /** `CASE WHEN w THEN a ELSE b END`: evaluates `a` only where `w` holds (guards casts). */
    | { readonly k: "case"; readonly w: Cond; readonly a: Cond; readonly b: Cond }
  );

export const TRUE: Cond = { k: "const", v: true, size: 1, depth: 1, h: 0x5bd1e995 };
export const FALSE: Cond = { k: "const", v: false, size: 1, depth: 1, h: 0x1b873593 };

/**
 * Children of a junction rendered per group: a longer `AND`/`OR` chain is written as parenthesised
 * groups of at most this many, so that SQLite (which nests a chain of n terms n deep and refuses
 * expressions deeper than 1,000) sees a tree of logarithmic height.
 */
export const CHUNK = 16;

/** Depth added by an embedded condition (a subquery): SQLite adds about 30 per nested `EXISTS` (measured). */
const EMBED_DEPTH = 32;

/** The height of a junction of `n` parts as rendered (in groups of `CHUNK`), over its deepest part. */
export function junctionHeight(n: number): number {
  let h = 0;
  while (n > CHUNK) {
    h += CHUNK;
    n = Math.ceil(n / CHUNK);
  }
  return h + n;
}

export function param(value: unknown, cast?: string): Param {
  const key = `${cast ?? ""}:${valueKey(value)}`;
  return cast === undefined ? { value, key } : { value, cast, key };
}

/** A bound value's identity (values are JSON-like: strings, numbers, bigints, arrays of strings). */
function valueKey(v: unknown): string {
  if (typeof v === "string") return `s${v}`;
  if (typeof v === "number") return `n${v}`;
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return `a${v.map((x: string) => `${x.length}:${x}`).join("")}`;
  return `j${JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x))}`;
}

export function embed(c: Cond): Embed {
  return { embed: c };
}

function isParam(p: Param | Embed): p is Param {
  return "value" in p;
}

// Hashing: FNV-1a over UTF-16 units, combined with a multiplicative mix.
function hashString(s: string, h = 0x811c9dc5): number {
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
function mix(h: number, x: number): number {
  return (Math.imul(h ^ x, 0x9e3779b1) + 0x7f4a7c15) >>> 0;
}

/** A string's hash from at most 64 of its characters (equal strings hash alike; `same` compares them whole). */
function hashSample(s: string): number {
  return s.length <= 64 ? hashString(s) : hashString(s.slice(-16), mix(hashString(s.slice(0, 48)), s.length));
}

/** The SQL text pieces are the dialects' own, few and repeated: their hash and "(" count are kept. */
const PIECES = new Map<string, { readonly h: number; readonly parens: number }>();

function piece(s: string): { readonly h: number; readonly parens: number } {
  let info = PIECES.get(s);
  if (info === undefined) {
    let parens = 0;
    for (let i = s.indexOf("("); i >= 0; i = s.indexOf("(", i + 1)) parens++;
    info = { h: hashSample(s), parens };
    if (PIECES.size >= 4096) PIECES.clear();
    PIECES.set(s, info);
  }
  return info;
}

/** A JSON value as jsonb containment reads it. */
export type Json = string | number | boolean | null | readonly Json[] | { readonly [key: string]: Json };

/** `col @> doc`: a jsonb column contains a document (an object of the keys down to the tested values). */
export interface Containment {
  readonly col: string;
  readonly doc: { readonly [key: string]: Json };
}

/** A test that the value at `keys` (object keys from `col`) exists and has one of the JSON types `kinds`. */
export interface TypeTest {
  readonly col: string;
  readonly keys: readonly string[];
  readonly kinds: readonly string[];
}

/** Marks a type test (the atom `c`) as one a containment or a comparison of the same value may imply. */
export function typeTest(c: Cond, test: TypeTest): Cond {
  return c.k === "atom" ? ({ ...c, typeOf: test } as Cond) : c;
}

/** Marks an atom as one that holds only where the value at `test.keys` has one of `test.kinds`. */
export function impliesType(c: Cond, test: TypeTest): Cond {
  return c.k === "atom" ? ({ ...c, implies: test } as Cond) : c;
}

/** What `by` says of a value's type settles the type test `t` (same value, types within t's). */
function settles(by: TypeTest, t: TypeTest): boolean {
  return by.col === t.col && by.keys.length === t.keys.length && by.keys.every((k, i) => k === t.keys[i]) && by.kinds.every((k) => t.kinds.includes(k));
}

/** The JSON type of a value as `jsonb_typeof` names it. */
function jsonKind(v: Json): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v === "object" ? "object" : typeof v;
}

/** A containment document names a value at `keys` whose type is one of `kinds`. */
function implies(doc: Json, test: TypeTest): boolean {
  let v: Json = doc;
  for (const k of test.keys) {
    if (!isObject(v) || !Object.hasOwn(v, k)) return false;
    v = v[k]!;
  }
  return test.kinds.includes(jsonKind(v));
}

/**
 * `col @> doc` (PostgreSQL: the column is NOT NULL, so the test is NULL-free). A `jsonb_path_ops` (or
 * `jsonb_ops`) GIN index on the column serves it; the tests of one conjunction merge into one
 * document (`and`), which the index serves in one scan.
 */
export function contains(col: string, doc: { readonly [key: string]: Json }): Cond {
  const c = atom(col, " @> ", param(JSON.stringify(doc), "jsonb"));
  return { ...c, contains: { col, doc } } as Cond;
}

/**
 * Two containment documents as one (`doc @> a AND doc @> b` ⇔ `doc @> merged`): objects merge key by
 * key, arrays take both elements; undefined where they differ otherwise (two scalars, a scalar and a
 * container), which is kept as two tests.
 */
function mergeDocs(a: Json, b: Json): Json | undefined {
  if (Array.isArray(a) && Array.isArray(b)) {
    const seen = new Set(a.map((x) => JSON.stringify(x)));
    return [...a, ...b.filter((x) => !seen.has(JSON.stringify(x)))];
  }
  if (isObject(a) && isObject(b)) {
    const out: { [key: string]: Json } = { ...a };
    for (const [k, v] of Object.entries(b)) {
      if (!Object.hasOwn(out, k)) out[k] = v;
      else {
        const m = mergeDocs(out[k]!, v);
        if (m === undefined) return undefined;
        out[k] = m;
      }
    }
    return out;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? a : undefined;
}

function isObject(x: Json): x is { readonly [key: string]: Json } {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * The parts of a conjunction with its containment tests on one column merged where they can be, and
 * the type tests that its containments and comparisons imply left out.
 */
function simplifyConjunction(xs: Cond[]): Cond[] {
  let tests = 0;
  let types = 0;
  const implied: TypeTest[] = [];
  for (const x of xs) {
    if (x.k !== "atom") continue;
    if (x.contains !== undefined) tests++;
    else if (x.typeOf !== undefined) types++;
    if (x.implies !== undefined) implied.push(x.implies);
  }
  // Nothing to merge, and no type test to leave out.
  if (tests < 2 && (types === 0 || (tests === 0 && implied.length === 0))) return xs;
  const merged: { col: string; doc: { readonly [key: string]: Json } }[] = [];
  const rest: Cond[] = [];
  for (const x of xs) {
    if (x.k !== "atom" || x.contains === undefined) {
      rest.push(x);
      continue;
    }
    const { col, doc } = x.contains;
    let done = false;
    for (const m of merged) {
      if (m.col !== col) continue;
      const d = mergeDocs(m.doc, doc);
      if (d !== undefined && isObject(d)) {
        m.doc = d;
        done = true;
        break;
      }
    }
    if (!done) merged.push({ col, doc });
  }
  const kept = rest.filter((x) => {
    if (x.k !== "atom" || x.typeOf === undefined) return true;
    const t = x.typeOf;
    return !merged.some((m) => m.col === t.col && implies(m.doc, t)) && !implied.some((by) => settles(by, t));
  });
  // The index-served tests first: an engine that evaluates in order reads them first.
  return [...merged.map((m) => contains(m.col, m.doc)), ...kept];
}

/** A NULL-free boolean fragment (the caller guarantees it is never NULL). */
export function atom(...f: Frag): Cond {
  let size = 1;
  let parens = 0;
  let inner = 0;
  let h = 0x2545f491;
  for (const p of f) {
    if (typeof p === "string") {
      const info = piece(p);
      size += 1;
      parens += info.parens;
      h = mix(h, info.h);
    } else if (isParam(p)) {
      size += 2;
      h = mix(h, hashSample(p.key) ^ 0x3c6ef372);
    } else {
      size += p.embed.size;
      inner = Math.max(inner, p.embed.depth + EMBED_DEPTH);
      h = mix(h, p.embed.h);
    }
  }
  return { k: "atom", f, size, depth: 1 + parens + inner, h };
}

export function not(x: Cond): Cond {
  if (x.k === "const") return x.v ? FALSE : TRUE;
  if (x.k === "not") return x.x;
  return { k: "not", x, size: x.size + 1, depth: x.depth + 1, h: mix(0x68e31da4, x.h) };
}

/** Up to this many parts, repeated parts are found by a scan; beyond it, by hash. */
const SCAN = 8;

function junction(k: "and" | "or", parts: readonly Cond[]): Cond {
  const unit = k === "and"; // TRUE for and, FALSE for or
  const xs: Cond[] = [];
  let byHash: Map<number, Cond[]> | undefined;
  const add = (p: Cond) => {
    if (byHash === undefined) {
      for (const x of xs) if (x.h === p.h && same(x, p)) return;
      xs.push(p);
      if (xs.length > SCAN) {
        byHash = new Map();
        for (const x of xs) {
          const g = byHash.get(x.h);
          if (g) g.push(x);
          else byHash.set(x.h, [x]);
        }
      }
      return;
    }
    const g = byHash.get(p.h);
    if (g) {
      for (const x of g) if (same(x, p)) return;
      g.push(p);
    } else byHash.set(p.h, [p]);
    xs.push(p);
  };
  for (const p of parts) {
    if (p.k === "const") {
      if (p.v === unit) continue;
      return p;
    }
    if (p.k === k) for (const x of p.xs) add(x);
    else add(p);
  }
  if (k === "and") {
    const m = simplifyConjunction(xs);
    if (m !== xs) {
      xs.length = 0;
      xs.push(...m);
    }
  }
  if (xs.length === 0) return unit ? TRUE : FALSE;
  if (xs.length === 1) return xs[0]!;
  let size = 1;
  let depth = 0;
  let h = k === "and" ? 0x27d4eb2f : 0x165667b1;
  for (const x of xs) {
    size += x.size;
    depth = Math.max(depth, x.depth);
    h = mix(h, x.h);
  }
  return { k, xs, size, depth: depth + junctionHeight(xs.length), h };
}

export const and = (...parts: Cond[]): Cond => junction("and", parts);
export const or = (...parts: Cond[]): Cond => junction("or", parts);
/** `and` of a list (no spread: lists may be long). */
export const andAll = (parts: readonly Cond[]): Cond => junction("and", parts);
export const orAll = (parts: readonly Cond[]): Cond => junction("or", parts);

/** `CASE WHEN w THEN a ELSE b END`, folded when it can be. */
export function caseWhen(w: Cond, a: Cond, b: Cond): Cond {
  if (w.k === "const") return w.v ? a : b;
  if (a.k === "const" && b.k === "const") return a.v === b.v ? a : a.v ? w : not(w);
  return {
    k: "case",
    w,
    a,
    b,
    size: w.size + a.size + b.size + 1,
    depth: Math.max(w.depth, a.depth, b.depth) + 2,
    h: mix(mix(mix(0x61c88647, w.h), a.h), b.h),
  };
}

/** The size of a condition, to keep translations bounded. */
export function size(c: Cond): number {
  return c.size;
}

/** Node pairs `same` compares at most before it answers "not known to be the same". */
const SAME_BUDGET = 4096;

/**
 * Structural equality (to tell whether U and L are the same condition, and to drop repeated parts).
 * Iterative and bounded: past `SAME_BUDGET` node pairs it answers false, which both uses read
 * soundly (a part kept twice; a translation not called exact).
 */
export function same(a: Cond, b: Cond): boolean {
  const stack: [Cond, Cond][] = [[a, b]];
  let budget = SAME_BUDGET;
  while (stack.length > 0) {
    const [x, y] = stack.pop()!;
    if (x === y) continue;
    if (x.k !== y.k || x.h !== y.h || x.size !== y.size || --budget < 0) return false;
    switch (x.k) {
      case "const":
        if (x.v !== (y as typeof x).v) return false;
        break;
      case "atom": {
        const f = (y as typeof x).f;
        if (x.f.length !== f.length) return false;
        for (let i = 0; i < f.length; i++) {
          const p = x.f[i]!;
          const q = f[i]!;
          if (typeof p === "string" || typeof q === "string") {
            if (p !== q) return false;
          } else if (isParam(p) || isParam(q)) {
            if (!isParam(p) || !isParam(q) || p.key !== q.key) return false;
          } else stack.push([p.embed, q.embed]);
        }
        break;
      }
      case "not":
        stack.push([x.x, (y as typeof x).x]);
        break;
      case "and":
      case "or": {
        const xs = (y as typeof x).xs;
        if (x.xs.length !== xs.length) return false;
        for (let i = 0; i < xs.length; i++) stack.push([x.xs[i]!, xs[i]!]);
        break;
      }
      case "case": {
        const o = y as typeof x;
        stack.push([x.w, o.w], [x.a, o.a], [x.b, o.b]);
        break;
      }
    }
  }
  return true;
}

/** A PostgreSQL array literal of texts: `{"a","b \"c\""}`. */
function arrayLiteral(values: readonly unknown[]): string {
  return `{${values.map((v) => `"${String(v).replace(/[\\"]/g, "\\$&")}"`).join(",")}}`;
}

/**
 * How placeholders are written: `numbered` (`$1`, an equal value's number used again), `positional`
 * (`?` for each value, in order), `marked` (as `positional`, with NUL for `?`: where the text is cut
 * into the strings of a tagged template).
 */
export type Placeholders = "numbered" | "positional" | "marked";

type Parent = "and" | "or" | "not" | "top";
type Task =
  | string
  | { readonly c: Cond; readonly parent: Parent }
  | { readonly group: readonly Cond[]; readonly k: "and" | "or" }
  | { readonly p: Param };

/**
 * Renders a condition, appending its bound values to `params` (numbered placeholders continue from
 * them; equal values share a number). Iterative: any depth renders without recursion.
 */
export function render(c: Cond, style: Placeholders, params: unknown[] = []): { sql: string; params: unknown[] } {
  const numbers = new Map<string, number>();
  const out: string[] = [];
  const place = (p: Param): string => {
    if (style !== "numbered") {
      // Query builders expand an array bound to one placeholder into a list: an array goes as the
      // text of a PostgreSQL array literal, which its cast reads back.
      params.push(Array.isArray(p.value) ? arrayLiteral(p.value) : p.value);
      return `${style === "marked" ? "\u0000" : "?"}${p.cast ? `::${p.cast}` : ""}`;
    }
    let n = numbers.get(p.key);
    if (n === undefined) {
      params.push(p.value);
      n = params.length;
      numbers.set(p.key, n);
    }
    return `$${n}${p.cast ? `::${p.cast}` : ""}`;
  };
  // A stack of what is left to write, the next piece on top.
  const stack: Task[] = [{ c, parent: "top" }];
  const pushAll = (tasks: Task[]) => {
    for (let i = tasks.length - 1; i >= 0; i--) stack.push(tasks[i]!);
  };
  /** The parts of a junction, in groups of at most CHUNK (each group parenthesised). */
  const junctionTasks = (k: "and" | "or", xs: readonly Cond[]): Task[] => {
    const sep = k === "and" ? " AND " : " OR ";
    const tasks: Task[] = [];
    if (xs.length <= CHUNK) {
      xs.forEach((y, i) => {
        if (i > 0) tasks.push(sep);
        tasks.push({ c: y, parent: k });
      });
      return tasks;
    }
    const per = Math.ceil(xs.length / CHUNK);
    for (let i = 0; i < xs.length; i += per) {
      if (i > 0) tasks.push(sep);
      const group = xs.slice(i, i + per);
      if (group.length === 1) tasks.push({ c: group[0]!, parent: k });
      else tasks.push({ group, k });
    }
    return tasks;
  };
  while (stack.length > 0) {
    const t = stack.pop()!;
    if (typeof t === "string") {
      out.push(t);
      continue;
    }
    if ("group" in t) {
      pushAll(["(", ...junctionTasks(t.k, t.group), ")"]);
      continue;
    }
    if ("p" in t) {
      // Placed when written, so that numbers and positions follow the text.
      out.push(place(t.p));
      continue;
    }
    const { c: x, parent } = t;
    switch (x.k) {
      case "const":
        out.push(x.v ? "TRUE" : "FALSE");
        break;
      case "atom": {
        const tasks: Task[] = [];
        if (parent !== "top") tasks.push("(");
        for (const p of x.f) {
          if (typeof p === "string") tasks.push(p);
          else if (isParam(p)) tasks.push({ p });
          else tasks.push({ c: p.embed, parent: "top" });
        }
        if (parent !== "top") tasks.push(")");
        pushAll(tasks);
        break;
      }
      case "not":
        pushAll(["NOT ", { c: x.x, parent: "not" }]);
        break;
      case "and":
      case "or": {
        const paren = parent !== "top" && parent !== x.k;
        const tasks = junctionTasks(x.k, x.xs);
        pushAll(paren ? ["(", ...tasks, ")"] : tasks);
        break;
      }
      case "case":
        pushAll(["(CASE WHEN ", { c: x.w, parent: "top" }, " THEN ", { c: x.a, parent: "top" }, " ELSE ", { c: x.b, parent: "top" }, " END)"]);
        break;
    }
  }
  return { sql: out.join(""), params };
}
