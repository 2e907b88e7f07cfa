/**
 * `parse(text)`: the lexer and the one reused parser instance behind a small API that enforces the
 * limits and turns every failure into a `FilterSyntaxError` with a position and a message in words.
 */
import { EOF, type IRecognitionException, type IToken } from "chevrotain";
import { FilterSyntaxError } from "../errors.js";
import { syntaxError } from "../messages.js";
import type { Ast } from "./ast.js";
import { budgetSteps, type BudgetExceeded } from "./budget.js";
import { budgetMayExceed, REFERENCE_PARSE_BUDGET } from "./budget-weight.js";
import { DEFAULT_PARSE_OPTIONS, isBlank, parseLimits, type ParseLimits, type ParseOptions } from "./parse-options.js";
import { FilterParser, tokenSpan } from "./parser.js";
import { quickParse, type QuickOutcome } from "./quick-parse.js";
import { describeToken as describe } from "./recognition.js";
import { firstUnlexable, lexer, scanTokens, skipBlanks, tokenEnd as lexedEnd } from "./tokens.js";
import { has, NEWEST_TARGET, resolveTarget, type Target } from "../releases.js";
import { budgetRules, unsupportedConstructs, unsupportedFacts } from "./target-grammar.js";
import { keywordsOf } from "./words.js";

export { DEFAULT_PARSE_OPTIONS, type ParseLimits, type ParseOptions };

let parser: FilterParser | undefined;

/** The shared parser instance, created on first use. */
export function sharedParser(): FilterParser {
  return (parser ??= new FilterParser());
}

/** Parses a filter expression to its AST. Throws `FilterSyntaxError` (and nothing else) on bad input. */
export function parse(text: string, options: ParseOptions = {}): Ast {
  const target = options.target === undefined ? NEWEST_TARGET : resolveTarget(options.target);
  // Most callers set no limit: the defaults, without copying the options.
  const limits = parseLimits(options);
  if (typeof text !== "string") {
    throw syntaxError("unexpected-input", String(text), { start: 0, end: 0 }, { notAString: true });
  }
  if (text.length > limits.maxLength) {
    throw syntaxError("input-too-long", text, { start: limits.maxLength, end: text.length }, { length: text.length, limit: limits.maxLength });
  }
  if (isBlank(text)) {
    throw syntaxError("empty-expression", text, { start: text.length, end: text.length });
  }
  // The reference's budget first: where it runs out before any error of the grammar, that is the
  // reference's whole answer (its parser stops there, whatever comes after), and the text need not
  // be parsed. Before 0.1.15 the reference had a budget only where a caller set one (the scheduler
  // never did).
  const budget = options.maxExpressions || (has(target, "parse-budget") ? REFERENCE_PARSE_BUDGET : Infinity);
  const rules = budgetRules(target);
  const replayed = budgetMayExceed(text, budget) ? budgetSteps(text, budget, rules) : undefined;
  if (replayed?.exceeded && !replayed.afterError) throw budgetError(text, replayed, budget);
  let ast: Ast;
  try {
    const quick: QuickOutcome = { resume: 0 };
    ast = quickParse(text, limits, quick) ?? fullParse(text, limits, { resume: quick.resume });
  } catch (e) {
    // A text the reference rejects may still run out of its budget (a failing parse retries more
    // than the weight counts on): then its message is that alone, or comes after the error's.
    const r = replayed ?? (budget === Infinity ? undefined : budgetSteps(text, budget, rules));
    if (e instanceof FilterSyntaxError && r?.exceeded) throw r.afterError ? withBudgetLine(e, r, budget) : budgetError(text, r, budget);
    throw e;
  }
  // (Not met: a text on which a predicate of the reference's grammar fails never parses.)
  if (replayed?.exceeded) throw budgetError(text, replayed, budget);
  if (target !== NEWEST_TARGET) {
    const lacking = unsupportedConstructs(ast, target)[0];
    if (lacking !== undefined) throw syntaxError("not-in-target", text, lacking.span, unsupportedFacts(lacking, text, target));
  }
  return ast;
}

/** Tokens of a long text lexed and parsed first (then eight times as many, and so on: `fullParse`). */
const FIRST_LEXED = 1024;
/** Characters before a place to resume at (`fullParse`) that make it worth a second parse. */
const RESUME_FROM = 4096;

