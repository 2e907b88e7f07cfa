/**
 * The three NULL-free predicates of a node and how they combine (docs/sql.md):
 * - `u`: the node may be true or raise an error (the WHERE keeps such rows);
 * - `l`: the node is surely true, without error;
 * - `e`: the node may raise an error.
 * With left-to-right short-circuit evaluation:
 *   A and B: u = uA ∧ (eA ∨ uB),  l = lA ∧ lB,          e = eA ∨ (uA ∧ eB)
 *   A or B:  u = uA ∨ uB,         l = lA ∨ (¬uA ∧ lB),   e = eA ∨ (¬lA ∧ eB)
 *   not A:   u = ¬lA,             l = ¬uA,               e = eA
 *
 * Nothing is built before something reads it: a predicate is built on its first read (the root's
 * WHERE reads only `u`), and an operand of `and`/`or` is translated when a predicate reaches it.
 * Every predicate is built within bounds, checked as it grows (sizes are kept at construction): past
 * `SIZE_LIMIT` nodes or `DEPTH_LIMIT` nesting it takes its sound fallback (`u` TRUE, `l` FALSE,
 * `e` TRUE: each is sound on its own), or, where that stays sound, keeps the part it has read (an
 * and-chain's `u` keeps a prefix and reads the rest as unknown; an or-chain's `u` needs every operand).
 */
import { andAll, FALSE, junctionHeight, not, orAll, same, TRUE, type Cond } from "./sql.js";

/**
 * The largest predicate kept (rendered nodes); beyond it a predicate falls back (sound, looser).
 * Measured (`npx tsx bench/sql.ts --budget`): where nothing short-circuits and no index helps, a
 * condition costs the engine per row about as much as reading and re-checking the row in-process at
 * ~450 nodes on sql.js and ~1,300 on PGlite, and grows linearly: at 4,000 nodes about 9× and 3×,
 * at 7,800 nodes 16× on sql.js, at 14,700 8× on PGlite. Filters people write take 30–400 nodes; a
 * chain of equalities on one selector takes a few dozen, however long.
 */
export const SIZE_LIMIT = 4_000;
/** The deepest predicate kept (engine nesting, see `junctionHeight`); SQLite refuses 1,000. */
export const DEPTH_LIMIT = 256;

export type Which = "u" | "l" | "e";
const FALLBACK: Readonly<Record<Which, Cond>> = { u: TRUE, l: FALSE, e: TRUE };

/** A predicate as built, and whether a bound replaced some part of it by a fallback. */
interface Built {
  readonly c: Cond;
  readonly degraded: boolean;
}

/** What a builder reads its operands' predicates through (it records their degradation). */
export interface Reader {
  get(t: Triple, p: Which): Cond;
  /** The builder dropped or replaced a part (the result is sound but not the whole answer). */
  degrade(): void;
}

/**
 * - `shapeTight`: `u` implies `l` by construction (the translation is exact where no bound cut `u`);
 * - `mayFail`: false when the node cannot fail at all (`e` is FALSE); operands of an `and`/`or` that
 *   cannot fail compose flat.
 */
interface Flags {
  readonly shapeTight: boolean;
  readonly mayFail: boolean;
}

type Source = Cond | ((r: Reader) => Cond);

/** A node's three predicates, each built on first read. */
export class Triple {
  private flagsOrThunk: Flags | (() => Flags);
  private readonly built: { u?: Built; l?: Built; e?: Built } = {};

  /** Without `l` the node is tight (`l` is `u`); without `e` it cannot fail. */
  constructor(
    flags: Flags | (() => Flags),
    private readonly sources: { readonly u: Source; readonly l?: Source; readonly e?: Source },
  ) {
    this.flagsOrThunk = flags;
  }

  private flags(): Flags {
    if (typeof this.flagsOrThunk === "function") this.flagsOrThunk = this.flagsOrThunk();
    return this.flagsOrThunk;
  }
  get shapeTight(): boolean {
    return this.flags().shapeTight;
  }
  get mayFail(): boolean {
    return this.flags().mayFail;
  }

