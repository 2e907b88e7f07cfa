/**
 * One shape for everything the CLI reports about an expression: errors (syntax, static, evaluation)
 * and warnings, each with its position, a message and a hint.
 */
import { lineColumn, type FilterError, type Fix, type Schema, type Span } from "../index.js";
import { errorHint } from "./hints.js";
import type { Warning } from "../lint/index.js";

export interface Diagnostic {
  readonly severity: "error" | "warning";
  /** A stable code: the library's error codes, or the warning codes of `lint`. */
  readonly code: string;
  /** The message without position. */
  readonly summary: string;
  /** The message with ` at LINE:COLUMN`, as the library's errors have it. */
  readonly message: string;
  readonly span: Span;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly length: number;
  readonly hint: string | undefined;
  /** Fixes (of `diagnose`): edits that remove the finding. */
  readonly fixes: readonly Fix[];
}

/** A diagnostic for a library error. */
export function fromError(e: FilterError, schema: Schema | undefined): Diagnostic {
  return {
    severity: "error",
    code: e.code,
    summary: e.summary,
    message: e.message,
    span: e.span,
    line: e.line,
    column: e.column,
    offset: e.offset,
    length: e.length,
    hint: errorHint(e, schema),
    fixes: [],
  };
}

/** A diagnostic for a warning about `source`. */
export function fromWarning(w: Warning, source: string): Diagnostic {
  const { line, column } = lineColumn(source, w.span.start);
  return {
    severity: "warning",
    code: w.code,
    summary: w.summary,
    message: `${w.summary} at ${line}:${column}`,
    span: w.span,
    line,
    column,
    offset: w.span.start,
    length: Math.max(0, w.span.end - w.span.start),
    hint: w.hint,
    fixes: [],
  };
}
