/**
 * The parser's fast path: a hand-written recursive descent over the characters, for the expressions
 * people write. It builds exactly the AST the Chevrotain parser (parser.ts) builds, or declines
 * (returns `undefined`) and leaves the text to it: at any error, at anything the reference decides by
 * backtracking (`not` followed by an operator word), past its own nesting of parentheses and
 * collection bodies (a run of `not`s is a loop, not a nesting), and at any limit of
 * `ParserLimits` that the text reaches. So every error, its code, span and message, stays the full
 * parser's; the fast path only saves the time of the common case (no token objects, no lookahead
 * functions, no speculation). test/syntax/quick-parse.property.test.ts checks that both parsers give
 * the same tree wherever the fast path answers, and that it answers for the common forms.
 */
import type { Binding, Expr, Literal, MatchExpr, MatchOp, Segment, Selector, Span } from "./ast.js";
import { flat, matchNode, pointerLiteral, pointerSelector, wordLiteral, type ParserLimits } from "./nodes.js";
import { isAscii, isAsciiPointerSegment, splitPointer } from "./pointer-path.js";
import { unquote } from "./strings.js";

/** Thrown to leave the fast path; never escapes `quickParse`. */
const DECLINE: unique symbol = Symbol("decline");

/** Deepest nesting of parentheses and collection bodies the fast path takes on the call stack (a run of `not`s takes none). */
const MAX_QUICK_DEPTH = 64;

// The state of one parse (the module parses one text at a time, synchronously).
let src = "";
let len = 0;
let pos = 0;
let maxDepth = 0;
let maxMatches = 0;
let matches = 0;
/** Parentheses and collection bodies open (the call stack's nesting). */
let nesting = 0;
/** Where the last `and`/`or` between two operands of the whole expression starts (`QuickOutcome`). */
let resume = 0;

/** What `quickParse` read of a text it declined. */
export interface QuickOutcome {
  /**
   * Where the last "and" or "or" that joins two operands of the whole expression (outside every
   * group, after an operand that is no collection) starts, 0 if none: the text up to it parses, and a
   * parse that starts there with any operand before it meets what the whole parse meets after it.
   */
  resume: number;
}

/**
 * The AST of `text`, exactly as `FilterParser` builds it, or `undefined` where the full parser must
 * decide (an error, a limit, a construct the fast path leaves to it).
 */
export function quickParse(text: string, limits: ParserLimits, outcome?: QuickOutcome): Expr | undefined {
  src = text;
  len = text.length;
  pos = 0;
  maxDepth = limits.maxDepth;
  maxMatches = limits.maxMatches;
  matches = 0;
  nesting = 0;
  resume = 0;
  try {
    skipSpace();
    const e = orExpr(0);
    skipSpace();
    return pos === len ? e : undefined;
  } catch (e) {
    if (e === DECLINE) return undefined;
    throw e;
  } finally {
    src = "";
    if (outcome !== undefined) outcome.resume = resume;
  }
}

function decline(): never {
  throw DECLINE;
}

// ---------------------------------------------------------------------------------------------
// Characters and words, as the lexer (tokens.ts) reads them.

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
const isLetter = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
/** `[a-zA-Z0-9_/]`: the characters after an identifier's first letter. */
const isNameChar = (c: number): boolean => isLetter(c) || isDigit(c) || c === 95 || c === 47;

/** Skips whitespace; true when there was some (a gap between two tokens). */
function skipSpace(): boolean {
  const start = pos;
  pos = spaceEnd(pos);
  return pos > start;
}

/** The end of the identifier starting at `at`, or `at` when none does. */
function nameEnd(at: number): number {
  if (at >= len || !isLetter(src.charCodeAt(at))) return at;
  let j = at + 1;
  while (j < len && isNameChar(src.charCodeAt(j))) j++;
  return j;
}

