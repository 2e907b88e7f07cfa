/**
 * `parse(text)`: the lexer and the one reused parser instance behind a small API that enforces the
 * limits and turns every failure into a `FilterSyntaxError` with a position and a message in words.
 */
import { EOF, type IRecognitionException, type IToken } from "chevrotain";
import { FilterSyntaxError } from "../errors.js";
import type { Ast } from "./ast.js";
import { budgetMayExceed, budgetSteps, REFERENCE_PARSE_BUDGET } from "./budget.js";
import { FilterParser, tokenSpan } from "./parser.js";
import { lexer } from "./tokens.js";

/** Limits on what `parse` accepts; every one has a default. */
export interface ParseOptions {
  /** Longest accepted expression, in UTF-16 code units. Default 1,048,576. */
  maxLength?: number;
  /**
   * Deepest nesting of parentheses, collection bodies and `not`s; 0 means no limit. Default 0: the
   * reference has no such limit, its parse budget (`maxExpressions`) bounds nesting instead.
   */
  maxDepth?: number;
  /**
   * The reference's parse budget, in its own meaning (go-bexpr's `WithMaxExpressions`): the number of
   * grammar expressions its generated parser may try before it gives up with "max number of
   * expressions parsed" (`too-many-expressions`). Default 2,000,000, the reference's; 0 also means
   * the default, as in the reference; `Infinity` means no budget.
   */
  maxExpressions?: number;
  /** Most match expressions (`x == 1`, `"a" in y`, ...) in one filter; 0 means no limit. Default 0. */
  maxMatches?: number;
}

export const DEFAULT_PARSE_OPTIONS: Readonly<Required<ParseOptions>> = Object.freeze({
  maxLength: 1_048_576,
  maxDepth: 0,
  maxExpressions: REFERENCE_PARSE_BUDGET,
  maxMatches: 0,
});

let parser: FilterParser | undefined;

/** The shared parser instance, created on first use. */
export function sharedParser(): FilterParser {
  return (parser ??= new FilterParser());
}

/** What each rule expects, for messages about a failure inside it. */
const EXPECTED: Readonly<Record<string, string>> = {
  filter: "an expression",
  expression: "a selector, a value, \"(\" or \"not\"",
  negation: "an expression",
  match: "an operator (==, !=, contains, not contains, matches, not matches, in, not in, is empty, is not empty, is nil, is not nil)",
  inOp: '"in"',
  selectorAfterIn: "a selector",
  collectionHead: "a collection expression (any/all SELECTOR as NAME { ... })",
  binding: 'a name or "_"',
  selector: "a selector",
  indexSegment: "a quoted key",
  value: "a value",
  plainValue: "a value",
  number: "a number",
};

/** Parses a filter expression to its AST. Throws `FilterSyntaxError` (and nothing else) on bad input. */
export function parse(text: string, options: ParseOptions = {}): Ast {
  const limits = { ...DEFAULT_PARSE_OPTIONS, ...options };
  if (typeof text !== "string") {
    throw new FilterSyntaxError("unexpected-input", "the expression must be a string", String(text), { start: 0, end: 0 });
  }
  if (text.length > limits.maxLength) {
    throw new FilterSyntaxError(
      "input-too-long",
      `the expression is ${text.length} characters long, more than the limit of ${limits.maxLength}`,
      text,
      { start: limits.maxLength, end: text.length },
    );
  }
  if (/^[ \t\r\n]*$/.test(text)) {
    throw new FilterSyntaxError("empty-expression", "the expression is empty", text, { start: text.length, end: text.length });
  }
  // The reference's budget first: where it runs out, that is the reference's answer (its parser
  // stops there, whatever comes after), and a long text need not be parsed twice.
  checkBudget(text, limits.maxExpressions || REFERENCE_PARSE_BUDGET);
  const lexed = lexer.tokenize(text);
  // A character no token matches can never be consumed: parse up to it, and report it unless the
  // text before it already fails.
  const badChar = lexed.errors[0]?.offset;
  const tokens = badChar === undefined ? lexed.tokens : lexed.tokens.filter((t) => t.startOffset < badChar);
  const p = sharedParser();
  p.begin(text, tokens, limits);
  let ast: Ast | undefined;
  try {
    ast = p.filter();
  } catch (e) {
    if (e instanceof RangeError) {
      throw new FilterSyntaxError("nesting-too-deep", "the expression nests too deeply to parse", text, { start: 0, end: text.length });
    }
    if (e instanceof FilterSyntaxError && (badChar === undefined || e.offset < badChar)) throw e;
    if (badChar === undefined) throw e;
  }
  const error = p.errors[0];
  if (badChar !== undefined && (error === undefined || tokenSpan(error.token, text).start >= badChar || ast === undefined)) {
    const ch = String.fromCodePoint(text.codePointAt(badChar) ?? 0);
    const advice = CHARACTER_ADVICE[ch] ?? CHARACTER_ADVICE[text.slice(badChar, badChar + 2)];
    throw new FilterSyntaxError("unexpected-input", `unexpected character ${JSON.stringify(ch)}${advice ? `: ${advice}` : ""}`, text, { start: badChar, end: badChar + ch.length });
  }
  if (error !== undefined) throw recognitionError(error, text);
  if (ast === undefined) throw new FilterSyntaxError("unexpected-input", "the expression could not be parsed", text, { start: 0, end: text.length });
  return ast;
}

