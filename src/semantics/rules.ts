/**
 * The rules a filter is evaluated by: the options that mirror the reference library's, and what the
 * release evaluated as changes. Every evaluator and every static question reads them.
 */
import { has, type Target } from "../releases.js";

/** Options of evaluation that mirror the reference library's. */
export interface EvaluateOptions {
  /**
   * A value to use wherever a selector names a missing key or field (the reference's
   * `WithUnknownValue`). Unset by default: a missing key is an error or takes the operator's fixed answer.
   */
  unknownValue?: unknown;
}

/**
 * The evaluation options with the rules of the release evaluated as (`target`): what the compiler,
 * the interpreter and every consumer of a filter's settings evaluate with.
 */
export interface EvaluationRules extends EvaluateOptions {
  /** go-bexpr 0.1.11: a key missing from a map at a selector's end is an error, not the operator's fixed answer. */
  readonly missingLeafIsError?: boolean;
}

/** The rules of `options` (its `unknownValue`, if set) for `target`. */
export function evaluationRules(options: EvaluateOptions, target: Target): EvaluationRules {
  const rules: { unknownValue?: unknown; missingLeafIsError?: boolean } = "unknownValue" in options ? { unknownValue: options.unknownValue } : {};
  if (!has(target, "missing-leaf-answer")) rules.missingLeafIsError = true;
  return rules;
}