/** How `fullParse` goes about a long text (each way gives the same answer). */
export interface FullParseWays {
  /** Tokens lexed and parsed first (default 1,024); Infinity lexes the whole text at once. */
  firstLexed?: number;
  /** Where the fast path found the last "and"/"or" between two operands of the whole expression (`QuickOutcome`). */
  resume?: number;
  /** False: no shorter parse first (no `resume`, no `fewerOpeners`). Default true. */
  shorter?: boolean;
}

/**
 * The Chevrotain parser's answer (the fast path's reference): the AST, or the `FilterSyntaxError` for
 * the text. Expects the checks of `parse` before it (length, emptiness, the reference's budget).
 *
 * A long text is lexed and parsed from its beginning first (the characters of its first `firstLexed`
 * tokens, then of eight times as many, …): where that parse ends without looking at the beginning's
 * last tokens, which might continue past it, the rest of the text cannot change the answer. So an
 * error near the start of a megabyte costs what the start costs. `firstLexed: Infinity` lexes the
 * whole text at once.
 *
 * With `resume` (where the fast path found the last "and"/"or" between two operands of the whole
 * expression, `QuickOutcome`), an error after it is found by parsing the text with one short operand
 * standing for everything before it: the parser is in the same state there either way (an operand
 * read, outside every group), so a long chain with an error at its end costs its end. A text that
 * opens many groups first is parsed with most of them blanked first (`fewerOpeners`).
 */
export function fullParse(text: string, limits: ParseLimits, ways: FullParseWays = {}): Ast {
  const { firstLexed = FIRST_LEXED, resume = 0 } = ways;
  // A shorter parse that meets the same error (`resume`, `fewerOpeners`): the error, in the whole
  // text (its line and column counted there); else the whole parse.
  const shorter =
    ways.shorter === false
      ? undefined
      : resume >= RESUME_FROM && limits.maxMatches === 0
        ? { text: `a==1${" ".repeat(resume - 4)}${text.slice(resume)}`, from: resume, until: text.length }
        : limits.maxDepth === 0
          ? fewerOpeners(text)
          : undefined;
  if (shorter !== undefined) {
    try {
      fullParse(shorter.text, limits, { firstLexed });
    } catch (e) {
      if (e instanceof FilterSyntaxError && e.span.start >= shorter.from && e.span.start < shorter.until) throw new FilterSyntaxError(e.code, e.summary, text, e.span);
    }
  }
  // A character no token matches can never be consumed: parse up to it, and report it unless the
  // text before it already fails.
  const bad = firstUnlexable(text);
  const badChar = bad < 0 ? undefined : bad;
  const lexable = badChar ?? text.length;
  for (let tokens = firstLexed; ; tokens *= 8) {
    const size = tokens >= lexable ? lexable : Math.min(lexable, scanTokens(text, 0, tokens) + 2);
    const answer = parseBeginning(text, size, lexable, badChar, limits);
    if (answer === undefined) continue;
    if ("error" in answer) throw answer.error;
    return answer.ast;
  }
}

/** Openers a text may start with ("(" and "not"), of which a shorter parse keeps the last ones (`fewerOpeners`). */
const KEPT_OPENERS = 64;

/**
 * `text` with the "(" and "not" it starts with blanked (as many spaces), but for the last
 * `KEPT_OPENERS`, when it starts with more than twice as many: its parse meets what the whole
 * text's meets from the first one kept (`from`) until the ")" that closes the first "(" kept
 * (`until`), where the whole parse returns to a group the shorter one does not have. The openers
 * blanked each open on the next, so the parser reads them without a choice to make.
 */
function fewerOpeners(text: string): { text: string; from: number; until: number } | undefined {
  const at: number[] = [];
  for (let i = skipBlanks(text, 0); ; ) {
    if (text.charCodeAt(i) === 40 /* ( */) {
      at.push(i);
      i = skipBlanks(text, i + 1);
    } else if (lexedEnd(text, i) === i + 3 && text.startsWith("not", i) && skipBlanks(text, i + 3) > i + 3) {
      at.push(i);
      i = skipBlanks(text, i + 3);
    } else {
      break;
    }
  }
  if (at.length <= 2 * KEPT_OPENERS) return undefined;
  const from = at[at.length - KEPT_OPENERS]!;
  let until = text.length;
  for (let i = from, depth = 0; i < text.length; ) {
    const end = lexedEnd(text, i);
    if (end < 0) break;
    const c = text.charCodeAt(i);
    if (c === 40) depth++;
    else if (c === 41 && --depth === 0) {
      until = i;
      break;
    }
    i = skipBlanks(text, end);
  }
  return { text: " ".repeat(from) + text.slice(from), from, until };
}

