/**
 * `parse(text)`: the lexer and the one reused parser instance behind a small API that enforces the
 * limits and turns every failure into a `FilterSyntaxError` with a position and a message in words.
 */
import { EOF, type IRecognitionException, type IToken } from "chevrotain";
import { FilterSyntaxError } from "../errors.js";
import { syntaxError } from "../messages.js";
import type { Ast } from "./ast.js";
import { budgetMayExceed, budgetSteps, REFERENCE_PARSE_BUDGET } from "./budget.js";
import { FilterParser, tokenSpan } from "./parser.js";
import { quickParse } from "./quick-parse.js";
import { describeToken as describe } from "./recognition.js";
import { lexer } from "./tokens.js";
import { has, NEWEST_TARGET, resolveTarget, type Target } from "../targets/releases.js";
import { budgetRules, unsupportedConstructs, unsupportedFacts } from "../targets/syntax.js";

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
  /**
   * Parse as this release does (`"go-bexpr@0.1.12"`, `"nomad@1.10.5"`; docs/api.md, "Version
   * targets"): its grammar (no `any`/`all` before 0.1.13, no `is nil` before 0.1.16, each a
   * `not-in-target` syntax error) and its parse budget (none by default before 0.1.15). Default: the
   * newest, go-bexpr 0.1.16. An unknown name throws `UnknownTargetError`.
   */
  target?: string | Target;
}

/** The limits of `parse` (every option but the target) with their defaults. */
export type ParseLimits = Required<Omit<ParseOptions, "target">>;

export const DEFAULT_PARSE_OPTIONS: Readonly<ParseLimits> = Object.freeze({
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

/** Parses a filter expression to its AST. Throws `FilterSyntaxError` (and nothing else) on bad input. */
export function parse(text: string, options: ParseOptions = {}): Ast {
  const target = options.target === undefined ? NEWEST_TARGET : resolveTarget(options.target);
  // Most callers set no limit: the defaults, without copying the options.
  const limits: ParseLimits =
    options.maxLength === undefined && options.maxDepth === undefined && options.maxExpressions === undefined && options.maxMatches === undefined
      ? DEFAULT_PARSE_OPTIONS
      : { ...DEFAULT_PARSE_OPTIONS, ...definedLimits(options) };
  if (typeof text !== "string") {
    throw syntaxError("unexpected-input", String(text), { start: 0, end: 0 }, { notAString: true });
  }
  if (text.length > limits.maxLength) {
    throw syntaxError("input-too-long", text, { start: limits.maxLength, end: text.length }, { length: text.length, limit: limits.maxLength });
  }
  if (/^[ \t\r\n]*$/.test(text)) {
    throw syntaxError("empty-expression", text, { start: text.length, end: text.length });
  }
  // The reference's budget first: where it runs out, that is the reference's answer (its parser
  // stops there, whatever comes after), and a long text need not be parsed twice.
  // Before 0.1.15 the reference had a budget only where a caller set one (the scheduler never did).
  const budget = options.maxExpressions || (has(target, "parse-budget") ? REFERENCE_PARSE_BUDGET : Infinity);
  checkBudget(text, budget, target);
  const ast = quickParse(text, limits) ?? fullParse(text, limits);
  if (target !== NEWEST_TARGET) {
    const lacking = unsupportedConstructs(ast, target)[0];
    if (lacking !== undefined) throw syntaxError("not-in-target", text, lacking.span, unsupportedFacts(lacking, text, target));
  }
  return ast;
}

/** The limits `options` sets (an option set to undefined keeps its default, as an absent one). */
function definedLimits(options: ParseOptions): Partial<ParseLimits> {
  const out: Partial<ParseLimits> = {};
  for (const key of ["maxLength", "maxDepth", "maxExpressions", "maxMatches"] as const) if (options[key] !== undefined) out[key] = options[key];
  return out;
}

/**
 * The Chevrotain parser's answer (the fast path's reference): the AST, or the `FilterSyntaxError` for
 * the text. Expects the checks of `parse` before it (length, emptiness, the reference's budget).
 */
export function fullParse(text: string, limits: ParseLimits): Ast {
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
      throw syntaxError("nesting-too-deep", text, { start: 0, end: text.length }, {});
    }
    if (e instanceof FilterSyntaxError && (badChar === undefined || e.offset < badChar)) throw e;
    if (badChar === undefined) throw e;
  }
  const error = p.errors[0];
  if (badChar !== undefined && (error === undefined || tokenSpan(error.token, text).start >= badChar || ast === undefined)) {
    const ch = String.fromCodePoint(text.codePointAt(badChar) ?? 0);
    const advice = CHARACTER_ADVICE[ch] ?? CHARACTER_ADVICE[text.slice(badChar, badChar + 2)];
    throw syntaxError("unexpected-input", text, { start: badChar, end: badChar + ch.length }, { character: ch, advice });
  }
  if (error !== undefined) throw recognitionError(error, text);
  if (ast === undefined) throw syntaxError("unexpected-input", text, { start: 0, end: text.length }, { unparsed: true });
  return ast;
}

