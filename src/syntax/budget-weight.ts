/**
 * The reference's parse budget and a cheap bound of what an expression costs it (budget.ts replays
 * the count itself): kept apart from the replay and its grammar, so that a parse that stays far
 * inside the budget loads neither.
 */

/** The reference's default budget (`CreateEvaluator` without `WithMaxExpressions`). */
export const REFERENCE_PARSE_BUDGET = 2_000_000;

/**
 * Steps per unit of `budgetWeight` that the reference's parser never exceeds on an expression it
 * accepts. Measured: at most about 90 (nested collection heads, chains of index keys); the margin
 * is checked by test/syntax/budget.property.test.ts on generated expressions and on the corpus.
 */
const STEPS_PER_WEIGHT = 250;
const WEIGHT_BASE = 20;

/**
 * A cheap weight of an expression: each character counts 4^d, where d is its depth in parentheses
 * (outside string literals), plus a constant. The reference's count of an expression it accepts is
 * at most `STEPS_PER_WEIGHT` times this weight: its parser tries what a parenthesis holds about four
 * times per enclosing parenthesis, everything else a bounded number of times.
 */
export function budgetWeight(text: string): number {
  let w = 1;
  let depth = 0;
  let sum = WEIGHT_BASE;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */ || c === 96 /* ` */) {
      let j = i + 1;
      while (j < n && text.charCodeAt(j) !== c) j += c === 34 && text.charCodeAt(j) === 92 /* \ */ ? 2 : 1;
      sum += w * (Math.min(j, n - 1) - i + 1);
      i = j;
    } else if (c === 40 /* ( */) {
      sum += w;
      depth++;
      w *= 4;
    } else if (c === 41 /* ) */ && depth > 0) {
      depth--;
      w /= 4;
      sum += w;
    } else {
      sum += w;
    }
  }
  return sum;
}

/** True when the reference's count for an expression it accepts may exceed `max` (a cheap test). */
export function budgetMayExceed(text: string, max: number): boolean {
  if (max === Infinity) return false;
  // Every character weighs at least 1: a long text may run out whatever its shape.
  if ((text.length + WEIGHT_BASE) * STEPS_PER_WEIGHT > max) return true;
  // Without scanning: every character at the depth of the number of "(" (native indexOf).
  let bound = (text.length + WEIGHT_BASE) * STEPS_PER_WEIGHT;
  for (let i = text.indexOf("("); i >= 0 && bound <= max; i = text.indexOf("(", i + 1)) bound *= 4;
  return bound > max && budgetWeight(text) * STEPS_PER_WEIGHT > max;
}
