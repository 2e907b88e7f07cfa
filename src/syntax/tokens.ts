/**
 * Every token of the language, in lexing order. Whitespace is skipped: where the reference requires it
 * (around word operators: `x in y`, `a and b`) or forbids it (inside selectors and numbers), the parser
 * looks at the gap between two tokens. Keywords are contextual: each keyword token is also an
 * `Identifier` (category), so `in == x` is a match on the field `in`.
 */
import { createToken, Lexer, type TokenType } from "chevrotain";
import type { Keyword } from "./words.js";

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /[ \t\r\n]+/, group: Lexer.SKIPPED, label: "whitespace" });

export const Identifier = createToken({ name: "Identifier", pattern: /[a-zA-Z][a-zA-Z0-9_/]*/, label: "a name" });

/** Categories: one `CONSUME` matches any member. */
export const Quantifier = createToken({ name: "Quantifier", pattern: Lexer.NA, label: '"any" or "all"' });
export const TextOperator = createToken({ name: "TextOperator", pattern: Lexer.NA, label: '"contains" or "matches"' });
export const Emptiness = createToken({ name: "Emptiness", pattern: Lexer.NA, label: '"empty" or "nil"' });
export const EqualityOperator = createToken({ name: "EqualityOperator", pattern: Lexer.NA, label: '"==" or "!="' });
export const QuotedKey = createToken({ name: "QuotedKey", pattern: Lexer.NA, label: "a quoted key" });
export const Unterminated = createToken({ name: "Unterminated", pattern: Lexer.NA, label: "an unterminated string" });

function keyword(word: Keyword, category?: TokenType): TokenType {
  return createToken({
    name: word[0]!.toUpperCase() + word.slice(1),
    pattern: new RegExp(word),
    longer_alt: Identifier,
    categories: category ? [Identifier, category] : [Identifier],
    label: `"${word}"`,
  });
}

export const And = keyword("and");
export const Or = keyword("or");
export const Not = keyword("not");
export const In = keyword("in");
export const Contains = keyword("contains", TextOperator);
export const Matches = keyword("matches", TextOperator);
export const Is = keyword("is");
export const Empty = keyword("empty", Emptiness);
export const Nil = keyword("nil", Emptiness);
export const Any = keyword("any", Quantifier);
export const All = keyword("all", Quantifier);
export const As = keyword("as");

export const Equal = createToken({ name: "Equal", pattern: /==/, label: '"=="', categories: [EqualityOperator] });
export const NotEqual = createToken({ name: "NotEqual", pattern: /!=/, label: '"!="', categories: [EqualityOperator] });
export const LParen = createToken({ name: "LParen", pattern: /\(/, label: '"("' });
export const RParen = createToken({ name: "RParen", pattern: /\)/, label: '")"' });
export const LBracket = createToken({ name: "LBracket", pattern: /\[/, label: '"["' });
export const RBracket = createToken({ name: "RBracket", pattern: /]/, label: '"]"' });
export const LBrace = createToken({ name: "LBrace", pattern: /\{/, label: '"{"' });
export const RBrace = createToken({ name: "RBrace", pattern: /}/, label: '"}"' });
export const Comma = createToken({ name: "Comma", pattern: /,/, label: '","' });
export const Dot = createToken({ name: "Dot", pattern: /\./, label: '"."' });
export const Minus = createToken({ name: "Minus", pattern: /-/, label: '"-"' });
export const Underscore = createToken({ name: "Underscore", pattern: /_/, label: '"_"' });
export const Digits = createToken({ name: "Digits", pattern: /[0-9]+/, label: "digits" });