  get u(): Cond {
    return this.pred("u").c;
  }
  get l(): Cond {
    return this.pred("l").c;
  }
  get e(): Cond {
    return this.pred("e").c;
  }
  /** `u` implies `l` and nothing may fail: the rows `u` selects are exactly the true ones. */
  get tight(): boolean {
    return !this.pred("u").degraded && this.shapeTight;
  }

  pred(p: Which): Built {
    const done = this.built[p];
    if (done) return done;
    let source = this.sources[p];
    if (source === undefined) {
      if (p === "e") return NOTHING_FAILS;
      if (p === "l") {
        const u = this.pred("u");
        return u.degraded ? DEGRADED.l : u;
      }
      source = FALLBACK[p];
    }
    // A node known not to fail needs no `e` built.
    if (p === "e" && typeof this.flagsOrThunk !== "function" && !this.flagsOrThunk.mayFail) return NOTHING_FAILS;
    let degraded = false;
    let c: Cond;
    if (typeof source === "function") {
      c = source({
        get: (t, q) => {
          const b = t.pred(q);
          if (b.degraded) degraded = true;
          return b.c;
        },
        degrade: () => {
          degraded = true;
        },
      });
    } else c = source;
    const b = c.size > SIZE_LIMIT || c.depth > DEPTH_LIMIT ? DEGRADED[p] : { c, degraded };
    return (this.built[p] = b);
  }
}

const NOTHING_FAILS: Built = { c: FALSE, degraded: false };
const DEGRADED: Readonly<Record<Which, Built>> = { u: { c: TRUE, degraded: true }, l: { c: FALSE, degraded: true }, e: { c: TRUE, degraded: true } };

/** Nothing known: may be true, may fail (the sound fallback). */
export const UNKNOWN = new Triple({ shapeTight: false, mayFail: true }, { u: TRUE, l: FALSE, e: TRUE });
/** Always an evaluation error. */
export const ERROR: Triple = UNKNOWN;

const TIGHT: Flags = { shapeTight: true, mayFail: false };
const ALWAYS = new Triple(TIGHT, { u: TRUE });
const NEVER = new Triple(TIGHT, { u: FALSE });

/** A fixed answer. */
export function constant(b: boolean): Triple {
  return b ? ALWAYS : NEVER;
}

/** An exact, error-free condition. */
export function exactly(c: Cond): Triple {
  return new Triple(TIGHT, { u: c });
}

/** An error-free answer known only between `l` (surely true) and `u` (maybe true). */
export function between(u: Cond, l: Cond): Triple {
  return same(u, l) ? exactly(u) : new Triple({ shapeTight: false, mayFail: false }, { u, l });
}

/** Any three conditions (each sound on its own). */
export function loose(u: Cond, l: Cond, e: Cond): Triple {
  return new Triple({ shapeTight: false, mayFail: e !== FALSE }, { u, l, e });
}

/** A triple whose flags and predicates are worked out when read. */
export function lazy(flags: () => Flags, build: Readonly<Record<Which, (r: Reader) => Cond>>): Triple {
  return new Triple(flags, build);
}

export function negate(t: Triple): Triple {
  if (t === UNKNOWN) return UNKNOWN;
  if (t === ALWAYS) return NEVER;
  if (t === NEVER) return ALWAYS;
  return new Triple(() => ({ shapeTight: t.shapeTight, mayFail: t.mayFail }), {
    u: (r) => not(r.get(t, "l")),
    l: (r) => not(r.get(t, "u")),
    e: (r) => r.get(t, "e"),
  });
}

/** `a and b`, `b` evaluated only when `a` is true. */
export function both(a: Triple, b: Triple): Triple {
  return chain("and", [a, b]);
}

/** `a or b`, `b` evaluated only when `a` is false. */
export function either(a: Triple, b: Triple): Triple {
  return chain("or", [a, b]);
}

/** An operand of a chain: a triple, or how to translate it (when a predicate first reaches it). */
export type Operand = Triple | (() => Triple);

type Kind = "and" | "or";
const junctionOf = (k: Kind, parts: readonly Cond[]) => (k === "and" ? andAll(parts) : orAll(parts));
const width = (c: Cond, k: Kind) => (c.k === k ? c.xs.length : 1);
const other = (k: Kind): Kind => (k === "and" ? "or" : "and");

