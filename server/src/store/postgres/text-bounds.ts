/**
 * Request text as conditions PostgreSQL can run. Its text cannot hold U+0000, and a lone surrogate
 * (which a `next_token` may spell, `~%uD800`) reaches it as U+FFFD, which sorts elsewhere. No stored key
 * holds either (every string a job or deployment stores is well-formed and NUL-free: registration and
 * the data file's loader see to it), so each bound on a key column is rewritten as the bound on plain
 * text that selects the same stored keys, in the order the embedded store compares them
 * (`compareStrings`: code points, as `COLLATE "C"` compares UTF-8 bytes).
 */
import { prefixEnd } from "../../lists/orders.js";

/** Keys at or past (`inclusive`) or past `key`; "all": every key; "none": no key. */
export type Bound = { readonly key: string; readonly inclusive: boolean } | "all" | "none";

/** The first position of `text` that PostgreSQL cannot hold as it is (U+0000, a lone surrogate), or -1. */
function firstUnholdable(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0) return i;
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else return i;
    } else if (unit >= 0xdc00 && unit <= 0xdfff) return i;
  }
  return -1;
}

/** Whether PostgreSQL holds `text` as it is: a value that is not is no stored key, and equals none. */
export function holdable(text: string): boolean {
  return firstUnholdable(text) < 0;
}

/**
 * The stored keys k with `compareStrings(k, target) >= 0` (`after`: k after the target, the bound of a
 * forward walk) or `<= 0` (before: a reverse walk), as a bound PostgreSQL can run. Where the target
 * first differs from text PostgreSQL holds, at a unit u after a holdable head h, every stored key is
 * decided by h and by what follows h in it:
 * - u = U+0000, the smallest unit: h itself sorts before the target, every longer key that starts
 *   with h after it;
 * - u a lone high surrogate: a key's code point there sorts at or past u exactly when it is a
 *   supplementary code point whose high surrogate is u or above, the first being h + (u, U+DC00);
 * - u a lone low surrogate: it sorts after every unit a well-formed key can hold there (units below
 *   U+D800, high surrogates, and U+E000–U+FFFF, which `compareStrings` puts before surrogates), so
 *   only keys past every key that starts with h sort after it.
 */
export function seekBound(target: string, after: boolean): Bound {
  const at = firstUnholdable(target);
  if (at < 0) return { key: target, inclusive: true };
  const head = target.slice(0, at);
  const unit = target.charCodeAt(at);
  if (unit === 0) return { key: head, inclusive: !after };
  if (unit <= 0xdbff) return { key: head + String.fromCodePoint(0x10000 + ((unit - 0xd800) << 10)), inclusive: after };
  const end = prefixEnd(head);
  if (end === undefined) return after ? "none" : "all";
  return { key: end, inclusive: after };
}

/** The keys before `target` (`compareStrings(k, target) < 0`): the complement of `seekBound(target, true)`. */
export function beforeBound(target: string): Bound {
  const past = seekBound(target, true);
  if (past === "all") return "none";
  if (past === "none") return "all";
  return { key: past.key, inclusive: !past.inclusive };
}