/** `"..."`: no escape can hide a quote (the reference ends the string at the next `"`). */
export const DoubleQuoted = createToken({ name: "DoubleQuoted", pattern: /"[^"]*"/, label: "a string", categories: [QuotedKey] });
/** A `"` with no closing quote: the rest of the input. */
export const UnterminatedDoubleQuoted = createToken({ name: "UnterminatedDoubleQuoted", pattern: /"[^"]*/, categories: [Unterminated] });
export const BackQuoted = createToken({ name: "BackQuoted", pattern: /`[^`]*`/, label: "a raw string", categories: [QuotedKey] });
export const UnterminatedBackQuoted = createToken({ name: "UnterminatedBackQuoted", pattern: /`[^`]*/, categories: [Unterminated] });

export const allTokens: TokenType[] = [
  Quantifier,
  TextOperator,
  Emptiness,
  EqualityOperator,
  QuotedKey,
  Unterminated,
  WhiteSpace,
  And,
  Or,
  Not,
  In,
  Contains,
  Matches,
  Is,
  Empty,
  Nil,
  Any,
  All,
  As,
  Identifier,
  Equal,
  NotEqual,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Dot,
  Minus,
  Underscore,
  Digits,
  DoubleQuoted,
  UnterminatedDoubleQuoted,
  BackQuoted,
  UnterminatedBackQuoted,
];

/** The one lexer instance. A character no token matches is a lexing error, reported by the parser. */
export const lexer = new Lexer(allTokens, {
  positionTracking: "onlyOffset",
  ensureOptimizations: true,
});

/**
 * Where the lexer (`lexer.tokenize(text)`) meets its first character that no token matches, or -1:
 * the same answer as `lexer.tokenize(text).errors[0]?.offset`, in one pass over the characters that
 * knows only what the patterns above need to tell a token's character from any other: whether an
 * identifier is open (which `/` may continue) and where a string closes.
 */
export function firstUnlexable(text: string): number {
  const n = text.length;
  let identifier = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    switch (c < 128 ? KIND[c] : BAD) {
      case LETTER:
        identifier = true;
        break;
      case DIGIT:
        // (A digit or "_" goes on with an identifier, or is a token of its own: either way, no error.)
        break;
      case SLASH:
        if (!identifier) return i;
        break;
      case OTHER:
        identifier = false;
        break;
      case QUOTE: {
        // A string runs to its closing quote, or unterminated to the end.
        const close = text.indexOf(c === 34 ? '"' : "`", i + 1);
        if (close < 0) return -1;
        i = close;
        identifier = false;
        break;
      }
      case EQUALS:
        if (text.charCodeAt(i + 1) !== 61) return i;
        i++;
        identifier = false;
        break;
      default:
        return i;
    }
  }
  return -1;
}

/** What `firstUnlexable` tells apart among ASCII characters (`KIND`). */
const BAD = 0, LETTER = 1, DIGIT = 2, SLASH = 3, OTHER = 4, QUOTE = 5, EQUALS = 6;
const KIND = (() => {
  const kind = new Uint8Array(128);
  const set = (chars: string, k: number) => {
    for (const ch of chars) kind[ch.charCodeAt(0)] = k;
  };
  set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", LETTER);
  set("0123456789_", DIGIT);
  set("/", SLASH);
  set(" \t\r\n()[]{},.-", OTHER);
  set('"`', QUOTE);
  set("=!", EQUALS);
  return kind;
})();

/**
 * Steps over `count` tokens of `text` from offset `from` (a token's start), as the patterns above
 * read them, with no token objects: where the token after them starts (whitespace skipped), the
 * offset of a character that no token matches (the lexer's first error there), or the end.
 */
export function scanTokens(text: string, from: number, count: number): number {
  let i = skipBlanks(text, from);
  for (let tokens = 0; i < text.length && tokens < count; tokens++) {
    const end = tokenEnd(text, i);
    if (end < 0) return i;
    i = skipBlanks(text, end);
  }
  return i;
}

/** The end of the token that starts at `i` (not whitespace), or -1 when no token matches there. */
export function tokenEnd(text: string, i: number): number {
  const n = text.length;
  const c = text.charCodeAt(i);
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90)) {
    // An identifier (or a keyword, which is one).
    i++;
    for (let d = text.charCodeAt(i); (d >= 97 && d <= 122) || (d >= 65 && d <= 90) || (d >= 48 && d <= 57) || d === 95 || d === 47; d = text.charCodeAt(++i));
    return i;
  }
  if (c >= 48 && c <= 57) {
    i++;
    while (i < n && text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) i++;
    return i;
  }
  if (SINGLE.has(c)) return i + 1;
  if (c === 61 /* = */ || c === 33 /* ! */) return text.charCodeAt(i + 1) === 61 ? i + 2 : -1;
  if (c === 34 /* " */ || c === 96 /* ` */) {
    // A string runs to its closing quote, or unterminated to the end.
    const close = text.indexOf(c === 34 ? '"' : "`", i + 1);
    return close < 0 ? n : close + 1;
  }
  return -1;
}

/** The first offset from `i` that is not whitespace (or the end). */
export function skipBlanks(text: string, i: number): number {
  for (let c = text.charCodeAt(i); c === 32 || c === 9 || c === 13 || c === 10; c = text.charCodeAt(++i));
  return i;
}

/** The one-character tokens: ( ) [ ] { } , . - _ */
const SINGLE = new Set([..."()[]{},.-_"].map((c) => c.charCodeAt(0)));
