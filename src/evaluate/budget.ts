/**
 * Evaluation budgets: a bound on the work one evaluation (or a run of them) may do, so that a small
 * filter whose nested `any`/`all` cost the product of the list lengths fails fast instead of freezing
 * its caller. Both evaluators charge the same steps at the same points, so that they agree on where a
 * budget runs out:
 * - evaluating an expression against a datum charges one step per match test of its top level (outside
 *   any collection body), before anything is evaluated;
 * - each iteration of a collection body charges one step, plus one per match test of the body's own
 *   level (not inside a nested collection), before the body is evaluated.
 * The match tests of a level are charged whether or not short-circuiting skips some of them: the count
 * must not depend on the order in which the compiler chooses to run them.
 * - a regular expression's test also charges what matching that text costs (`Pattern.cost` of its
 *   length), when it runs, before matching. It depends on the data, so the compiler never moves such
 *   a test (it is `metered` in the plan): both evaluators run, and charge, the same tests in the same
 *   order.
 */
import type { Span } from "../errors.js";
import { evaluationError } from "../messages.js";
import type { Pattern } from "../semantics/pattern.js";
import type { Expr } from "../syntax/ast.js";
import { levelMatches } from "../semantics/facts.js";

/**
 * A mutable count of the steps an evaluation may still take; evaluation decrements it. Share one
 * budget across many evaluations to bound them together (a server: one budget per request). Once it
 * is below zero, every evaluation with it throws `FilterEvaluationError` with code `too-expensive`.
 */
export interface EvaluationBudget {
  steps: number;
}

/** The steps of one iteration of a collection body: one, plus the match tests of the body's level. */
export function iterationSteps(body: Expr): number {
  return 1 + levelMatches(body);
}

/**
 * Takes `steps` from `budget`; when that leaves it below zero, throws the `too-expensive` error at
 * `span` (the outermost `any`/`all` being iterated, or the whole expression for its top level).
 */
export function charge(budget: EvaluationBudget, steps: number, source: string, span: Span): void {
  if ((budget.steps -= steps) < 0) {
    throw evaluationError({ source, span }, "too-expensive");
  }
}

/**
 * `pattern`, its tests taking their cost from the running evaluation's budget (`budget()`, when
 * there is one) before matching; a test it cannot afford throws `too-expensive` at `span()` without
 * running.
 */
export function meteredPattern(pattern: Pattern, budget: () => EvaluationBudget | undefined, source: string, span: () => Span): Pattern {
  if (pattern.error !== undefined) return pattern;
  return {
    ...pattern,
    test: (text) => {
      const b = budget();
      if (b !== undefined) {
        const cost = pattern.cost(text.length);
        if (cost > 0) charge(b, cost, source, span());
      }
      return pattern.test(text);
    },
  };
}
