/**
 * The three NULL-free predicates of a node and how they combine (docs/sql.md):
 * - `u`: the node may be true or raise an error (the WHERE keeps such rows);
 * - `l`: the node is surely true, without error;
 * - `e`: the node may raise an error.
 * `tight` records that `u` implies `l` (the rows `u` selects are surely true, without error), so the
 * translation of a tight root is exact. With left-to-right short-circuit evaluation:
 *   A and B: u = uA ∧ (eA ∨ uB),  l = lA ∧ lB,          e = eA ∨ (uA ∧ eB)
 *   A or B:  u = uA ∨ uB,         l = lA ∨ (¬uA ∧ lB),   e = eA ∨ (¬lA ∧ eB)
 *   not A:   u = ¬lA,             l = ¬uA,               e = eA
 */
import { and, FALSE, not, or, same, size, TRUE, type Cond } from "./sql.js";

export interface Triple {
  readonly u: Cond;
  readonly l: Cond;
  readonly e: Cond;
  readonly tight: boolean;
}

/** Nothing known: may be true, may fail (the sound fallback). */
export const UNKNOWN: Triple = { u: TRUE, l: FALSE, e: TRUE, tight: false };
/** Always an evaluation error. */
export const ERROR: Triple = UNKNOWN;

const ALWAYS: Triple = { u: TRUE, l: TRUE, e: FALSE, tight: true };
const NEVER: Triple = { u: FALSE, l: FALSE, e: FALSE, tight: true };

/** A fixed answer. */
export function constant(b: boolean): Triple {
  return b ? ALWAYS : NEVER;
}

/** An exact, error-free condition. */
export function exactly(c: Cond): Triple {
  return { u: c, l: c, e: FALSE, tight: true };
}

/** An error-free answer known only between `l` (surely true) and `u` (maybe true). */
export function between(u: Cond, l: Cond): Triple {
  return { u, l, e: FALSE, tight: same(u, l) };
}

export function negate(t: Triple): Triple {
  if (t === UNKNOWN) return UNKNOWN;
  if (t === ALWAYS) return NEVER;
  if (t === NEVER) return ALWAYS;
  return { u: not(t.l), l: not(t.u), e: t.e, tight: t.tight };
}

/** `a and b`, `b` evaluated only when `a` is true. */
export function both(a: Triple, b: Triple): Triple {
  return { u: and(a.u, or(a.e, b.u)), l: and(a.l, b.l), e: or(a.e, and(a.u, b.e)), tight: a.tight && b.tight };
}

/** `a or b`, `b` evaluated only when `a` is false. */
export function either(a: Triple, b: Triple): Triple {
  return { u: or(a.u, b.u), l: or(a.l, and(not(a.u), b.l)), e: or(a.e, and(not(a.l), b.e)), tight: a.tight && b.tight };
}

/** Cases that exclude each other and cover every row, each with its own answer. */
export function cases(parts: readonly { readonly when: Cond; readonly then: Triple }[]): Triple {
  // Cases with the same answer are one case.
  const grouped = new Map<Triple, Cond[]>();
  for (const p of parts) {
    if (p.when.k === "const" && !p.when.v) continue;
    const g = grouped.get(p.then);
    if (g) g.push(p.when);
    else grouped.set(p.then, [p.when]);
  }
  const live = [...grouped].map(([then, whens]) => ({ when: or(...whens), then }));
  return {
    u: or(...live.map((p) => and(p.when, p.then.u))),
    l: or(...live.map((p) => and(p.when, p.then.l))),
    e: or(...live.map((p) => and(p.when, p.then.e))),
    tight: live.every((p) => p.then.tight),
  };
}

/** The largest translation kept; beyond it a node falls back to UNKNOWN (sound, looser). */
export const SIZE_LIMIT = 20_000;

export function bounded(t: Triple): Triple {
  return size(t.u) + size(t.l) + size(t.e) > SIZE_LIMIT ? UNKNOWN : t;
}
