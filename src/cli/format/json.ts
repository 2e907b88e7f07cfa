/**
 * The JSON report: one object a line per expression, stable for tools:
 *
 * ```json
 * {"expression":"Stauts == 1","filePath":"filters.txt","line":4,"valid":false,
 *  "errors":[{"code":"unknown-field","message":"... at 1:1","line":4,"column":1,"endLine":4,"endColumn":7,"offset":0,"length":6}],
 *  "warnings":[]}
 * ```
 *
 * `filePath` is the `--file` the expression was read from (`<stdin>`, or null for an argument) and
 * `line` its line there; the positions of errors and warnings (`line`, `column`, `endLine`,
 * `endColumn`, as eslint's) are in that input, `offset` and `length` in the expression. Warnings
 * have the same fields plus `hint`. With `--explain`, `ast` and `plan` are added.
 */
import { lineColumn, type Ast, type Fix, type PlanNode } from "../../index.js";
import type { Report } from "../analyse.js";
import type { Diagnostic } from "../diagnostics.js";
import type { Expression } from "../expressions.js";

/** The fields of an error in the JSON report. */
export interface JsonError {
  readonly code: string;
  readonly message: string;
  /** Line and column (from 1) in the input: the file or standard input, or the expression. */
  readonly line: number;
  readonly column: number;
  /** Where the span ends (the column after its last character). */
  readonly endLine: number;
  readonly endColumn: number;
  /** Offset (UTF-16) and length of the span in the expression. */
  readonly offset: number;
  readonly length: number;
  /** Fixes: `{ title, edits: [{ start, end, insert }] }`, offsets into the expression. */
  readonly fixes: readonly Fix[];
}

/** The fields of a warning in the JSON report. */
export interface JsonWarning extends JsonError {
  readonly hint: string;
}

/** An error of `expression`, its positions in the expression's input. */
export function jsonError(d: Diagnostic, expression: Expression): JsonError {
  const end = lineColumn(expression.text, d.span.end);
  const first = expression.line - 1;
  return {
    code: d.code,
    message: d.message,
    line: first + d.line,
    column: d.column,
    endLine: first + end.line,
    endColumn: end.column,
    offset: d.offset,
    length: d.length,
    fixes: d.fixes,
  };
}

export function jsonWarning(d: Diagnostic, expression: Expression): JsonWarning {
  const { code, message, ...rest } = jsonError(d, expression);
  return { code, message, hint: d.hint ?? "", ...rest };
}

/** The JSON object of one expression. */
export function reportJson(report: Report, explain: { ast?: Ast; plan?: PlanNode } = {}): Record<string, unknown> {
  const { expression } = report;
  const out: Record<string, unknown> = {
    expression: expression.text,
    filePath: expression.file ?? null,
    line: expression.line,
    valid: report.valid,
    errors: report.errors.map((d) => jsonError(d, expression)),
    warnings: report.warnings.map((d) => jsonWarning(d, expression)),
  };
  if ("ast" in explain) out.ast = explain.ast ?? null;
  if ("plan" in explain) out.plan = explain.plan ?? null;
  return out;
}
