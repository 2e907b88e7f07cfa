/**
 * The evaluation errors a match raises, in the words of messages.ts: where the match stands in the
 * source (`Site`), a kind of value in words, a literal that does not convert to the value's type, an
 * invalid pattern, `any`/`all` over a value that is not a collection, a failed step of a selector.
 */
import type { FilterEvaluationError, Span } from "../errors.js";
import { evaluationError } from "../messages.js";
import type { MatchOp } from "../syntax/ast.js";
import type { Pattern } from "./pattern.js";
import type { Kind, StepFailure } from "./select.js";
import type { ConversionFailure } from "./values.js";

/** Where a match stands in the source, for its errors. */
export interface Site {
  readonly source: string;
  readonly span: Span;
  /** The selector as written. */
  readonly selector: string;
  readonly op: MatchOp;
}

const KIND_WORDS: Readonly<Record<Kind, string>> = {
  string: "a string",
  int: "a signed integer",
  uint: "an unsigned integer",
  float: "a number",
  bool: "a bool",
  list: "a list",
  map: "a map",
  record: "a record",
  invalid: "nil",
};

/** "Priority (a signed integer)" */
export function describeKind(kind: Kind): string {
  return KIND_WORDS[kind];
}

const TARGET_WORDS: Readonly<Record<ConversionFailure["target"], string>> = {
  bool: "bool (true, false, 1, 0, t, f, T, F, TRUE, FALSE, True, False)",
  int: "signed 64-bit integer",
  uint: "unsigned 64-bit integer",
  float: "number",
};

/** The error of a literal that does not convert to the value's type. */
export function conversionError(site: Site, f: ConversionFailure): FilterEvaluationError {
  return evaluationError(site, "invalid-literal", { literal: f.text, outOfRange: f.failure === "range", type: TARGET_WORDS[f.target], selector: site.selector });
}

/** The error of an invalid pattern reached by a string. */
export function regexError(site: Pick<Site, "source" | "span">, pattern: Pattern): FilterEvaluationError {
  return evaluationError(site, "invalid-regex", { pattern: pattern.source, reason: pattern.error! });
}

/** The error of `any`/`all` over a value of `kind`, which is not a list or a map. */
export function notACollection(site: Pick<Site, "source" | "span">, selector: string, kind: Kind, quantifier: string): FilterEvaluationError {
  return evaluationError(site, "not-a-collection", { selector, kind: describeKind(kind), quantifier });
}

/** The error for a failed step of a selector walk. `parent` is the text of the path before the step. */
export function stepError(site: Pick<Site, "source" | "span">, parent: string, f: StepFailure): FilterEvaluationError {
  switch (f.failure) {
    case "missing-key":
      return evaluationError(site, "missing-key", { parent, key: f.key });
    case "unknown-field":
      return evaluationError(site, "unknown-field", { parent, key: f.key, record: f.record });
    case "index-out-of-range":
      return evaluationError(site, "index-out-of-range", { parent, index: f.index, length: f.length });
    case "invalid-index":
      return evaluationError(site, "invalid-index", { parent, key: f.key });
    case "invalid-path":
      return evaluationError(site, "invalid-path", { parent, key: f.key, kind: describeKind(f.kind) });
  }
}
