/**
 * The JSON report: one object a line per expression, stable for tools:
 *
 * ```json
 * {"expression":"Stauts == 1","valid":false,
 *  "errors":[{"code":"unknown-field","message":"... at 1:1","line":1,"column":1,"offset":0,"length":6}],
 *  "warnings":[]}
 * ```
 *
 * Warnings have the same fields plus `hint`. With `--explain`, `ast` and `plan` are added.
 */
import type { Ast, Fix, PlanNode } from "../../index.js";
import type { Report } from "../analyse.js";
import type { Diagnostic } from "../diagnostics.js";

/** The fields of an error in the JSON report. */
export interface JsonError {
  readonly code: string;
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  readonly length: number;
  /** Fixes: `{ title, edits: [{ start, end, insert }] }`, offsets into the expression. */
  readonly fixes: readonly Fix[];
}

/** The fields of a warning in the JSON report. */
export interface JsonWarning extends JsonError {
  readonly hint: string;
}

export function jsonError(d: Diagnostic): JsonError {
  return { code: d.code, message: d.message, line: d.line, column: d.column, offset: d.offset, length: d.length, fixes: d.fixes };
}

export function jsonWarning(d: Diagnostic): JsonWarning {
  return { code: d.code, message: d.message, hint: d.hint ?? "", line: d.line, column: d.column, offset: d.offset, length: d.length, fixes: d.fixes };
}

/** The JSON object of one expression. */
export function reportJson(report: Report, explain: { ast?: Ast; plan?: PlanNode } = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {
    expression: report.expression.text,
    valid: report.valid,
    errors: report.errors.map(jsonError),
    warnings: report.warnings.map(jsonWarning),
  };
  if ("ast" in explain) out.ast = explain.ast ?? null;
  if ("plan" in explain) out.plan = explain.plan ?? null;
  return out;
}
