/**
 * The words of every error the library raises, keyed by phase and error code: the only place they
 * live. Each entry takes the facts of one failure (typed per code) and gives its summary, the message
 * without the position; `syntaxError`, `typeError` and `evaluationError` build the error from them.
 * Every code of `errors.ts` has an entry (the `satisfies` clauses check that), so a new code cannot be
 * raised without its words.
 */
import {
  FilterEvaluationError,
  FilterSyntaxError,
  FilterTypeError,
  type EvaluationErrorCode,
  type Span,
  type SyntaxErrorCode,
  type TypeErrorCode,
  type TypeErrorDetail,
} from "./errors.js";

/** A quoted name, key or literal as messages show it: `"web"`. */
const q = (s: string): string => JSON.stringify(s);
const after = (previous: string | undefined): string => (previous === undefined ? "" : ` after ${previous}`);

/** Facts of "expected …" at a token: what the rule expected, the token before, and the token found. */
export interface Expected {
  /** What may stand here, in words: `an expression`, `"in" or "not in"`. */
  readonly expected: string;
  /** The token before, as a message shows it (`"and"`), if any. */
  readonly after?: string | undefined;
  /** Why, or how to fix it, at the end of the message. */
  readonly note?: string | undefined;
}
const note = (f: Expected): string => (f.note === undefined ? "" : ` (${f.note})`);

/** An operator applied to a value it does not accept: `Priority is a signed integer; matches needs a string`. */
interface NotApplicable {
  readonly selector: string;
  /** How the selector relates to the kind: `is`, `holds` (an element of it), `is a list of`. */
  readonly relation: "is" | "holds" | "is a list of";
  /** The value's kind or type in words: `a signed integer`, `nil`. */
  readonly kind: string;
  readonly op: string;
  /** The operation's requirement from the semantics table: `needs a string`. */
  readonly needs: string;
}
const notApplicable = (f: NotApplicable): string => `${f.selector} ${f.relation} ${f.kind}; ${f.op} ${f.needs}`;

/** An invalid regular expression and RE2's reason. */
interface BadPattern {
  readonly pattern: string;
  readonly reason: string;
}
const badPattern = (f: BadPattern): string => `invalid regular expression ${q(f.pattern)}: ${f.reason}`;

/** The words of syntax errors. */
export const SYNTAX_MESSAGES = {
  "unexpected-input": (
    f: (Expected & { readonly found: string }) | { readonly character: string; readonly advice?: string | undefined } | { readonly notAString: true } | { readonly unparsed: true },
  ) =>
    "notAString" in f
      ? "the expression must be a string"
      : "unparsed" in f
        ? "the expression could not be parsed"
        : "character" in f
        ? `unexpected character ${q(f.character)}${f.advice ? `: ${f.advice}` : ""}`
        : `expected ${f.expected}${after(f.after)}, found ${f.found}${note(f)}`,
  "unexpected-end": (f: Expected) => `expected ${f.expected}${after(f.after)}, but the expression ends${note(f)}`,
  "empty-expression": () => "the expression is empty",
  "missing-whitespace": (f: { readonly between: string; readonly and: string }) => `expected whitespace between ${f.between} and ${f.and}`,
  "unterminated-string": () => "unterminated string literal",
  "invalid-string": (f: { readonly reason: string }) => `invalid string literal: ${f.reason}`,
  "invalid-number": (f: { readonly text: string }) =>
    `invalid number literal ${q(f.text)}: a number is an optional "-", "0" or digits not starting with "0", an optional "." and digits, then whitespace, ")" or the end`,
  "unmatched-parenthesis": (f: { readonly opener: string }) => `expected ")" to close ${f.opener}`,
  "invalid-index": () => 'expected a quoted key after "["',
  "unclosed-index": (f: { readonly opener: string }) => `expected "]" to close ${f.opener}`,
  "invalid-selector": () => 'expected a selector after "in"',
  "input-too-long": (f: { readonly length: number; readonly limit: number }) => `the expression is ${f.length} characters long, more than the limit of ${f.limit}`,
  "nesting-too-deep": (f: { readonly limit?: number }) =>
    f.limit === undefined
      ? "the expression nests too deeply to parse"
      : `the expression nests deeper than the limit of ${f.limit} (parentheses, collection bodies and "not"s)`,
  "too-many-expressions": (f: { readonly budget: number; readonly rule: string }) =>
    `max number of expressions parsed: the reference's parser gives up here, after ${f.budget.toLocaleString("en-US")} steps (rule ${f.rule}); nest fewer parentheses or write a shorter expression`,
  "too-many-matches": (f: { readonly limit: number }) => `the expression has more than the limit of ${f.limit} matches`,
  "not-in-target": (f: { readonly construct: string; readonly since: string; readonly target: string }) =>
    `${f.construct} is not in ${f.target}: it arrived in ${f.since}`,
} as const satisfies Record<SyntaxErrorCode, (facts: never) => string>;

/** The words of static type errors (compile time, against a schema or plain JSON). */
export const TYPE_MESSAGES = {
  "unknown-field": (f: { readonly name: string; readonly record: string; readonly suggestion?: string | undefined }) =>
    `${q(f.name)} is not a field of ${f.record}${f.suggestion ? `; did you mean ${q(f.suggestion)}?` : ""}`,
  "not-a-record": (f: { readonly selector: string; readonly type: string; readonly name: string }) => `${f.selector} is a ${f.type} and has no ${q(f.name)}`,
  "invalid-index": (f: { readonly list: string; readonly type: string; readonly name: string }) =>
    `${f.list} is a ${f.type}: ${q(f.name)} is not an index (use any ${f.list} as x { ... } to look inside its elements)`,
  "invalid-literal": (f: { readonly literal: string; readonly type: string; readonly selector: string }) => `${q(f.literal)} is not a valid ${f.type} for ${f.selector}`,
  "operator-not-applicable": (f: { readonly selector: string; readonly type: string; readonly nullable?: boolean; readonly op: string; readonly needs: string } | { readonly selector: string; readonly type: string; readonly quantifier: string }) =>
    "quantifier" in f
      ? `${f.selector} is a ${f.type}, not a list or a map; ${f.quantifier} needs one`
      : `${f.selector} is a ${f.type}${f.nullable ? " (or null)" : ""}; ${f.op} needs ${f.needs}`,
  "invalid-regex": badPattern,
} as const satisfies Record<TypeErrorCode, (facts: never) => string>;

