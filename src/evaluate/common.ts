/**
 * What both evaluators need beyond the semantics modules: selector texts, the placeholder errors of
 * collection expressions, and the error of a failed walk.
 */
import type { Selector } from "../syntax/ast.js";
import { selectorSource } from "../syntax/print.js";
import type { FilterEvaluationError } from "../errors.js";
import { evaluationError } from "../messages.js";
import { stepError, type Site } from "../semantics/match-errors.js";
import type { StepFailure, WalkErrorReporter } from "../semantics/select.js";

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

/** A JSON Pointer's text, as the reference's pointerstructure prints it (`~` → `~0`, `/` → `~1`). */
export function pointerText(parts: readonly string[]): string {
  return parts.map((p) => `/${p.replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** The error of `any S as a, a { … }` over a non-empty collection. */
export function bothPlaceholderError(site: Pick<Site, "source" | "span">, name: string): FilterEvaluationError {
  return evaluationError(site, "invalid-placeholder", { both: name });
}

/**
 * The error of reading the value placeholder of `any k as k, v { … }`: `path` is the value's path
 * (the selector's steps and the index), `rest` the steps read after it, `index` the index or key.
 */
export function hiddenPlaceholderError(site: Pick<Site, "source" | "span">, path: readonly string[], rest: readonly string[], index: number | string): FilterEvaluationError {
  return evaluationError(site, "invalid-placeholder", {
    collection: pointerText(path.slice(0, 1)),
    indexType: typeof index === "number" ? "int" : "string",
    path: pointerText([...path, String(index), ...rest]),
    placeholder: path[0]!,
  });
}
