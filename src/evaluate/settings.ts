/**
 * How each compiled filter was made (its root type, evaluation options and step limit), for the
 * consumers that evaluate parts of it (`FilterTable`): they must evaluate with the same settings.
 */
import type { EvaluationRules } from "../semantics/rules.js";
import type { Target } from "../releases.js";
import type { Type } from "../semantics/schema.js";

export interface FilterSettings {
  readonly root: Type;
  readonly options: EvaluationRules;
  /** `compile`'s `maxSteps`: each evaluation has a budget. */
  readonly maxSteps: number | undefined;
  /** The release the filter answers as. */
  readonly target: Target;
}

/** The key of a compiled filter's settings (a property, not a `WeakMap` entry: compiling stays cheap, and the collector has no ephemerons to trace). */
export const SETTINGS: unique symbol = Symbol("filter settings");

/** The settings of a filter `compile` made; undefined for a filter made otherwise. */
export function settingsOf(filter: object): FilterSettings | undefined {
  return Object.prototype.hasOwnProperty.call(filter, SETTINGS) ? (filter as { [SETTINGS]: FilterSettings })[SETTINGS] : undefined;
}