/**
 * The `k` of predicate `p` of every operand, flat, read left to right and stopped as soon as it is
 * over the bounds: then it falls back (`u` of an or-chain, `l` of an and-chain need every operand).
 */
function flat(r: Reader, k: Kind, ops: Iterable<Triple>, p: Which): Cond {
  const absorbing = k === "and" ? FALSE : TRUE;
  let parts: Cond[] = [];
  let size = 1;
  let wide = 0;
  let deep = 0;
  let compactions = 0;
  for (const t of ops) {
    const c = r.get(t, p);
    if (c === absorbing) return c;
    size += c.size;
    wide += width(c, k);
    deep = Math.max(deep, c.depth);
    parts.push(c);
    if (size > SIZE_LIMIT || deep + junctionHeight(wide) > DEPTH_LIMIT) {
      // The sums count repeated parts (operands on one selector share their walk's tests), which the
      // junction keeps once: measure it, a few times at most (each costs what it holds).
      const joined = junctionOf(k, parts);
      if (++compactions > MAX_COMPACTIONS || joined.size > SIZE_LIMIT || joined.depth > DEPTH_LIMIT) {
        r.degrade();
        return FALLBACK[p];
      }
      parts = [joined];
      // As one part: its size, its width, the depth of its deepest part.
      [size, wide, deep] = [joined.size, width(joined, k), joined.k === k ? joined.depth - junctionHeight(joined.xs.length) : joined.depth];
    }
  }
  return junctionOf(k, parts);
}

/** How often a flat predicate past its estimated bounds is measured before it falls back. */
const MAX_COMPACTIONS = 8;

/** How one predicate of a chain nests: X_i = outer(a_i, inner(b_i, X_{i+1})), from `end` (or `tail` when cut). */
interface Nesting {
  readonly outer: Kind;
  readonly a: (r: Reader, t: Triple) => Cond;
  readonly b: (r: Reader, t: Triple) => Cond;
  readonly end: Cond;
  readonly tail: Cond;
}

const NESTINGS = {
  // u = u1 ∧ (e1 ∨ (u2 ∧ (e2 ∨ …)))
  andU: { outer: "and", a: (r, t) => r.get(t, "u"), b: (r, t) => r.get(t, "e"), end: TRUE, tail: TRUE },
  // e = e1 ∨ (u1 ∧ (e2 ∨ (u2 ∧ …)))
  andE: { outer: "or", a: (r, t) => r.get(t, "e"), b: (r, t) => r.get(t, "u"), end: FALSE, tail: TRUE },
  // l = l1 ∨ (¬u1 ∧ (l2 ∨ …)); an operand that cannot fail needs no ¬u (it is false where not true)
  orL: { outer: "or", a: (r, t) => r.get(t, "l"), b: (r, t) => (t.mayFail ? not(r.get(t, "u")) : TRUE), end: FALSE, tail: FALSE },
  // e = e1 ∨ (¬l1 ∧ (e2 ∨ …))
  orE: { outer: "or", a: (r, t) => r.get(t, "e"), b: (r, t) => not(r.get(t, "l")), end: FALSE, tail: TRUE },
} satisfies Record<string, Nesting>;

/**
 * One predicate of a chain, nested as the chain is evaluated, its operands read left to right while
 * it stays within the bounds; the rest is cut (read as unknown: `tail`). A run of operands that
 * cannot fail nests as one level (for them either `a` or `b` is a constant: and-chain `u` =
 * u1 ∧ u2 ∧ … ∧ (the rest)), so a long run stays flat.
 */
