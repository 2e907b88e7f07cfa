/**
 * The AST nodes both parsers build (the Chevrotain parser, parser.ts, and the fast path,
 * quick-parse.ts), and the limits both enforce: kept apart from Chevrotain, so that the fast path
 * loads without it.
 */
import type { Expr, Literal, MatchExpr, MatchOp, Selector, Span } from "./ast.js";
import { selectorSource } from "./print.js";

/** Limits enforced while parsing (see `ParseOptions`). */
export interface ParserLimits {
  /** 0: no limit. */
  maxDepth: number;
  /** 0: no limit. */
  maxMatches: number;
}

/** An and/or of `operands`, or the one operand itself. */
export function flat(kind: "and" | "or", operands: Expr[]): Expr {
  if (operands.length === 1) return operands[0]!;
  return { kind, operands, span: { start: operands[0]!.span.start, end: operands[operands.length - 1]!.span.end } };
}

/** A match node; `value` is absent for the `is ...` forms. */
export function matchNode(op: MatchOp, opSpan: Span, selector: Selector, value: Literal | undefined, span: Span): MatchExpr {
  return value === undefined ? { kind: "match", op, selector, opSpan, span } : { kind: "match", op, selector, value, opSpan, span };
}

/** The selector of a quoted JSON Pointer `raw` (quotes included) whose parts are `path`. */
export function pointerSelector(raw: string, path: readonly string[], span: Span): Selector {
  return { kind: "selector", form: "pointer", segments: path.map((name) => ({ kind: "key", name, raw: "", span })), raw, span };
}

/** A quoted JSON Pointer `raw` written where a value is expected: its parts joined by "/". */
export function pointerLiteral(raw: string, path: readonly string[], span: Span): Literal {
  return { kind: "literal", type: "pointer", raw, text: path.join("/"), span };
}

/** A selector written where a value is expected: the reference takes its text (names joined by "."). */
export function wordLiteral(s: Selector): Literal {
  if (s.form === "pointer") return { kind: "literal", type: "pointer", raw: s.raw, text: s.segments.map((x) => x.name).join("/"), span: s.span };
  return { kind: "literal", type: "word", raw: selectorSource(s), text: s.segments.map((x) => x.name).join("."), span: s.span };
}