/** True when the identifier at `at` is exactly `word` (a keyword token). */
function wordAt(at: number, word: string): boolean {
  // Character by character (the words are short): no call into the engine's string builtins.
  const end = at + word.length;
  if (end > len) return false;
  for (let i = 0; i < word.length; i++) if (src.charCodeAt(at + i) !== word.charCodeAt(i)) return false;
  return end === len || !isNameChar(src.charCodeAt(end));
}

/** The end of the whitespace run at `at` (`at` when there is none). */
function spaceEnd(at: number): number {
  while (at < len && isSpace(src.charCodeAt(at))) at++;
  return at;
}

/** `word` stands at `at` with whitespace after it: the position after that whitespace, else -1. */
function spacedWord(at: number, word: string): number {
  if (!wordAt(at, word)) return -1;
  const after = spaceEnd(at + word.length);
  return after > at + word.length ? after : -1;
}

// ---------------------------------------------------------------------------------------------
// Expressions.

/** One level deeper; past the caller's limit, the full parser decides. */
function enter(depth: number): number {
  if (maxDepth > 0 && depth + 1 > maxDepth) decline();
  return depth + 1;
}

/** A group opens on the call stack; past the fast path's own nesting, the full parser decides. */
function open(): void {
  if (++nesting > MAX_QUICK_DEPTH) decline();
}

/**
 * `word` with whitespace around it follows (after whitespace that `pos` stands before): consumes it.
 * Between operands of the whole expression (`depth` 0), it is where a parse may resume (`resume`).
 */
function connective(word: string, depth: number): boolean {
  const at = spaceEnd(pos);
  if (at === pos) return false;
  const after = spacedWord(at, word);
  if (after < 0) return false;
  if (depth === 0) resume = at;
  pos = after;
  return true;
}

/** orExpr = andExpr { "or" andExpr } [ "or" collection ] | collection */
function orExpr(depth: number): Expr {
  const operands: Expr[] = [];
  for (;;) {
    if (collectionAhead()) {
      // A collection ends its group: only the group's end may follow.
      operands.push(collection(depth));
      break;
    }
    operands.push(andExpr(depth));
    if (!connective("or", depth)) break;
  }
  return flat("or", operands);
}

/** andExpr = notExpr { "and" notExpr } */
function andExpr(depth: number): Expr {
  const operands: Expr[] = [notExpr(depth)];
  while (connective("and", depth)) operands.push(notExpr(depth));
  return flat("and", operands);
}

/** notExpr = "not" notExpr | "(" orExpr ")" | match   (a run of `not`s in a loop, not on the call stack) */
function notExpr(depth: number): Expr {
  let nots: number[] | undefined;
  for (let afterNot = spacedWord(pos, "not"); afterNot >= 0; afterNot = spacedWord(pos, "not")) {
    // `not` followed by an operator may be a field named "not": the full parser decides that.
    if (operatorAt(afterNot, true) !== undefined) decline();
    depth = enter(depth);
    (nots ??= []).push(pos);
    pos = afterNot;
  }
  let e = operand(depth);
  if (nots !== undefined) for (let i = nots.length - 1; i >= 0; i--) e = { kind: "not", operand: e, span: { start: nots[i]!, end: e.span.end } };
  return e;
}

/** "(" orExpr ")" | match */
function operand(depth: number): Expr {
  if (src.charCodeAt(pos) === 40 /* ( */) {
    const inner = enter(depth);
    open();
    pos++;
    skipSpace();
    const e = orExpr(inner);
    skipSpace();
    if (src.charCodeAt(pos) !== 41 /* ) */) decline();
    pos++;
    nesting--;
    return e;
  }
  return match();
}

/** `any`/`all` with whitespace after it and no operator: a collection, not a field of that name. */
function collectionAhead(): boolean {
  const after = Math.max(spacedWord(pos, "any"), spacedWord(pos, "all"));
  return after >= 0 && operatorAt(after, true) === undefined;
}

