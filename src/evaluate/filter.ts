/**
 * What a compiled filter offers (`compile`'s answer, implemented in the package face): the contract
 * that `FilterTable` and `split` take.
 */
import type { Ast } from "../syntax/ast.js";
import type { FilterFacts } from "../semantics/facts.js";
import type { Schema } from "../semantics/schema.js";
import type { EvaluationBudget } from "./budget.js";
import type { PlanNode } from "./compile.js";
import type { Explanation } from "./explain.js";

/** A compiled filter: evaluate it against one datum, or filter a list. */
export interface Filter<T = unknown> {
  /** The expression text. */
  readonly expression: string;
  /** The parsed expression. */
  readonly ast: Ast;
  /** The schema the filter was compiled for, if any. */
  readonly schema: Schema | undefined;
  /**
   * True when the datum matches. Throws `FilterEvaluationError` where the reference fails. With a
   * `budget` (or the `maxSteps` of `compile`, a fresh budget per call), evaluation takes its steps from
   * it and throws `FilterEvaluationError` with code `too-expensive` when it runs out; share one budget
   * across calls to bound them together.
   */
  evaluate(datum: T, budget?: EvaluationBudget): boolean;
  /**
   * The matching items, in order. The first evaluation error (in item order) throws. An array is
   * evaluated a chunk of items at a time, each part of the filter looping over the chunk: faster
   * than `items.filter((x) => f.evaluate(x))`, with the same answers and errors.
   */
  filter<U extends T>(items: Iterable<U>): U[];
  /**
   * How many items match: `filter(items).length`, errors alike (the first, in item order, throws),
   * without building the array of matches, which is most of `filter`'s time on a long list.
   */
  count(items: Iterable<T>): number;
  /**
   * Why `datum` matches or not: what `evaluate` answers (true, false, or the error it throws, as a
   * value) and its witness, the leaves that decide it, each with the value it read (docs/api.md).
   * Compiled on first use; an error's witness and a budget's charges come from the interpreter.
   */
  explain(datum: T, budget?: EvaluationBudget): Explanation;
  /** The optimized plan, for people (`filter-check --explain`). */
  readonly plan: PlanNode;
  /**
   * What the filter means statically: whether it can fail, whether its cost depends on the data, its
   * cost, what it charges a budget per datum, whether its work grows with the datum, its top-level
   * conjuncts and its key leaf (docs/api.md). Found on first use from the AST, without closures.
   */
  readonly facts: FilterFacts;
}
