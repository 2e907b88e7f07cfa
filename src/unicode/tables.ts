/**
 * The Unicode tables of the Go release that builds the scheduler (Go 1.23: Unicode 15.0.0), not the
 * JavaScript engine's (Node 20's ICU is Unicode 17) nor re2js's: the reference's regular expressions
 * (`\pL`, `\p{Greek}`, `(?i)` folding) and its grammar's letter classes (`[\pL\pN…]` in quoted JSON
 * Pointers) read these. Data in `data.ts`, generated from Go's own `unicode` package.
 */
import { CATEGORIES, FOLD_CATEGORIES, FOLD_SCRIPTS, ORBITS, SCRIPTS, UNICODE_VERSION } from "./data.js";

export { UNICODE_VERSION };

/** The largest code point (`unicode.MaxRune`). */
export const MAX_RUNE = 0x10ffff;

/** A set of code points: sorted, disjoint, non-adjacent `[lo, hi]` pairs, flattened. */
export type Ranges = readonly number[];

const TERMINAL = "0123456789abcdefghijklmnopqrstuv";
const CONTINUATION = "ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&*";

/** The numbers of an encoded table (see unicode-data.ts). */
function numbers(text: string): number[] {
  const out: number[] = [];
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const t = TERMINAL.indexOf(ch);
    if (t >= 0) {
      out.push(n * 32 + t);
      n = 0;
    } else n = n * 32 + CONTINUATION.indexOf(ch);
  }
  return out;
}

function decodeRanges(text: string): Ranges {
  const ns = numbers(text);
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < ns.length; i += 2) {
    const lo = next + ns[i]!;
    const hi = lo + ns[i + 1]!;
    out.push(lo, hi);
    next = hi + 1;
  }
  return Object.freeze(out);
}

const decoded = new Map<string, Ranges>();

function lookup(source: Readonly<Record<string, string>>, prefix: string, name: string): Ranges | undefined {
  if (!Object.prototype.hasOwnProperty.call(source, name)) return undefined;
  const key = prefix + name;
  let r = decoded.get(key);
  if (r === undefined) decoded.set(key, (r = decodeRanges(source[name]!)));
  return r;
}

const ANY: Ranges = Object.freeze([0, MAX_RUNE]);

/**
 * The class of `\p{name}` as Go's regexp reads it: `Any`, a general category (`L`, `Lu`, …; Go has
 * no `Cn`, `LC` or binary properties) or a script (`Greek`), case-sensitively; and the runes outside
 * it that fold into it, which `(?i)` adds. Undefined: not a name Go knows.
 */
export function unicodeGroup(name: string): { readonly table: Ranges; readonly fold: Ranges | undefined } | undefined {
  if (name === "Any") return { table: ANY, fold: ANY };
  const category = lookup(CATEGORIES, "c:", name);
  if (category) return { table: category, fold: lookup(FOLD_CATEGORIES, "fc:", name) };
  const script = lookup(SCRIPTS, "s:", name);
  if (script) return { table: script, fold: lookup(FOLD_SCRIPTS, "fs:", name) };
  return undefined;
}

/** Whether `r` is in the set (binary search). */
export function inRanges(r: number, ranges: Ranges): boolean {
  let lo = 0;
  let hi = ranges.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (r < ranges[2 * mid]!) hi = mid - 1;
    else if (r > ranges[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

let folds: Map<number, number> | undefined;

/** Each rune that folds to another, mapped to the next member of its orbit (`unicode.SimpleFold`). */
function foldMap(): Map<number, number> {
  if (folds) return folds;
  folds = new Map();
  const ns = numbers(ORBITS);
  let first = 0;
  for (let i = 0; i < ns.length; ) {
    first += ns[i++]!;
    const orbit = [first];
    for (let k = ns[i++]!; k > 0; k--) orbit.push(orbit[orbit.length - 1]! + ns[i++]!);
    orbit.forEach((c, j) => folds!.set(c, orbit[(j + 1) % orbit.length]!));
  }
  return folds;
}

/** Go's `unicode.SimpleFold`: the next rune of `r`'s case-folding orbit (the smallest after the largest), or `r`. */
export function simpleFold(r: number): number {
  return foldMap().get(r) ?? r;
}

/** The smallest and largest runes that fold to another (Go's regexp `minFold`, `maxFold`). */
export const MIN_FOLD = 0x0041;
export const MAX_FOLD = 0x1e943;

/** Go's `unicode.IsLetter` (`\pL`), for the grammar's letter classes. */
export function isLetter(r: number): boolean {
  return inRanges(r, lookup(CATEGORIES, "c:", "L")!);
}

/** Go's `unicode.IsNumber` (`\pN`). */
export function isNumber(r: number): boolean {
  return inRanges(r, lookup(CATEGORIES, "c:", "N")!);
}