/**
 * `fullParse` over the tokens of `text`'s first `size` characters, of the `lexable` before its first
 * unlexable character (`badChar`): the answer, or undefined when the parse looked at the last tokens of
 * a beginning (those that end within two characters of its end) or past them.
 */
function parseBeginning(text: string, size: number, lexable: number, badChar: number | undefined, limits: ParseLimits): { ast: Ast } | { error: unknown } | undefined {
  const whole = size >= lexable;
  const lexed = lexer.tokenize(size === text.length ? text : text.slice(0, size));
  let tokens = lexed.tokens;
  let horizon = Infinity;
  if (!whole) {
    tokens = tokens.filter((t) => t.startOffset + t.image.length <= size - 2);
    horizon = tokens.length;
  }
  const p = sharedParser();
  p.begin(text, tokens, limits, horizon);
  let ast: Ast | undefined;
  let thrown: unknown;
  try {
    ast = p.filter();
  } catch (e) {
    thrown = e;
  }
  const error = p.errors[0];
  // (A recognition error's message looks at the two tokens after it.)
  if (p.pastHorizon || (error !== undefined && tokens.indexOf(error.token) + 2 >= horizon)) return undefined;
  if (thrown !== undefined) {
    if (thrown instanceof RangeError) return { error: syntaxError("nesting-too-deep", text, { start: 0, end: text.length }, {}) };
    if (thrown instanceof FilterSyntaxError && (badChar === undefined || thrown.offset < badChar)) return { error: thrown };
    if (badChar === undefined) return { error: thrown };
  }
  if (badChar !== undefined && (error === undefined || tokenSpan(error.token, text).start >= badChar || ast === undefined)) {
    const ch = String.fromCodePoint(text.codePointAt(badChar) ?? 0);
    const advice = CHARACTER_ADVICE[ch] ?? CHARACTER_ADVICE[text.slice(badChar, badChar + 2)];
    return { error: syntaxError("unexpected-input", text, { start: badChar, end: badChar + ch.length }, { character: ch, advice }) };
  }
  if (error !== undefined) return { error: recognitionError(error, text) };
  if (ast === undefined) return { error: syntaxError("unexpected-input", text, { start: 0, end: text.length }, { unparsed: true }) };
  return { ast };
}

/** The reference's "max number of expressions parsed", where its budget `max` ran out (`r`). */
function budgetError(text: string, r: BudgetExceeded, max: number): FilterSyntaxError {
  return syntaxError("too-many-expressions", text, { start: r.offset, end: r.offset }, { budget: max, rule: r.rule });
}

/**
 * The error `e` as the reference words a failure of its grammar after which it kept counting and ran
 * out of its budget (`r`): its message, then on a second line the budget's (`budgetError`), each
 * with its position. Its code, span and summary stay `e`'s.
 */
function withBudgetLine(e: FilterSyntaxError, r: BudgetExceeded, max: number): FilterSyntaxError {
  const both = new FilterSyntaxError(e.code, e.summary, e.source, e.span);
  both.message = `${e.message}\n${budgetError(e.source, r, max).message}`;
  return both;
}

/** The words that stand between or before operands: where one touches its neighbour, the message says so. */
const WORD_OPERATORS: ReadonlySet<string> = new Set(keywordsOf("junction", "negation", "operator", "binding"));

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
  if (prev && !atEnd && span.start === tokenEnd(prev) && (WORD_OPERATORS.has(prev.image) || WORD_OPERATORS.has(token.image))) {
    return syntaxError("missing-whitespace", text, span, { between: describe(prev), and: describe(token) });
  }
  if (!atEnd && WORD_OPERATORS.has(token.image) && next && next.startOffset === span.end) {
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
