/**
 * The options of `parse` and their defaults (parse.ts), apart from the parsers, for the fast front
 * (parse-fast.ts) as well.
 */
import type { Target } from "../releases.js";
import { REFERENCE_PARSE_BUDGET } from "./budget-weight.js";

/** Limits on what `parse` accepts; every one has a default. */
export interface ParseOptions {
  /** Longest accepted expression, in UTF-16 code units. Default 1,048,576. */
  maxLength?: number;
  /**
   * Deepest nesting of parentheses, collection bodies and `not`s; 0 means no limit. Default 0: the
   * reference has no such limit, its parse budget (`maxExpressions`) bounds nesting instead.
   */
  maxDepth?: number;
  /**
   * The reference's parse budget, in its own meaning (go-bexpr's `WithMaxExpressions`): the number of
   * grammar expressions its generated parser may try before it gives up with "max number of
   * expressions parsed" (`too-many-expressions`). Default 2,000,000, the reference's; 0 also means
   * the default, as in the reference; `Infinity` means no budget.
   */
  maxExpressions?: number;
  /** Most match expressions (`x == 1`, `"a" in y`, ...) in one filter; 0 means no limit. Default 0. */
  maxMatches?: number;
  /**
   * Parse as this release does (`"go-bexpr@0.1.12"`, `"nomad@1.10.5"`; docs/api.md, "Version
   * targets"): its grammar (no `any`/`all` before 0.1.13, no `is nil` before 0.1.16, each a
   * `not-in-target` syntax error) and its parse budget (none by default before 0.1.15). Default: the
   * newest, go-bexpr 0.1.16. An unknown name throws `UnknownTargetError`.
   */
  target?: string | Target;
}

/** The limits of `parse` (every option but the target) with their defaults. */
export type ParseLimits = Required<Omit<ParseOptions, "target">>;

/** The limits of `parse` by default. */
export const DEFAULT_PARSE_OPTIONS: Readonly<ParseLimits> = Object.freeze({
  maxLength: 1_048_576,
  maxDepth: 0,
  maxExpressions: REFERENCE_PARSE_BUDGET,
  maxMatches: 0,
});

/** The limits `options` sets, over the defaults (without a copy when it sets none). */
export function parseLimits(options: ParseOptions): ParseLimits {
  return options.maxLength === undefined && options.maxDepth === undefined && options.maxExpressions === undefined && options.maxMatches === undefined
    ? DEFAULT_PARSE_OPTIONS
    : { ...DEFAULT_PARSE_OPTIONS, ...definedLimits(options) };
}

/** The limits `options` sets (an option set to undefined keeps its default, as an absent one). */
function definedLimits(options: ParseOptions): Partial<ParseLimits> {
  const out: Partial<ParseLimits> = {};
  for (const key of ["maxLength", "maxDepth", "maxExpressions", "maxMatches"] as const) if (options[key] !== undefined) out[key] = options[key];
  return out;
}

/** True when `text` is only spaces, tabs and line breaks (or nothing): a loop, not a regular expression (compiling stays cheap). */
export function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
  }
  return true;
}
