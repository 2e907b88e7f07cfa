/**
 * Candidate fixes for the static type errors of `checkAst`: a misspelt field replaced by the schema's
 * (the error's did-you-mean), and `==`/`!=` on a list of scalars written as `in`/`not in`. They read
 * the error's `detail`, never its message.
 */
import type { FilterTypeError, Span } from "../errors.js";
import { notRun, type Expr, type MatchExpr } from "../syntax/ast.js";
import { isPointerSegment, pointerPath } from "../syntax/pointer.js";
import { quote } from "./quote.js";
import type { Fix } from "./types.js";

/** Candidate fixes for `error`, found in `ast` (parsed from `text`). */
export function typeFixes(text: string, ast: Expr, error: FilterTypeError): Fix[] {
  const detail = error.detail;
  if (detail?.code === "unknown-field" && error.suggestion !== undefined) {
    const fix = renameFix(text, error.span, detail.field, error.suggestion);
    return fix ? [fix] : [];
  }
  // A list of anything: one whose elements `in` cannot compare fails the fix's verification.
  if (detail?.code === "operator-not-applicable" && detail.type.kind === "list") {
    const m = matchAt(ast, error.span.start);
    if (m && m.value && (m.op === "==" || m.op === "!=")) {
      const sel = text.slice(m.selector.span.start, m.selector.span.end);
      const replace = `${m.value.raw} ${m.op === "==" ? "in" : "not in"} ${sel}`;
      return [{ title: `test whether the list holds the value: ${replace}`, edits: [{ start: m.span.start, end: m.span.end, insert: replace }] }];
    }
  }
  return [];
}

/** Replaces the misspelt step `name` (at `span`) with the suggestion, in the form the step was written in. */
function renameFix(text: string, span: Span, name: string, suggestion: string): Fix | undefined {
  const { start, end } = span;
  const written = text.slice(start, end);
  const title = `replace ${JSON.stringify(name)} with ${JSON.stringify(suggestion)}`;
  if (written === name) return { title, edits: [{ start, end, insert: suggestion }] };
  if (written === `.${name}`) return { title, edits: [{ start: start + 1, end, insert: suggestion }] };
  if (written.startsWith("[")) return { title, edits: [{ start, end, insert: `[${quote(suggestion)}]` }] };
  const parts = pointerPath(written);
  if (parts) {
    const escaped = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
    const i = parts.indexOf(name);
    if (i < 0 || !isPointerSegment(escaped(suggestion))) return undefined;
    const next = parts.map((p, j) => escaped(j === i ? suggestion : p));
    return { title, edits: [{ start, end, insert: `"/${next.join("/")}"` }] };
  }
  return undefined;
}

/** The match whose selector or operator holds `offset`. */
function matchAt(e: Expr, offset: number): MatchExpr | undefined {
  if (offset < e.span.start || offset > e.span.end) return undefined;
  switch (e.kind) {
    case "match":
      return e;
    case "not": {
      return matchAt(notRun(e).operand, offset);
    }
    case "collection":
      return matchAt(e.body, offset);
    case "and":
    case "or":
      for (const o of e.operands) {
        const m = matchAt(o, offset);
        if (m) return m;
      }
      return undefined;
  }
}