/**
 * The reference's parse budget: replayed (budget.ts) only when a cheap weight of the text says the
 * reference could run out of it, which no expression of ordinary size and nesting does.
 */
function checkBudget(text: string, max: number, target: Target): void {
  if (!budgetMayExceed(text, max)) return;
  const r = budgetSteps(text, max, budgetRules(target));
  if (!r.exceeded) return;
  throw syntaxError("too-many-expressions", text, { start: r.offset, end: r.offset }, { budget: max, rule: r.rule });
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
const FOLLOW: ReadonlyMap<string, string> = new Map([
  ["and", "an expression"],
  ["or", "an expression"],
  ["in", "a selector"],
  ["contains", "a value"],
  ["matches", "a regular expression"],
  ["is", '"empty", "nil" or "not"'],
]);
const tokenEnd = (t: IToken): number => t.startOffset + t.image.length;

/**
 * A recognition error as a `FilterSyntaxError`. Where a word operator touches its neighbour or ends
 * the expression, that is what the message says; otherwise the parser's message (recognition.ts)
 * stands, with the code for where it failed.
 */
function recognitionError(e: IRecognitionException, text: string): FilterSyntaxError {
  const token = e.token;
  const span = tokenSpan(token, text);
  const tokens = sharedParser().input;
  const index = token.tokenType === EOF ? tokens.length : tokens.indexOf(token);
  const prev = index > 0 ? tokens[index - 1] : undefined;
  const next = index >= 0 ? tokens[index + 1] : undefined;
  const atEnd = token.tokenType === EOF;
  const end = { start: text.length, end: text.length };
  // Word operators need whitespace around them: say so where it is missing.
  if (prev && !atEnd && span.start === tokenEnd(prev) && (WORD_OPERATOR.test(prev.image) || WORD_OPERATOR.test(token.image))) {
    return syntaxError("missing-whitespace", text, span, { between: describe(prev), and: describe(token) });
  }
  if (!atEnd && WORD_OPERATOR.test(token.image) && next && next.startOffset === span.end) {
    return syntaxError("missing-whitespace", text, tokenSpan(next, text), { between: describe(token), and: describe(next) });
  }
  // An operator word at the very end (`x == 1 and`, `"a" in`, `x is`): say what it lacks.
  const follow = FOLLOW.get(token.image);
  if (!atEnd && next === undefined && follow !== undefined) {
    return syntaxError("unexpected-end", text, end, { expected: follow, after: describe(token) });
  }
  if (!atEnd && token.image === "is" && next?.image === "not" && tokens[index + 2] === undefined) {
    return syntaxError("unexpected-end", text, end, { expected: '"empty" or "nil"', after: '"is not"' });
  }
  return new FilterSyntaxError(atEnd ? "unexpected-end" : "unexpected-input", e.message, text, span);
}