/** Where a selector walk failed: the path before the failing step, or the datum itself. */
const where = (parent: string): string => (parent === "" ? "the datum" : parent);

/** The words of evaluation errors. */
export const EVALUATION_MESSAGES = {
  "missing-key": (f: { readonly parent: string; readonly key: string }) => `${where(f.parent)} has no key ${q(f.key)}`,
  "unknown-field": (f: { readonly parent: string; readonly key: string; readonly record: string }) =>
    `${q(f.key)} is not a field of ${f.record}${f.parent ? ` (at ${f.parent})` : ""}`,
  "index-out-of-range": (f: { readonly parent: string; readonly index: number; readonly length: number }) =>
    `index ${f.index} is out of range for ${where(f.parent)} (length ${f.length})`,
  "invalid-index": (f: { readonly parent: string; readonly key: string }) => `${q(f.key)} is not a list index for ${where(f.parent)}`,
  "invalid-path": (f: { readonly parent: string; readonly key: string; readonly kind: string }) => `cannot select ${q(f.key)} in ${where(f.parent)}, which is ${f.kind}`,
  "invalid-placeholder": (f: { readonly both: string } | { readonly collection: string; readonly indexType: string; readonly path: string; readonly placeholder: string }) =>
    "both" in f
      ? `${q(f.both)} cannot be used as a placeholder for both the index and the value`
      : `${f.collection} references a ${f.indexType} so ${f.path} is invalid (the index placeholder ${q(f.placeholder)} hides the collection the value placeholder reads)`,
  "invalid-literal": (f: { readonly literal: string; readonly outOfRange: boolean; readonly type: string; readonly selector: string }) =>
    `${q(f.literal)} ${f.outOfRange ? "is out of range for" : "is not"} a ${f.type}, the type of ${f.selector}`,
  "not-comparable": notApplicable,
  "not-a-collection": (f: { readonly selector: string; readonly kind: string; readonly quantifier: string }) =>
    `${f.selector} is ${f.kind}, not a list or a map; ${f.quantifier} needs one`,
  "cannot-test-empty": notApplicable,
  "cannot-test-nil": notApplicable,
  "cannot-contain": notApplicable,
  "cannot-match": notApplicable,
  "invalid-regex": badPattern,
  "too-expensive": () => "filter too expensive: the evaluation budget of steps (one per match test and per element visited by any/all) is exhausted",
} as const satisfies Record<EvaluationErrorCode, (facts: never) => string>;

/** The facts an error code's words need (none for a fixed text). */
export type SyntaxFacts<C extends SyntaxErrorCode> = Parameters<(typeof SYNTAX_MESSAGES)[C]>;
export type TypeFacts<C extends TypeErrorCode> = Parameters<(typeof TYPE_MESSAGES)[C]>[0];
export type EvaluationFacts<C extends EvaluationErrorCode> = Parameters<(typeof EVALUATION_MESSAGES)[C]>;

type Words = (...facts: readonly unknown[]) => string;

/** The summary of a syntax error. */
export function syntaxSummary<C extends SyntaxErrorCode>(code: C, ...facts: SyntaxFacts<C>): string {
  return (SYNTAX_MESSAGES[code] as Words)(...facts);
}

/** A syntax error in `source` at `span`, worded by the catalogue. */
export function syntaxError<C extends SyntaxErrorCode>(code: C, source: string, span: Span, ...facts: SyntaxFacts<C>): FilterSyntaxError {
  return new FilterSyntaxError(code, syntaxSummary(code, ...facts), source, span);
}

/** A static type error with its `detail`, worded by the catalogue (`suggestion` and `alwaysFails` as `FilterTypeError`'s). */
export function typeError<C extends TypeErrorCode>(
  detail: Extract<TypeErrorDetail, { readonly code: C }>,
  facts: TypeFacts<C>,
  source: string,
  span: Span,
  suggestion?: string,
  alwaysFails?: boolean,
): FilterTypeError {
  return new FilterTypeError(detail.code, (TYPE_MESSAGES[detail.code] as Words)(facts), source, span, suggestion, alwaysFails, detail);
}

/** An evaluation error at `site`, worded by the catalogue. */
export function evaluationError<C extends EvaluationErrorCode>(site: { readonly source: string; readonly span: Span }, code: C, ...facts: EvaluationFacts<C>): FilterEvaluationError {
  return new FilterEvaluationError(code, (EVALUATION_MESSAGES[code] as Words)(...facts), site.source, site.span);
}

/** Every error code, by the class that carries it (the catalogue's keys). */
export const ERROR_CODES: {
  readonly syntax: readonly SyntaxErrorCode[];
  readonly type: readonly TypeErrorCode[];
  readonly evaluation: readonly EvaluationErrorCode[];
} = Object.freeze({
  syntax: Object.freeze(Object.keys(SYNTAX_MESSAGES) as SyntaxErrorCode[]),
  type: Object.freeze(Object.keys(TYPE_MESSAGES) as TypeErrorCode[]),
  evaluation: Object.freeze(Object.keys(EVALUATION_MESSAGES) as EvaluationErrorCode[]),
});
