/**
 * Which events a stream may and wants to see: the namespaces its token may read (the ACL), the
 * namespace and topics it asked for, then its filter, in that order, so that the filter never reads
 * an event the token may not read.
 */
import type { EvaluationBudget } from "filter-expr";
import { stepsTaken, type ItemFilter } from "../lists/filters.js";
import type { TopicKeys } from "./query.js";
import type { StreamEvent, Topic } from "./schema.js";

/** The checks before a stream's filter. */
export interface Admission {
  /** Namespaces the token may read jobs in; null: every namespace. */
  readable: ReadonlySet<string> | null;
  /** The namespace asked for; `*`: every one (that the token may read). */
  namespace: string;
  /** Topics and keys asked for; null: everything. */
  topics: ReadonlyMap<Topic, TopicKeys> | null;
}

/** True when the ACL, the namespace and the topics let the event through (cheap: no filter). */
export function admits(a: Admission, e: StreamEvent): boolean {
  if (a.readable !== null && !a.readable.has(e.Namespace)) return false;
  if (a.namespace !== "*" && a.namespace !== e.Namespace) return false;
  if (a.topics === null) return true;
  const keys = a.topics.get(e.Topic);
  return keys !== undefined && (keys === "*" || keys.has(e.Key));
}

/** A stream's compiled filter (what `FilterSet` indexes) and how the stream evaluates it (behind its admission). */
export interface GuardedFilter {
  readonly compiled: ItemFilter;
  evaluate(event: StreamEvent): boolean;
  /** The steps of the budget `evaluate` gives the filter on each event. */
  readonly steps: number;
}

/**
 * The stream's filter behind its admission: false without evaluating the filter when the admission
 * refuses the event, else the filter's answer with `steps` evaluation steps (a fresh budget per event),
 * counted in `counts` (evaluations and the steps they took; only past the admission: the counts never
 * depend on an event the token may not read). An evaluation error (or a budget run out) throws
 * `FilterEvaluationError`. Where the filter is false by its key leaf, so is this: `FilterSet` indexes
 * the compiled filter and runs this.
 */
export function guardedFilter(filter: ItemFilter, admission: Admission, steps: number, counts: { evaluations: number; steps: number }): GuardedFilter {
  const budget: EvaluationBudget = { steps };
  const evaluate = (event: StreamEvent): boolean => {
    if (!admits(admission, event)) return false;
    counts.evaluations++;
    budget.steps = steps;
    try {
      return filter.evaluate(event, budget);
    } finally {
      counts.steps += stepsTaken(steps, budget);
    }
  };
  return { compiled: filter, evaluate, steps };
}
