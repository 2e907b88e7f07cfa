/**
 * Errors raised by the filter language: one base class with a stable code, a half-open source span,
 * a line/column position and a rendered code frame; one subclass per phase.
 */
import type { Type } from "./semantics/schema.js";

/** A half-open range of UTF-16 offsets into the expression text: `[start, end)`. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Stable codes of syntax errors (the expression was rejected before any data was seen). */
export type SyntaxErrorCode =
  | "unexpected-input"
  | "unexpected-end"
  | "empty-expression"
  | "missing-whitespace"
  | "unterminated-string"
  | "invalid-string"
  | "invalid-number"
  | "unmatched-parenthesis"
  | "invalid-index"
  | "unclosed-index"
  | "invalid-selector"
  | "input-too-long"
  | "nesting-too-deep"
  | "too-many-expressions"
  | "too-many-matches"
  | "not-in-target";

/** Stable codes of static type errors found against a schema at compile time. */
export type TypeErrorCode =
  | "unknown-field"
  | "not-a-record"
  | "invalid-index"
  | "invalid-literal"
  | "operator-not-applicable"
  | "invalid-regex";

/**
 * The facts of a static type error, keyed by its code (`detail.code` is the error's `code`): what a
 * program (a fix, an editor, a form that highlights a field) reads instead of the message's words.
 * Selectors are given as the expression's canonical text (`print`'s form); types as schema `Type`s,
 * pointers removed (`typeName` puts them in words).
 */
export type TypeErrorDetail =
  | {
      readonly code: "unknown-field";
      /** The step's name as the selector spells it, unescaped: `Stauts`, `a/b` for the JSON Pointer step `a~1b`. */
      readonly field: string;
      /** The name of the record type that has no such field: `JobListStub`. */
      readonly record: string;
    }
  | {
      readonly code: "not-a-record";
      /** The selector up to the value that cannot be stepped into: `Status` in `Status.x`. */
      readonly selector: string;
      /** The value's type: neither a record nor a map (a string, number, bool or list never holds a name). */
      readonly type: Type;
      /** The name of the step taken into it: `x`. */
      readonly step: string;
    }
  | {
      readonly code: "invalid-index";
      /** The selector of the list: `Datacenters` in `Datacenters.first`. */
      readonly selector: string;
      /** The list's type (`kind: "list"`). */
      readonly type: Type;
      /** The step that is not an index: `first`. */
      readonly step: string;
    }
  | {
      readonly code: "invalid-literal";
      /** The selector the literal is compared with: `Priority`. */
      readonly selector: string;
      /** The literal's text, unquoted: `high`. */
      readonly literal: string;
      /** The type it does not convert to (the field's, or its elements' for a list): `{ kind: "int" }`. */
      readonly type: Type;
    }
  | {
      readonly code: "operator-not-applicable";
      /** The selector of the operand: `Datacenters`. */
      readonly selector: string;
      /** The operand's type, which the operator never accepts: `{ kind: "list", elem: { kind: "string" } }` for `Datacenters == "dc1"`. */
      readonly type: Type;
      /** True when the schema declares the operand as a pointer, so that it may also be null. */
      readonly nullable: boolean;
      /** The match operator as written (`==`, `not matches`, `is empty`, …), or the quantifier `any`/`all` of a collection expression whose selector is neither a list nor a map. */
      readonly operator: string;
    }
  | {
      readonly code: "invalid-regex";
      /** The pattern, unquoted. */
      readonly pattern: string;
      /** RE2's reason, as the message gives it. */
      readonly reason: string;
    };

/** Stable codes of evaluation errors (the expression parsed, but evaluating it against a datum failed). */
export type EvaluationErrorCode =
  | "missing-key"
  | "unknown-field"
  | "index-out-of-range"
  | "invalid-index"
  | "invalid-path"
  | "invalid-placeholder"
  | "invalid-literal"
  | "not-comparable"
  | "not-a-collection"
  | "cannot-test-empty"
  | "cannot-test-nil"
  | "cannot-contain"
  | "cannot-match"
  | "invalid-regex"
  | "too-expensive";

export type FilterErrorCode = SyntaxErrorCode | TypeErrorCode | EvaluationErrorCode;