/**
 * The reference's parse budget: replayed (budget.ts) only when a cheap weight of the text says the
 * reference could run out of it, which no expression of ordinary size and nesting does.
 */
function checkBudget(text: string, max: number): void {
  if (!budgetMayExceed(text, max)) return;
  const r = budgetSteps(text, max);
  if (!r.exceeded) return;
  throw new FilterSyntaxError(
    "too-many-expressions",
    `max number of expressions parsed: the reference's parser gives up here, after ${max.toLocaleString("en-US")} steps (rule ${r.rule}); nest fewer parentheses or write a shorter expression`,
    text,
    { start: r.offset, end: r.offset },
  );
}

/** Words for a token in a message. */
function describe(t: IToken): string {
  if (t.tokenType === EOF) return "the end of the expression";
  return JSON.stringify(t.image.length > 24 ? `${t.image.slice(0, 24)}…` : t.image);
}

const WORD_OPERATOR = /^(and|or|not|in|contains|matches|is|as)$/;

/** Advice for characters people bring from other languages. */
const CHARACTER_ADVICE: Readonly<Record<string, string>> = {
  "=": 'compare with "=="',
  "&&": 'write "and"',
  "||": 'write "or"',
  "!": 'write "not" (with a space after it), or "!=" to compare',
  "'": "quote strings with double quotes or backticks",
  "<": "the language has no ordering comparisons",
  ">": "the language has no ordering comparisons",
};

/** What must follow an operator word. */
const FOLLOW: Readonly<Record<string, string>> = {
  and: "an expression",
  or: "an expression",
  in: "a selector",
  contains: "a value",
  matches: "a regular expression",
  is: '"empty", "nil" or "not"',
};
const tokenEnd = (t: IToken): number => t.startOffset + t.image.length;

function recognitionError(e: IRecognitionException, text: string): FilterSyntaxError {
  const token = e.token;
  const span = tokenSpan(token, text);
  const rule = e.context.ruleStack[e.context.ruleStack.length - 1] ?? "filter";
  const tokens = sharedParser().input;
  const index = token.tokenType === EOF ? tokens.length : tokens.indexOf(token);
  const prev = index > 0 ? tokens[index - 1] : undefined;
  const next = index >= 0 ? tokens[index + 1] : undefined;
  const after = prev ? ` after ${describe(prev)}` : "";
  const atEnd = token.tokenType === EOF;
  // Word operators need whitespace around them: say so where it is missing.
  if (prev && !atEnd && span.start === tokenEnd(prev) && (WORD_OPERATOR.test(prev.image) || WORD_OPERATOR.test(token.image))) {
    return new FilterSyntaxError("missing-whitespace", `expected whitespace between ${describe(prev)} and ${describe(token)}`, text, span);
  }
  if (!atEnd && WORD_OPERATOR.test(token.image) && next && next.startOffset === span.end) {
    return new FilterSyntaxError("missing-whitespace", `expected whitespace between ${describe(token)} and ${describe(next)}`, text, tokenSpan(next, text));
  }
  // An operator word at the very end (`x == 1 and`, `"a" in`, `x is`): say what it lacks.
  if (!atEnd && next === undefined && FOLLOW[token.image]) {
    return new FilterSyntaxError("unexpected-end", `expected ${FOLLOW[token.image]} after ${describe(token)}, but the expression ends`, text, { start: text.length, end: text.length });
  }
  if (!atEnd && token.image === "is" && next?.image === "not" && tokens[index + 2] === undefined) {
    return new FilterSyntaxError("unexpected-end", 'expected "empty" or "nil" after "is not", but the expression ends', text, { start: text.length, end: text.length });
  }
  let expected = EXPECTED[rule] ?? "an expression";
  if (rule === "filter") expected = '"and", "or" or the end of the expression';
  const custom = /^expected (.*)$/.exec(e.message);
  if (custom?.[1]) expected = custom[1].replace(/ after .*$/, "");
  else if (e.name === "MismatchedTokenException") {
    const m = /Expecting token of type --> (.*?) <--/.exec(e.message);
    if (m?.[1] === "EOF") expected = '"and", "or", ")" or the end of the expression';
    else if (m?.[1]) expected = m[1];
  }
  if (atEnd) {
    return new FilterSyntaxError("unexpected-end", `expected ${expected}${after}, but the expression ends`, text, span);
  }
  return new FilterSyntaxError("unexpected-input", `expected ${expected}${after}, found ${describe(token)}`, text, span);
}