/** collection = ( "any" | "all" ) selector "as" binding "{" orExpr "}" */
function collection(depth: number): Expr {
  const start = pos;
  const quantifier = src.startsWith("any", pos) ? "any" : "all";
  pos += 3;
  skipSpace();
  const selector = selectorHere();
  if (!skipSpace()) decline();
  const afterAs = spacedWord(pos, "as");
  if (afterAs < 0) decline();
  pos = afterAs;
  const binding = bindingHere();
  skipSpace();
  if (src.charCodeAt(pos) !== 123 /* { */) decline();
  const inner = enter(depth);
  open();
  pos++;
  skipSpace();
  const body = orExpr(inner);
  skipSpace();
  if (src.charCodeAt(pos) !== 125 /* } */) decline();
  pos++;
  nesting--;
  return { kind: "collection", quantifier, selector, binding, body, span: { start, end: pos } };
}

/** binding = "_" "," name | name [ "," ( "_" | name ) ] */
function bindingHere(): Binding {
  if (src.charCodeAt(pos) === 95 /* _ */) {
    pos++;
    comma();
    return { mode: "value", value: name() };
  }
  const first = name();
  const save = pos;
  skipSpace();
  if (src.charCodeAt(pos) !== 44 /* , */) {
    pos = save;
    return { mode: "default", name: first };
  }
  pos++;
  skipSpace();
  if (src.charCodeAt(pos) === 95 /* _ */) {
    pos++;
    return { mode: "index", index: first };
  }
  return { mode: "index-value", index: first, value: name() };
}

function comma(): void {
  skipSpace();
  if (src.charCodeAt(pos) !== 44 /* , */) decline();
  pos++;
  skipSpace();
}

/** An identifier at `pos`, consumed. */
function name(): string {
  const end = nameEnd(pos);
  if (end === pos) decline();
  const text = src.slice(pos, end);
  pos = end;
  return text;
}

// ---------------------------------------------------------------------------------------------
// Matches.

const TEXT_OPERATORS = ["contains", "matches", "in"] as const;
const EMPTINESS = ["empty", "nil"] as const;
// The operators' names as constants (a name built from its words would be a new string each time).
const NOT_OPERATORS = { contains: "not contains", matches: "not matches", in: "not in" } as const;
const IS_OPERATORS = { empty: "is empty", nil: "is nil" } as const;
const IS_NOT_OPERATORS = { empty: "is not empty", nil: "is not nil" } as const;

/** An operator read by `operatorAt`: which, where it is, and where what follows it starts. */
let opSpan: Span = { start: 0, end: 0 };
let opNext = 0;

/**
 * The match operator at `at` (after the selector or value before it, with `spaced` telling whether
 * whitespace came before `at`), as `FilterParser.operatorAhead` reads it; sets `opSpan` and `opNext`.
 */
function operatorAt(at: number, spaced: boolean): MatchOp | undefined {
  const c = src.charCodeAt(at);
  if ((c === 61 /* = */ || c === 33) /* ! */ && src.charCodeAt(at + 1) === 61) {
    opSpan = { start: at, end: at + 2 };
    opNext = at + 2;
    return c === 61 ? "==" : "!=";
  }
  if (!spaced) return undefined;
  for (const word of TEXT_OPERATORS) {
    const after = spacedWord(at, word);
    if (after >= 0) return operator(word, at, at + word.length, after);
  }
  const afterNot = spacedWord(at, "not");
  if (afterNot >= 0) {
    for (const word of TEXT_OPERATORS) {
      const after = spacedWord(afterNot, word);
      if (after >= 0) return operator(NOT_OPERATORS[word], at, afterNot + word.length, after);
    }
  }
  const afterIs = spacedWord(at, "is");
  if (afterIs < 0) return undefined;
  const afterIsNot = spacedWord(afterIs, "not");
  for (const word of EMPTINESS) {
    if (wordAt(afterIs, word)) return operator(IS_OPERATORS[word], at, afterIs + word.length, afterIs + word.length);
    if (afterIsNot >= 0 && wordAt(afterIsNot, word)) return operator(IS_NOT_OPERATORS[word], at, afterIsNot + word.length, afterIsNot + word.length);
  }
  return undefined;
}

