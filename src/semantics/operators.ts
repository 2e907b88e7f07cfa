/**
 * The operator table: each match operator's base operation, whether it negates it, and its fixed
 * answer when the selector's last step is a key missing from a map. What each base operation does on
 * each kind of value is the table of `table.ts` (re-exported here), read by every evaluator.
 */
import type { FilterEvaluationError, Span } from "../errors.js";
import { evaluationError } from "../messages.js";
import type { Pattern } from "./regex.js";
import type { MatchOp } from "../syntax/ast.js";
import { hasRawBytes } from "../syntax/strings.js";
import type { Kind, StepFailure } from "./select.js";
import { parseBool, parseFloat64, parseInt64, parseUint64, type ConversionFailure, type Converted } from "./values.js";

export { OPERATIONS, applyOperator, dispatchTest, impossibleOn, kindTest, readsEmpty, staticTest } from "./table.js";
export type { Impossibility, KindEntry, LiteralTarget, Operation, StaticTest, Test, TestInput } from "./table.js";

/** A base operation: a key of the operator table (`table.ts`). */
export type { BaseOp } from "./table.js";
import type { BaseOp } from "./table.js";

export interface OperatorInfo {
  readonly base: BaseOp;
  /** The operator is the negation of its base (errors are not negated). */
  readonly negated: boolean;
  /** The answer when the last step of the selector is a key missing from a map. */
  readonly missing: boolean;
}

export const OPERATORS = {
  "==": { base: "equal", negated: false, missing: false },
  "!=": { base: "equal", negated: true, missing: true },
  contains: { base: "in", negated: false, missing: false },
  "not contains": { base: "in", negated: true, missing: true },
  in: { base: "in", negated: false, missing: false },
  "not in": { base: "in", negated: true, missing: true },
  matches: { base: "matches", negated: false, missing: false },
  "not matches": { base: "matches", negated: true, missing: true },
  "is empty": { base: "empty", negated: false, missing: true },
  "is not empty": { base: "empty", negated: true, missing: false },
  "is nil": { base: "nil", negated: false, missing: true },
  "is not nil": { base: "nil", negated: true, missing: false },
} as const satisfies Record<MatchOp, OperatorInfo>;

/** The answer of `any`/`all` over a collection whose last step is a key missing from a map. */
export const COLLECTION_MISSING = { any: false, all: true } as const;

/** Where a match stands in the source, for its errors. */
export interface Site {
  readonly source: string;
  readonly span: Span;
  /** The selector as written. */
  readonly selector: string;
  readonly op: MatchOp;
}


/** A literal's text with its conversions to each Go type, computed once. */
export interface LiteralValue {
  readonly text: string;
  /** True when the text holds raw bytes (not valid UTF-8; see syntax/strings.ts). */
  readonly raw: boolean;
  readonly bool: Converted<boolean>;
  readonly int: Converted<bigint>;
  readonly uint: Converted<bigint>;
  readonly float: Converted<number>;
}

/** Conversions are computed on first use and kept: most literals only ever meet one type. */
class LazyLiteral implements LiteralValue {
  private b?: Converted<boolean>;
  private i?: Converted<bigint>;
  private u?: Converted<bigint>;
  private f?: Converted<number>;
  private r?: boolean;
  constructor(readonly text: string) {}
  get raw(): boolean {
    return (this.r ??= hasRawBytes(this.text));
  }
  get bool(): Converted<boolean> {
    return (this.b ??= parseBool(this.text));
  }
  get int(): Converted<bigint> {
    return (this.i ??= parseInt64(this.text));
  }
  get uint(): Converted<bigint> {
    return (this.u ??= parseUint64(this.text));
  }
  get float(): Converted<number> {
    return (this.f ??= parseFloat64(this.text));
  }
}

export function literalValue(text: string): LiteralValue {
  return new LazyLiteral(text);
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
