/**
 * Filter text built from AST pieces, for the suggestions of warnings: selectors (or a prefix of
 * one), quoted keys, and a match with its selector replaced.
 */
import type { Span } from "../errors.js";
import type { MatchExpr, Segment, Selector } from "../syntax/ast.js";

/** The text of a selector's first `count` steps (all by default), in the form it was written. */
export function selectorText(sel: Selector, count = sel.segments.length): string {
  const segments = sel.segments.slice(0, count);
  if (sel.form === "pointer") return `"/${segments.map((s) => s.name.replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}"`;
  return segmentsText(segments);
}

/** Path text of segments: `a.b.0["c d"]`. */
export function segmentsText(segments: readonly Segment[]): string {
  return segments
    .map((s, i) => {
      if (s.kind === "key") return s.raw !== "" ? `[${s.raw}]` : `[${quoteValue(s.name)}]`;
      if (s.kind === "name" && !isName(s.name)) return `[${quoteValue(s.name)}]`;
      return i === 0 ? s.name : `.${s.name}`;
    })
    .join("");
}

/** True for a plain selector name: an ASCII letter, then letters, digits, `_` and `/`. */
export function isName(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_/]*$/.test(text);
}

/**
 * A value literal whose text is exactly `text`: double quotes, or backticks where double quotes
 * would read as a JSON Pointer (`"/x"` means "x") and backticks can hold it.
 */
export function quoteValue(text: string): string {
  if (text.startsWith("/") && !text.includes("`")) return `\`${text}\``;
  return JSON.stringify(text);
}

/** The text of a match with the selector written as `selector`. */
export function matchText(m: MatchExpr, selector: string): string {
  if (m.value === undefined) return `${selector} ${m.op}`;
  if (m.op === "in" || m.op === "not in") return `${m.value.raw} ${m.op} ${selector}`;
  return `${selector} ${m.op} ${m.value.raw}`;
}

/** The span of a step without its leading dot (`.web` → `web`), for carets under the name. */
export function stepSpan(segment: Segment, source: string): Span {
  const { start, end } = segment.span;
  return source[start] === "." && end > start + 1 ? { start: start + 1, end } : segment.span;
}
