/**
 * Near misses: the filters that select the items failing exactly one part of a filter, for "why not?"
 * beside the items that match (the playground asks a server's list endpoint with them).
 */
import { conjuncts, type Span } from "./ast.js";
import { parse, type ParseOptions } from "./parse.js";
import { print } from "./print.js";

/** The filter of the items that fail one part of another filter and pass all its other parts. */
export interface NearMissFilter {
  /** The part they fail, in the original filter. */
  readonly part: Span;
  /** The filter: every part (as `print` writes it), in order, the failed one negated. */
  readonly filter: string;
}

/**
 * For `A and B and C` (its parts: the operands of the top-level `and`, nested ones flattened), the
 * filters `not (A) and (B) and (C)`, `(A) and not (B) and (C)` and `(A) and (B) and not (C)`; for a
 * filter of one part, `not (F)`. Each keeps exactly the items that fail that part and pass the others,
 * and its parts run in the original order, so a part the original never reached for an item (the
 * parts after the one it fails) may raise an evaluation error there. Throws `FilterSyntaxError` as
 * `parse` does; a filter near the parse budget may give texts past it.
 */
export function nearMissFilters(expression: string, options: ParseOptions = {}): NearMissFilter[] {
  const parts = conjuncts(parse(expression, options));
  const texts = parts.map((p) => `(${print(p)})`);
  return parts.map((p, i) => ({ part: p.span, filter: texts.map((t, j) => (j === i ? `not ${t}` : t)).join(" and ") }));
}
