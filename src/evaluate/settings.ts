/**
 * How each compiled filter was made (its root type, evaluation options and step limit), for the
 * consumers that evaluate parts of it (`FilterTable`): they must evaluate with the same settings.
 */
import type { EvaluateOptions } from "./common.js";
import type { Type } from "../semantics/schema.js";

export interface FilterSettings {
  readonly root: Type;
  readonly options: EvaluateOptions;
  /** `compile`'s `maxSteps`: each evaluation has a budget. */
  readonly maxSteps: number | undefined;
}

/** The settings of the filters `compile` made (a filter made otherwise has none). */
export const filterSettings = new WeakMap<object, FilterSettings>();