function operator(op: MatchOp, start: number, end: number, next: number): MatchOp {
  opSpan = { start, end };
  opNext = next;
  return op;
}

/** The operator after what `pos` stands past (a selector or a value), as `operatorAt` reads it. */
function operatorNext(): MatchOp | undefined {
  const at = spaceEnd(pos);
  return operatorAt(at, at > pos);
}

/**
 * match = selector ( compare value | emptiness | inOp selector ) | plainValue inOp selector
 */
function match(): MatchExpr {
  const c = src.charCodeAt(pos);
  const selectorFirst = isLetter(c) || (c === 34 /* " */ && mayBePointer() && pointerPath(quoted(34)) !== undefined);
  let m: MatchExpr;
  if (selectorFirst) {
    const selector = selectorHere();
    const op = operatorNext();
    if (op === undefined) decline();
    const span = opSpan;
    pos = opNext;
    if (op === "in" || op === "not in") {
      const right = selectorAfterIn();
      m = matchNode(op, span, right, wordLiteral(selector), { start: selector.span.start, end: right.span.end });
    } else if (op.charCodeAt(0) === 105 /* i */ && op.charCodeAt(1) === 115 /* s */) {
      m = matchNode(op, span, selector, undefined, { start: selector.span.start, end: span.end });
    } else {
      skipSpace();
      const value = valueHere();
      m = matchNode(op, span, selector, value, { start: selector.span.start, end: value.span.end });
    }
  } else {
    // Not a pointer (that would be a selector): a number or a string.
    const value = plainValue();
    const op = operatorNext();
    if (op !== "in" && op !== "not in") decline();
    const span = opSpan;
    pos = opNext;
    const selector = selectorAfterIn();
    m = matchNode(op, span, selector, value, { start: value.span.start, end: selector.span.end });
  }
  if (maxMatches > 0 && ++matches > maxMatches) decline();
  return m;
}

/** The selector after `in`/`not in` (whitespace already consumed). */
function selectorAfterIn(): Selector {
  const c = src.charCodeAt(pos);
  if (!isLetter(c) && c !== 34) decline();
  return selectorHere();
}

/**
 * `pointerPath` (pointer.ts) of a double-quoted token: declines at one with a character outside ASCII
 * (Go's Unicode letter and digit tables stay with the full parser, `pointer-path.ts`).
 */
function pointerPath(raw: string): string[] | undefined {
  if (!isAscii(raw)) decline();
  return splitPointer(raw, isAsciiPointerSegment);
}

/**
 * Whether the double-quoted token at `pos` may be a JSON Pointer (`pointerPath`): its body is empty
 * or starts with "/". Most strings are not, and need not be cut out twice.
 */
function mayBePointer(): boolean {
  const next = src.charCodeAt(pos + 1);
  return next === 47 /* / */ || next === 34 /* " */;
}

/**
 * Whether the body of the token `quoted` last cut out is its value as it stands: no backslash and no
 * line break in a double-quoted one, no carriage return in a backtick one (`unquote` leaves it alone).
 */
let quotedAsIs = false;

/** The quoted token starting at `pos` with quote character `q` (quotes included); declines when unterminated. */
function quoted(q: number): string {
  // One pass over the characters (no call into the engine's string builtins): the closing quote, and
  // whether `unquote` would change the body.
  let asIs = true;
  let close = pos + 1;
  for (; close < len; close++) {
    const c = src.charCodeAt(close);
    if (c === q) break;
    if (q === 34 ? c === 92 /* \ */ || c === 10 /* \n */ : c === 13 /* \r */) asIs = false;
  }
  if (close >= len) decline();
  quotedAsIs = asIs;
  return src.slice(pos, close + 1);
}