function nested(r: Reader, ops: Iterable<Triple>, n: Nesting): Cond {
  const inner = other(n.outer);
  const outerAbsorbing = n.outer === "and" ? FALSE : TRUE;
  const innerAbsorbing = inner === "and" ? FALSE : TRUE;
  const levels: { a: Cond[]; b: Cond[]; wa: number; wb: number; run: boolean }[] = [];
  const height = (l: { wa: number; wb: number }) => junctionHeight(l.wa + 1) + junctionHeight(l.wb + 1);
  let size = 1;
  let closed = 0; // the height of the levels before the last
  let deep = 1;
  let last = n.end;
  for (const t of ops) {
    // The flags first: an operand that cannot fail then has no `e` to build.
    const mayFail = t.mayFail;
    const a = n.a(r, t);
    const b = n.b(r, t);
    const top = levels[levels.length - 1];
    const joins = !mayFail && top !== undefined && top.run;
    const next = joins ? { wa: top.wa + width(a, n.outer), wb: top.wb + width(b, inner) } : { wa: width(a, n.outer), wb: width(b, inner) };
    const before = joins || top === undefined ? closed : closed + height(top);
    if (size + a.size + b.size + 2 > SIZE_LIMIT || before + height(next) + Math.max(deep, a.depth, b.depth) > DEPTH_LIMIT) {
      r.degrade();
      last = n.tail;
      break;
    }
    size += a.size + b.size + 2;
    deep = Math.max(deep, a.depth, b.depth);
    closed = before;
    if (joins) {
      top.a.push(a);
      top.b.push(b);
      top.wa = next.wa;
      top.wb = next.wb;
    } else levels.push({ a: [a], b: [b], ...next, run: !mayFail });
    // Nothing after this operand changes the answer.
    if (a === outerAbsorbing || b === innerAbsorbing) break;
  }
  let x = last;
  for (let g = levels.length - 1; g >= 0; g--) {
    const { a, b } = levels[g]!;
    x = junctionOf(n.outer, [...a, junctionOf(inner, [...b, x])]);
  }
  return x;
}

/**
 * `t1 and t2 and …` / `t1 or t2 or …`, evaluated left to right with short circuits. Fixed answers
 * fold (the operands after one that decides are never evaluated); operands are translated when a
 * predicate reaches them.
 */
export function chain(k: Kind, ops: readonly Operand[]): Triple {
  const unit = k === "and" ? ALWAYS : NEVER;
  const absorbing = k === "and" ? NEVER : ALWAYS;
  const got: Triple[] = [];
  const at = (i: number): Triple => (got[i] ??= ((o: Operand) => (typeof o === "function" ? o() : o))(ops[i]!));
  /** The operands evaluated, in order: up to the first fixed answer that decides, the others skipped. */
  const operands = function* (): Generator<Triple> {
    for (let i = 0; i < ops.length; i++) {
      const t = at(i);
      if (t === unit) continue;
      yield t;
      if (t === absorbing) return;
    }
  };
  if (ops.length === 0) return unit;
  if (ops.length === 1) return at(0);
  const flags = (): Flags => {
    let shapeTight = true;
    let mayFail = false;
    let any = false;
    for (const t of operands()) {
      any = true;
      shapeTight &&= t.shapeTight;
      mayFail ||= t.mayFail;
      if (!shapeTight && mayFail) break;
    }
    return any ? { shapeTight, mayFail } : TIGHT;
  };
  return lazy(flags, {
    u: (r) => (k === "and" ? nested(r, operands(), NESTINGS.andU) : flat(r, "or", operands(), "u")),
    l: (r) => (k === "and" ? flat(r, "and", operands(), "l") : nested(r, operands(), NESTINGS.orL)),
    e: (r) => nested(r, operands(), k === "and" ? NESTINGS.andE : NESTINGS.orE),
  });
}

/** Cases that exclude each other and cover every row, each with its own answer. */
export function cases(parts: readonly { readonly when: Cond; readonly then: Triple }[]): Triple {
  // Cases with the same answer are one case.
  const grouped = new Map<Triple, Cond[]>();
  for (const p of parts) {
    if (p.when === FALSE) continue;
    const g = grouped.get(p.then);
    if (g) g.push(p.when);
    else grouped.set(p.then, [p.when]);
  }
  const live = [...grouped].map(([then, whens]) => ({ when: orAll(whens), then }));
  if (live.length === 0) return NEVER; // no case: cannot happen for cases that cover every row
  if (live.length === 1 && live[0]!.when === TRUE) return live[0]!.then;
  const build = (p: Which) => (r: Reader) => orAll(live.map((x) => andAll([x.when, r.get(x.then, p)])));
  return lazy(() => ({ shapeTight: live.every((p) => p.then.shapeTight), mayFail: live.some((p) => p.then.mayFail) }), {
    u: build("u"),
    l: build("l"),
    e: build("e"),
  });
}
