/**
 * Candidate fixes for the static type errors of `checkAst`: a misspelt field replaced by the schema's
 * (the error's did-you-mean), and `==`/`!=` on a list of scalars written as `in`/`not in`.
 */
import type { FilterTypeError } from "../errors.js";
import { notRun, type Expr, type MatchExpr } from "../syntax/ast.js";
import { isPointerSegment, pointerPath } from "../syntax/pointer.js";
import { quote } from "./quote.js";
import type { Fix } from "./types.js";

/** Candidate fixes for `error`, found in `ast` (parsed from `text`). */
export function typeFixes(text: string, ast: Expr, error: FilterTypeError): Fix[] {
  if (error.code === "unknown-field" && error.suggestion !== undefined) {
    const fix = renameFix(text, error);
    return fix ? [fix] : [];
  }
  if (error.code === "operator-not-applicable") {
    const m = matchAt(ast, error.span.start);
    if (m && m.value && (m.op === "==" || m.op === "!=") && /is a list|list of/.test(error.summary)) {
      const sel = text.slice(m.selector.span.start, m.selector.span.end);
      const replace = `${m.value.raw} ${m.op === "==" ? "in" : "not in"} ${sel}`;
      return [{ title: `test whether the list holds the value: ${replace}`, edits: [{ start: m.span.start, end: m.span.end, insert: replace }] }];
    }
  }
  return [];
}

/** Replaces the misspelt step with the suggestion, in the form the step was written in. */
function renameFix(text: string, error: FilterTypeError): Fix | undefined {
  const suggestion = error.suggestion!;
  const { start, end } = error.span;
  const written = text.slice(start, end);
  const name = /^"((?:[^"\\]|\\.)*)" is not a field/.exec(error.summary)?.[1];
  if (name === undefined) return undefined;
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
