/**
 * The text report: for each expression a status line, then each problem as a code frame with a caret
 * under the span, the message and a hint.
 *
 * ```
 * expression 1: invalid, 1 error
 *   error[unknown-field] at 1:1: "Stauts" is not a field of JobListStub; did you mean "Status"?
 *   (read from a file: error[unknown-field] filters.txt:4:1: …, and the frame's line is 4 | …)
 *     1 | Stauts == "running"
 *       | ^^^^^^
 *     hint: replace it with Status; the fields of JobListStub are ID, ParentID, ...
 * ```
 */
import { renderCodeFrame } from "../../index.js";
import type { Report } from "../analyse.js";
import type { Diagnostic } from "../diagnostics.js";
import { inputPosition, type Expression } from "../expressions.js";
import type { Style } from "../style.js";

/** `1 error`, `2 warnings`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The status line of an expression. */
export function statusLine(report: Report, style: Style): string {
  const counts = [
    report.errors.length > 0 ? plural(report.errors.length, "error") : "",
    report.warnings.length > 0 ? plural(report.warnings.length, "warning") : "",
  ].filter(Boolean);
  const status = report.valid ? style.ok("valid") : style.error("invalid");
  return `${style.bold(report.expression.label)}: ${[status, ...counts].join(", ")}`;
}

/**
 * One diagnostic: header, code frame, hint; indented by `indent`. The header says where the problem
 * is: `at 1:15` in an expression given as an argument, `filters.txt:4:15` in one read from a file.
 */
export function diagnosticText(d: Diagnostic, source: string, style: Style, indent = "  ", prefix = "", expression?: Expression): string {
  const paint = d.severity === "error" ? style.error : style.warning;
  const where = expression?.file === undefined ? `at ${d.line}:${d.column}` : inputPosition(expression, d.column);
  const head = `${indent}${paint(`${d.severity}[${d.code}]`)} ${style.dim(where)}: ${prefix}${d.summary}`;
  const frame = numberedFrame(renderCodeFrame(source, d.span), expression?.file === undefined ? 0 : expression.line - 1)
    .split("\n")
    .map((line, i) => {
      const bar = line.indexOf(" | ");
      if (bar < 0) return `${indent}  ${line}`;
      const gutter = style.dim(line.slice(0, bar + 3));
      const rest = line.slice(bar + 3);
      return `${indent}  ${gutter}${i === 0 ? rest : paint(rest)}`;
    });
  const lines = [head, ...frame];
  if (d.hint) lines.push(`${indent}  ${style.hint("hint:")} ${d.hint}`);
  // A fix is shown unless the hint already says it.
  for (const f of d.fixes) if (!d.hint?.includes(f.title)) lines.push(`${indent}  ${style.hint("fix:")} ${f.title} (filter-check --fix)`);
  return lines.join("\n");
}

/**
 * A code frame of `renderCodeFrame` with its line numbers moved down by `offset`: the lines of the
 * file (or standard input) an expression was read from, `4 | Priority == high` for its line 4, the
 * gutter as wide as the widest number. `offset` 0 leaves the frame as it is.
 */
export function numberedFrame(frame: string, offset: number): string {
  if (offset === 0) return frame;
  const rows = frame.split("\n").map((row) => {
    const bar = row.indexOf(" | ");
    if (bar < 0) return { gutter: undefined, rest: row };
    const number = row.slice(0, bar).trim();
    return { gutter: /^\d+$/.test(number) ? String(Number(number) + offset) : "", rest: row.slice(bar) };
  });
  const width = Math.max(0, ...rows.map((r) => r.gutter?.length ?? 0));
  return rows.map((r) => (r.gutter === undefined ? r.rest : `${r.gutter.padStart(width)}${r.rest}`)).join("\n");
}

/** The report of one expression. */
export function reportText(report: Report, style: Style): string {
  const source = report.expression.text;
  const parts = [statusLine(report, style)];
  for (const d of [...report.errors, ...report.warnings]) parts.push(diagnosticText(d, source, style, "  ", "", report.expression));
  return parts.join("\n");
}

/** The closing line when several expressions were checked. */
export function summaryText(reports: readonly Report[], style: Style): string {
  const valid = reports.filter((r) => r.valid).length;
  const invalid = reports.length - valid;
  const warnings = reports.reduce((n, r) => n + r.warnings.length, 0);
  const parts = [style.ok(`${valid} valid`), invalid > 0 ? style.error(`${invalid} invalid`) : `${invalid} invalid`];
  if (warnings > 0) parts.push(style.warning(plural(warnings, "warning")));
  return `${plural(reports.length, "expression")}: ${parts.join(", ")}`;
}
