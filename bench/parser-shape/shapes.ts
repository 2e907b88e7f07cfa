/**
 * The depth probes of bench/parser-shape.ts: the two parsers behind one signature, and the search for
 * the deepest nesting each accepts.
 */
import { FilterSyntaxError, parse } from "../../src/index.js";
import { CONSTRUCTS, withFrames, type Construct } from "./inputs.js";
import { parseLevels } from "./level-parser.js";

export type ParserName = "levels" | "project";

/** The project's `parse` without its budget or length limit, so only the parser can stop it. */
const RAW = { maxExpressions: Infinity, maxLength: Infinity } as const;

/**
 * Parses `text` with the named parser: "ok", "overflow" (a RangeError, or the project's
 * `nesting-too-deep` error, which is how `parse` reports a RangeError), or throws anything else.
 */
export function attempt(parser: ParserName, text: string): "ok" | "overflow" {
  try {
    if (parser === "levels") parseLevels(text);
    else parse(text, RAW);
    return "ok";
  } catch (e) {
    if (e instanceof RangeError) return "overflow";
    if (e instanceof FilterSyntaxError && e.code === "nesting-too-deep") return "overflow";
    throw e;
  }
}

/**
 * The deepest `n` for which `construct(n)` parses, with `pre` frames already on the stack: doubling
 * from 16, then bisection. Returns `cap` when even `cap` parses (no limit found below it).
 */
export function deepest(parser: ParserName, construct: Construct, pre: number, cap: number): number {
  const make = CONSTRUCTS[construct];
  const ok = (n: number) => withFrames(pre, () => attempt(parser, make(n))) === "ok";
  let lo = 0;
  let hi = 16;
  while (hi <= cap && ok(hi)) [lo, hi] = [hi, hi * 2];
  if (hi > cap) {
    if (ok(cap)) return cap;
    hi = cap;
  }
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