/** A quoted token's value (`raw`, the token `quoted` last cut out); declines where the reference rejects its escapes. */
function quotedValue(raw: string): string {
  if (quotedAsIs) return raw.slice(1, -1);
  const value = unquote(raw);
  if (typeof value !== "string") decline();
  return value;
}

/** selector = pointer | name { "." name | "." digits | "[" string "]" }   (no whitespace inside) */
function selectorHere(): Selector {
  const start = pos;
  if (src.charCodeAt(pos) === 34 /* " */) {
    const raw = quoted(34);
    const path = pointerPath(raw);
    if (path === undefined) decline();
    pos += raw.length;
    return pointerSelector(raw, path, { start, end: pos });
  }
  const first = nameEnd(pos);
  if (first === pos) decline();
  const segments: Segment[] = [{ kind: "name", name: src.slice(pos, first), span: { start: pos, end: first } }];
  pos = first;
  for (;;) {
    const c = src.charCodeAt(pos);
    const at = pos;
    if (c === 46 /* . */) {
      const next = src.charCodeAt(pos + 1);
      if (isLetter(next)) {
        const end = nameEnd(pos + 1);
        segments.push({ kind: "name", name: src.slice(pos + 1, end), span: { start: at, end } });
        pos = end;
      } else if (isDigit(next)) {
        let end = pos + 2;
        while (end < len && isDigit(src.charCodeAt(end))) end++;
        segments.push({ kind: "index", name: src.slice(pos + 1, end), span: { start: at, end } });
        pos = end;
      } else {
        decline();
      }
    } else if (c === 91 /* [ */) {
      pos++;
      skipSpace();
      const q = src.charCodeAt(pos);
      if (q !== 34 && q !== 96) decline();
      const raw = quoted(q);
      const key = quotedValue(raw);
      pos += raw.length;
      skipSpace();
      if (src.charCodeAt(pos) !== 93 /* ] */) decline();
      pos++;
      segments.push({ kind: "key", name: key, raw, span: { start: at, end: pos } });
    } else {
      break;
    }
  }
  return { kind: "selector", form: "path", segments, raw: "", span: { start, end: pos } };
}

/** value = pointer | selector (taken as its text) | plainValue */
function valueHere(): Literal {
  const c = src.charCodeAt(pos);
  if (isLetter(c)) return wordLiteral(selectorHere());
  if (c === 34 /* " */ && mayBePointer()) {
    const raw = quoted(34);
    const path = pointerPath(raw);
    if (path !== undefined) {
      const start = pos;
      pos += raw.length;
      return pointerLiteral(raw, path, { start, end: pos });
    }
  }
  return plainValue();
}

/** plainValue = number | string   (the callers have ruled out a string shaped like a pointer) */
function plainValue(): Literal {
  const start = pos;
  const c = src.charCodeAt(pos);
  if (c === 34 || c === 96) {
    const raw = quoted(c);
    const text = quotedValue(raw);
    pos += raw.length;
    return { kind: "literal", type: "string", raw, text, span: { start, end: pos } };
  }
  return number();
}

/** number = [ "-" ] digits [ "." digits ], then whitespace, ")" or the end; no leading zero. */
function number(): Literal {
  const start = pos;
  if (src.charCodeAt(pos) === 45 /* - */) pos++;
  const int = pos;
  while (pos < len && isDigit(src.charCodeAt(pos))) pos++;
  if (pos === int || (pos - int > 1 && src.charCodeAt(int) === 48 /* 0 */)) decline();
  if (src.charCodeAt(pos) === 46 /* . */ && isDigit(src.charCodeAt(pos + 1))) {
    pos += 2;
    while (pos < len && isDigit(src.charCodeAt(pos))) pos++;
  }
  if (pos < len && !isSpace(src.charCodeAt(pos)) && src.charCodeAt(pos) !== 41 /* ) */) decline();
  const raw = src.slice(start, pos);
  return { kind: "literal", type: "number", raw, text: raw, span: { start, end: pos } };
}
