/**
 * `parse`'s answer where the fast path finds it (parse.ts), without loading the full parser
 * (Chevrotain, the reference's budget replay, the older releases' grammars): for the web entry
 * (src/web.ts), which loads those only for a text this declines.
 */
import type { Ast } from "./ast.js";
import { budgetMayExceed, REFERENCE_PARSE_BUDGET } from "./budget-weight.js";
import { isBlank, parseLimits, type ParseOptions } from "./parse-options.js";
import { quickParse } from "./quick-parse.js";
import { has, NEWEST_TARGET, resolveTarget } from "../releases.js";

/**
 * The AST `parse(text, options)` returns, when `parse` would find it on its fast path alone (the
 * newest release's grammar, within every limit and far inside the reference's budget, a text the fast
 * path reads); undefined for anything else, errors included: then `parse` decides (the same checks in
 * the same order, so its answer, error or AST, is the one it gives without this).
 */
export function parseFast(text: string, options: ParseOptions = {}): Ast | undefined {
  if (typeof text !== "string") return undefined;
  const target = options.target === undefined ? NEWEST_TARGET : resolveTarget(options.target);
  if (target !== NEWEST_TARGET) return undefined;
  const limits = parseLimits(options);
  if (text.length > limits.maxLength || isBlank(text)) return undefined;
  const budget = options.maxExpressions || (has(target, "parse-budget") ? REFERENCE_PARSE_BUDGET : Infinity);
  if (budgetMayExceed(text, budget)) return undefined;
  try {
    return quickParse(text, limits, { resume: 0 });
  } catch {
    return undefined;
  }
}
