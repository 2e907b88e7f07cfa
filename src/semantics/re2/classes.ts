/**
 * Character classes as Go's regexp/syntax builds them (parse.go, perl_groups.go): flat `[lo, hi]`
 * pairs, folded with Go's `unicode.SimpleFold`. The functions append in place and return the array,
 * as Go's do, so the parser's class arithmetic (and its limits) follow the reference step for step.
 */
import { MAX_FOLD, MAX_RUNE, MIN_FOLD, simpleFold, type Ranges } from "../../unicode/tables.js";

/** A class under construction. */
export type Runes = number[];

/** Sorts the ranges (lo ascending, hi descending), merges overlapping and abutting ones (`cleanClass`). */
export function cleanClass(r: Runes): Runes {
  const n = r.length / 2;
  if (n < 2) return r;
  let sorted = true;
  for (let i = 2; i < r.length && sorted; i += 2) sorted = r[i]! > r[i - 2]! || (r[i] === r[i - 2] && r[i + 1]! <= r[i - 1]!);
  if (!sorted) {
    // One native numeric sort: lo ascending, then hi descending, packed in one exact double.
    const keys = new Float64Array(n);
    for (let i = 0; i < n; i++) keys[i] = r[2 * i]! * SHIFT + (MAX_RUNE - r[2 * i + 1]!);
    keys.sort();
    for (let i = 0; i < n; i++) {
      const lo = Math.floor(keys[i]! / SHIFT);
      r[2 * i] = lo;
      r[2 * i + 1] = MAX_RUNE - (keys[i]! - lo * SHIFT);
    }
  }
  let w = 2;
  for (let i = 2; i < r.length; i += 2) {
    const lo = r[i]!;
    const hi = r[i + 1]!;
    if (lo <= r[w - 1]! + 1) {
      if (hi > r[w - 1]!) r[w - 1] = hi;
      continue;
    }
    r[w] = lo;
    r[w + 1] = hi;
    w += 2;
  }
  r.length = w;
  return r;
}

/** 2^21: above every rune, so `lo * SHIFT + (MAX_RUNE - hi)` orders ranges as `cleanClass` needs. */
const SHIFT = 0x200000;

/** Appends `lo-hi`, widening the last or next-to-last range when it overlaps or abuts (`appendRange`). */
export function appendRange(r: Runes, lo: number, hi: number): Runes {
  const n = r.length;
  for (let i = 2; i <= 4; i += 2) {
    if (n >= i) {
      const rlo = r[n - i]!;
      const rhi = r[n - i + 1]!;
      if (lo <= rhi + 1 && rlo <= hi + 1) {
        if (lo < rlo) r[n - i] = lo;
        if (hi > rhi) r[n - i + 1] = hi;
        return r;
      }
    }
  }
  r.push(lo, hi);
  return r;
}

/** Appends `lo-hi` and every rune that folds to one in it (`appendFoldedRange`). */
export function appendFoldedRange(r: Runes, lo: number, hi: number): Runes {
  if (lo <= MIN_FOLD && hi >= MAX_FOLD) return appendRange(r, lo, hi);
  if (hi < MIN_FOLD || lo > MAX_FOLD) return appendRange(r, lo, hi);
  if (lo < MIN_FOLD) {
    appendRange(r, lo, MIN_FOLD - 1);
    lo = MIN_FOLD;
  }
  if (hi > MAX_FOLD) {
    appendRange(r, MAX_FOLD + 1, hi);
    hi = MAX_FOLD;
  }
  for (let c = lo; c <= hi; c++) {
    appendRange(r, c, c);
    for (let f = simpleFold(c); f !== c; f = simpleFold(f)) appendRange(r, f, f);
  }
  return r;
}

/** Appends the literal `x`, folded when `fold` (`appendLiteral`). */
export function appendLiteral(r: Runes, x: number, fold: boolean): Runes {
  return fold ? appendFoldedRange(r, x, x) : appendRange(r, x, x);
}

/** Appends a clean class. */
export function appendClass(r: Runes, x: Ranges): Runes {
  const n = r.length;
  // Wholly after the last two ranges: appendRange would only push (x is clean), so copy at once.
  if (x.length > 0 && (n === 0 || x[0]! > Math.max(r[n - 1]!, n >= 4 ? r[n - 3]! : -1) + 1)) {
    for (let i = 0; i < x.length; i++) r.push(x[i]!);
    return r;
  }
  for (let i = 0; i < x.length; i += 2) appendRange(r, x[i]!, x[i + 1]!);
  return r;
}

/** Appends the case folding of a clean class. */
export function appendFoldedClass(r: Runes, x: Ranges): Runes {
  for (let i = 0; i < x.length; i += 2) appendFoldedRange(r, x[i]!, x[i + 1]!);
  return r;
}

/** Appends the complement of a clean class. */
export function appendNegatedClass(r: Runes, x: Ranges): Runes {
  let nextLo = 0;
  for (let i = 0; i < x.length; i += 2) {
    const lo = x[i]!;
    const hi = x[i + 1]!;
    if (nextLo <= lo - 1) appendRange(r, nextLo, lo - 1);
    nextLo = hi + 1;
  }
  if (nextLo <= MAX_RUNE) appendRange(r, nextLo, MAX_RUNE);
  return r;
}

/** The complement of a clean class, in place (`negateClass`). */
export function negateClass(r: Runes): Runes {
  const out = appendNegatedClass([], r);
  r.length = 0;
  for (const x of out) r.push(x);
  return r;
}

/** A Perl (`\d`) or POSIX (`[:alpha:]`) group: its sign and its class. */
export interface CharGroup {
  readonly sign: 1 | -1;
  readonly class: Ranges;
}

const DIGIT: Ranges = [0x30, 0x39];
const SPACE: Ranges = [0x9, 0xa, 0xc, 0xd, 0x20, 0x20];
const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];

function groups(entries: Record<string, Ranges>, name: (key: string, negated: boolean) => string): ReadonlyMap<string, CharGroup> {
  const m = new Map<string, CharGroup>();
  for (const [k, v] of Object.entries(entries)) {
    m.set(name(k, false), { sign: 1, class: v });
    m.set(name(k, true), { sign: -1, class: v });
  }
  return m;
}

/** `\d \D \s \S \w \W` (ASCII only, as in RE2). */
export const PERL_GROUPS = groups({ d: DIGIT, s: SPACE, w: WORD }, (k, neg) => `\\${neg ? k.toUpperCase() : k}`);

/** `[:alnum:]`, `[:^alnum:]`, …. */
export const POSIX_GROUPS = groups(
  {
    alnum: [0x30, 0x39, 0x41, 0x5a, 0x61, 0x7a],
    alpha: [0x41, 0x5a, 0x61, 0x7a],
    ascii: [0x0, 0x7f],
    blank: [0x9, 0x9, 0x20, 0x20],
    cntrl: [0x0, 0x1f, 0x7f, 0x7f],
    digit: DIGIT,
    graph: [0x21, 0x7e],
    lower: [0x61, 0x7a],
    print: [0x20, 0x7e],
    punct: [0x21, 0x2f, 0x3a, 0x40, 0x5b, 0x60, 0x7b, 0x7e],
    space: [0x9, 0xd, 0x20, 0x20],
    upper: [0x41, 0x5a],
    word: WORD,
    xdigit: [0x30, 0x39, 0x41, 0x46, 0x61, 0x66],
  },
  (k, neg) => `[:${neg ? "^" : ""}${k}:]`,
);
