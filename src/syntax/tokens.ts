/**
 * Every token of the language, in lexing order. Whitespace is skipped: where the reference requires it
 * (around word operators: `x in y`, `a and b`) or forbids it (inside selectors and numbers), the parser
 * looks at the gap between two tokens. Keywords are contextual: each keyword token is also an
 * `Identifier` (category), so `in == x` is a match on the field `in`.
 */
import { createToken, Lexer, type TokenType } from "chevrotain";

export const WhiteSpace = createToken({ name: "WhiteSpace", pattern: /[ \t\r\n]+/, group: Lexer.SKIPPED, label: "whitespace" });

export const Identifier = createToken({ name: "Identifier", pattern: /[a-zA-Z][a-zA-Z0-9_/]*/, label: "a name" });

/** Categories: one `CONSUME` matches any member. */
export const Quantifier = createToken({ name: "Quantifier", pattern: Lexer.NA, label: '"any" or "all"' });
export const TextOperator = createToken({ name: "TextOperator", pattern: Lexer.NA, label: '"contains" or "matches"' });
export const Emptiness = createToken({ name: "Emptiness", pattern: Lexer.NA, label: '"empty" or "nil"' });
export const EqualityOperator = createToken({ name: "EqualityOperator", pattern: Lexer.NA, label: '"==" or "!="' });
export const QuotedKey = createToken({ name: "QuotedKey", pattern: Lexer.NA, label: "a quoted key" });
export const Unterminated = createToken({ name: "Unterminated", pattern: Lexer.NA, label: "an unterminated string" });

function keyword(word: string, category?: TokenType): TokenType {
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
