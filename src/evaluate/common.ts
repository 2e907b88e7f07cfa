/**
 * What both evaluators need beyond the semantics modules: evaluation options, selector keys and
 * texts, bound names of collection expressions, and the error of a failed walk.
 */
import type { Binding, Selector } from "../syntax/ast.js";
import { selectorSource } from "../syntax/parser.js";
import { stepError, type Site } from "../semantics/operators.js";
import type { StepFailure, WalkErrorReporter } from "../semantics/select.js";

/** Options of evaluation that mirror the reference library's. */
export interface EvaluateOptions {
  /**
   * A value to use wherever a selector names a missing key or field (the reference's
   * `WithUnknownValue`). Unset by default: a missing key is an error or takes the operator's fixed answer.
   */
  unknownValue?: unknown;
}

/** The keys of a selector's steps. */
export function selectorKeys(s: Selector): string[] {
  return s.segments.map((seg) => seg.name);
}

/** The text of the first `count` steps of a selector, for messages. */
export function selectorPrefix(s: Selector, count: number): string {
  if (count === 0) return "";
  if (s.form === "pointer") return `"/${s.segments.slice(0, count).map((x) => x.name).join("/")}"`;
  return selectorSource({ ...s, segments: s.segments.slice(0, count) });
}

/** A reporter that throws the error of a failed step of `selector`, `offset` steps into it. */
export function walkReporter(site: Pick<Site, "source" | "span">, selector: Selector, offset = 0): WalkErrorReporter {
  return (f: StepFailure, i: number) => {
    throw stepError(site, selectorPrefix(selector, i + offset), f);
  };
}

/** The names a binding introduces, with what each stands for. */
export function boundNames(b: Binding): { name: string; role: "default" | "index" | "value" }[] {
  switch (b.mode) {
    case "default":
      return [{ name: b.name, role: "default" }];
    case "index":
      return [{ name: b.index, role: "index" }];
    case "value":
      return [{ name: b.value, role: "value" }];
    case "index-value":
      return [
        { name: b.index, role: "index" },
        { name: b.value, role: "value" },
      ];
  }
}