/** Line and column (both 1-based, column counted in UTF-16 code units) of an offset in `source`. */
export function lineColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, source.length);
  for (let i = 0; i < end; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Renders the line of `source` holding `span` with a caret line under the span:
 *
 * ```
 *   1 | Status == "running" and
 *     |                         ^ expected an expression after "and"
 * ```
 */
export function renderCodeFrame(source: string, span: Span, note = ""): string {
  const { line, column } = lineColumn(source, span.start);
  const lines = source.split("\n");
  const text = (lines[line - 1] ?? "").replace(/\r$/, "");
  const gutter = String(line);
  const pad = " ".repeat(gutter.length);
  // Tabs are kept so that the caret lines up under them.
  const lead = text.slice(0, column - 1).replace(/[^\t]/g, " ");
  const width = Math.max(1, Math.min(span.end, span.start + Math.max(0, text.length - column + 1)) - span.start);
  const caret = "^".repeat(width);
  return `${gutter} | ${text}\n${pad} | ${lead}${caret}${note ? ` ${note}` : ""}`;
}

/**
 * The mark every error of the library carries, under a registry symbol: the same in every copy of the
 * library that a process loads (the ESM and the CommonJS build, two installed versions), so that
 * `instanceof` and `FilterError.is` recognise an error thrown by any of them. Its value is the
 * class's `errorName`.
 */
const BRAND = Symbol.for("filter-expr.FilterError");

/** The `errorName` of an error of any copy of the library, or undefined for any other value. */
function brandOf(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const brand = (value as { [BRAND]?: unknown })[BRAND];
  return typeof brand === "string" ? brand : undefined;
}

/**
 * A string literal that is not valid UTF-8 holds each stray byte XX as the lone surrogate U+DCXX
 * (syntax/strings.ts). In messages such a byte reads as Go writes it, `\xXX`: both the character
 * itself and its JSON escape `\udcXX` (an escape, not an escaped backslash followed by "udc").
 */
function showRawBytes(s: string): string {
  if (!/[\udc80-\udcff]|\\udc[89a-f]/i.test(s)) return s;
  return s
    .replace(/(?<![\ud800-\udbff])[\udc80-\udcff]/g, (c) => `\\x${(c.charCodeAt(0) - 0xdc00).toString(16)}`)
    .replace(/(?<!\\)((?:\\\\)*)\\udc([89a-f][0-9a-f])/gi, "$1\\x$2");
}

/**
 * The base class of every error the library raises on purpose.
 *
 * `instanceof` works across copies of the library (the dual-package hazard): an error thrown by the
 * CommonJS build is `instanceof FilterSyntaxError` of the ESM build, and the reverse. `FilterError.is`
 * says the same without a class at hand.
 */
export abstract class FilterError extends Error {
  /** The name of the class, the same in every copy of the library (`FilterError` for the base). */
  static readonly errorName: string = "FilterError";

  /** True for an error raised by any copy of this library (any of its error classes). */
  static is(value: unknown): value is FilterError {
    return brandOf(value) !== undefined;
  }

  /** `value instanceof C`: an instance of C from this copy of the library, or of C's namesake from another. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    const brand = brandOf(value);
    if (brand === undefined) return false;
    return this === FilterError || brand === (this as typeof FilterError).errorName;
  }

  /** A stable, machine-readable code; see docs/api.md for the catalogue. */
  abstract readonly code: FilterErrorCode;
  /** The message without the position suffix. */
  readonly summary: string;
  /** The expression text the error refers to. */
  readonly source: string;
  /** The half-open span of the offending text. */
  readonly span: Span;
  /** 1-based line of `span.start`. */
  readonly line: number;
  /** 1-based column of `span.start`. */
  readonly column: number;

  protected constructor(summary: string, source: string, span: Span) {
    summary = showRawBytes(summary);
    const { line, column } = lineColumn(source, span.start);
    super(`${summary} at ${line}:${column}`);
    Object.defineProperty(this, BRAND, { value: (new.target as typeof FilterError).errorName });
    this.summary = summary;
    this.source = source;
    this.span = span;
    this.line = line;
    this.column = column;
  }

  /** Offset of the first offending character (same as `span.start`). */
  get offset(): number {
    return this.span.start;
  }

  /** Length of the offending text (at least 0). */
  get length(): number {
    return Math.max(0, this.span.end - this.span.start);
  }

  /** The source line with a caret under the span, followed by the message. */
  codeFrame(): string {
    return `${renderCodeFrame(this.source, this.span)}\n${this.message}`;
  }

  /** A plain object for JSON output (CLI, HTTP). */
  toJSON(): { name: string; code: string; message: string; offset: number; length: number; line: number; column: number } {
    return {
      name: this.name,
      code: this.code,
      message: this.message,
      offset: this.offset,
      length: this.length,
      line: this.line,
      column: this.column,
    };
  }
}

/** The expression is not valid text of the language, or exceeds a configured limit. */
export class FilterSyntaxError extends FilterError {
  static override readonly errorName: string = "FilterSyntaxError";
  override readonly name = "FilterSyntaxError";
  readonly code: SyntaxErrorCode;
  constructor(code: SyntaxErrorCode, summary: string, source: string, span: Span) {
    super(summary, source, span);
    this.code = code;
  }
}

/** With a schema: the expression can never evaluate without error on any record of that schema. */
export class FilterTypeError extends FilterError {
  static override readonly errorName: string = "FilterTypeError";
  override readonly name = "FilterTypeError";
  readonly code: TypeErrorCode;
  /** A suggested replacement for the offending text, when there is one (did-you-mean). */
  readonly suggestion: string | undefined;
  /**
   * True when the expression fails on every record (what `compile` rejects); false for a problem in a
   * part that some records may never reach, which the reference only reports when it gets there.
   */
  readonly alwaysFails: boolean;
  /**
   * The error's facts, keyed by its code (`detail.code === code`): the field, selector, type, operator
   * or pattern concerned, for programs to read instead of the message. Every error the library raises
   * has one; undefined only for an error constructed without it.
   */
  readonly detail: TypeErrorDetail | undefined;
  constructor(code: TypeErrorCode, summary: string, source: string, span: Span, suggestion?: string, alwaysFails = true, detail?: TypeErrorDetail) {
    super(summary, source, span);
    this.code = code;
    this.suggestion = suggestion;
    this.alwaysFails = alwaysFails;
    this.detail = detail;
  }
}

/** Evaluating the expression against one datum failed, as it fails in the reference library. */
export class FilterEvaluationError extends FilterError {
  static override readonly errorName: string = "FilterEvaluationError";
  override readonly name = "FilterEvaluationError";
  readonly code: EvaluationErrorCode;
  constructor(code: EvaluationErrorCode, summary: string, source: string, span: Span) {
    super(summary, source, span);
    this.code = code;
  }
}
