/**
 * The inputs of bench/parser-shape.ts, free of the library so that its fresh-process probes
 * (cold-probe.ts) load only the parser they probe: the deep-nesting texts, the random logical corpus
 * and the "pre-used stack" wrapper.
 */
import { prng } from "../jobs.js";

/** The nesting constructs whose depth is measured. */
export const CONSTRUCTS = {
  /** `any x as v { … v == 1 … }`: the reference accepts 1,501 levels within its parse budget. */
  collections: (n: number): string => `${"any x as v { ".repeat(n)}v == 1${" }".repeat(n)}`,
  /** `((( x == 1 )))`: the reference's budget allows 6 pairs; the raw parser depth is measured. */
  parens: (n: number): string => `${"(".repeat(n)}x == 1${")".repeat(n)}`,
  /** `not not … x == 1`: the reference accepts 49,987 `not`s. */
  nots: (n: number): string => `${"not ".repeat(n)}x == 1`,
} as const;

export type Construct = keyof typeof CONSTRUCTS;

/** A plain JavaScript function with a few locals, as a request handler's callers would have. */
function frame<T>(n: number, f: () => T, a: number, b: string): T {
  if (n === 0) return f();
  const c = a + b.length;
  const r = frame(n - 1, f, c & 0xff, b);
  return c < 0 ? (undefined as T) : r;
}

/** Runs `f` under `n` frames of plain recursion (the stack already partly used). */
export function withFrames<T>(n: number, f: () => T): T {
  return frame(n, f, 1, "x");
}

/** How many `frame`s fit on the stack (to say what share `withFrames(n)` takes). */
export function maxFrames(): number {
  let lo = 0;
  let hi = 1;
  const fits = (n: number) => {
    try {
      withFrames(n, () => 0);
      return true;
    } catch (e) {
      if (e instanceof RangeError) return false;
      throw e;
    }
  };
  while (fits(hi)) [lo, hi] = [hi, hi * 2];
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * `count` random expressions of the logical layer only (and/or/not/parentheses/collections over
 * simple matches such as `x == 1`), from a seeded PRNG: the same corpus on every run.
 */
export function logicalCorpus(count: number, seed = 7): string[] {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const match = (): string => `${pick(["x", "y", "v", "Priority", "a.b"])} ${pick(["==", "!="])} ${Math.floor(r() * 100)}`;
  const notExpr = (d: number): string => {
    const nots = r() < 0.2 ? (r() < 0.2 ? "not not " : "not ") : "";
    return nots + (d > 0 && r() < 0.3 ? `(${orExpr(d - 1)})` : match());
  };
  const andExpr = (d: number): string => Array.from({ length: 1 + Math.floor(r() * 3) }, () => notExpr(d)).join(" and ");
  const collection = (d: number): string => `${pick(["any", "all"])} ${pick(["xs", "Tags", "a.list"])} as ${pick(["v", "e"])} { ${orExpr(d - 1)} }`;
  const orExpr = (d: number): string => {
    if (d > 0 && r() < 0.12) return collection(d);
    const chain = Array.from({ length: 1 + Math.floor(r() * 3) }, () => andExpr(d)).join(" or ");
    return d > 0 && r() < 0.1 ? `${chain} or ${collection(d)}` : chain;
  };
  return Array.from({ length: count }, () => orExpr(3));
}
