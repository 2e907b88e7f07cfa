/**
 * What an expression meets on an older release: the constructs it lacks (each a `not-in-target`
 * syntax error) and the leaves it answers differently (each a `target-behaviour` warning), for
 * `filter-check --target`.
 */
import type { FilterSyntaxError } from "../errors.js";
import { syntaxError } from "../messages.js";
import type { Warning } from "../lint/warning.js";
import type { Type } from "../semantics/schema.js";
import type { Expr } from "../syntax/ast.js";
import { parse } from "../syntax/parse.js";
import { FEATURES, has, NEWEST_TARGET, type Target } from "../releases.js";
import { behaviourChanges, changed } from "./split.js";
import { unsupportedConstructs, unsupportedFacts } from "../syntax/target-grammar.js";

/**
 * Parses as the newest grammar, within the target's parse budget (none before 0.1.15): the AST for
 * `targetFindings`, which reports what the target's grammar lacks.
 */
export function parseForTarget(text: string, target: Target | undefined): Expr {
  return parse(text, target && { maxExpressions: has(target, "parse-budget") ? 0 : Infinity });
}

/** The findings of `expression` (parsed as the newest release does) on `target`. */
export function targetFindings(ast: Expr, source: string, root: Type, target: Target): { errors: FilterSyntaxError[]; warnings: Warning[] } {
  const errors = unsupportedConstructs(ast, target).map((u) => syntaxError("not-in-target", source, u.span, unsupportedFacts(u, source, target)));
  const warnings = behaviourChanges(ast, root, changed(NEWEST_TARGET, target)).map(({ feature, span }): Warning => {
    const { before, since } = FEATURES[feature];
    return {
      code: "target-behaviour",
      summary: `on ${target.name} (go-bexpr ${target.bexpr}) ${before} (go-bexpr ${since} changed it: ${FEATURES[feature].what})`,
      hint: feature === "missing-leaf-answer" ? "guard the key: \"key\" in Map and Map[\"key\"] == …" : "test only strings, lists and maps with is empty",
      span,
    };
  });
  return { errors, warnings };
}
