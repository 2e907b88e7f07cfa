/**
 * Which events a stream may and wants to see: the namespaces its token may read (the ACL), the
 * namespace and topics it asked for, then its filter, in that order, so that the filter never reads
 * an event the token may not read.
 */
import type { EvaluationBudget } from "filter-expr";
import type { ItemFilter } from "../lists/filters.js";
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

/** What `FilterSet` needs of a filter (the library's `compile` result, or one derived from it). */
export interface GuardedFilter {
  readonly expression: string;
  readonly ast: ItemFilter["ast"];
  evaluate(event: StreamEvent): boolean;
}

/**
 * The stream's filter behind its admission: false without evaluating the filter when the admission
 * refuses the event, else the filter's answer with `limit` evaluation steps (`--filter-budget`, a fresh
 * budget per event). An evaluation error (or a budget run out) throws `FilterEvaluationError`.
 *
 * The result keeps the compiled filter's own settings (copied from it: `FilterSet` reads them to index
 * the filter by its leading equality), so that `FilterSet` still indexes it: a filter that is false
 * without error where its key leaf is false stays so behind the admission.
 */
export function guardedFilter(filter: ItemFilter, admission: Admission, limit: number): GuardedFilter {
  const budget: EvaluationBudget = { steps: limit };
  const evaluate = (event: StreamEvent): boolean => {
    if (!admits(admission, event)) return false;
    budget.steps = limit;
    return filter.evaluate(event, budget);
  };
  const guarded = Object.create(filter) as GuardedFilter;
  for (const symbol of Object.getOwnPropertySymbols(filter)) {
    Object.defineProperty(guarded, symbol, { value: (filter as unknown as Record<symbol, unknown>)[symbol] });
  }
  Object.defineProperty(guarded, "evaluate", { value: evaluate });
  return guarded;
}
