/**
 * The language's words, each with its role: the one list that the lexer's keyword tokens (tokens.ts),
 * the parser's messages (parse.ts), the fixes (fix/syntax.ts) and editors (the playground's colouring)
 * read. Free of the parser, so that a reader of the words loads nothing else.
 */
export const KEYWORDS = {
  and: "junction",
  or: "junction",
  not: "negation",
  in: "operator",
  contains: "operator",
  matches: "operator",
  is: "operator",
  empty: "operand",
  nil: "operand",
  any: "quantifier",
  all: "quantifier",
  as: "binding",
} as const;

/** A word of the language. */
export type Keyword = keyof typeof KEYWORDS;

/** What a word does: joins expressions, negates one, is (or starts) a match operator, follows `is`, starts a collection expression, or binds its names. */
export type KeywordRole = (typeof KEYWORDS)[Keyword];

/** The words of `roles`, in the order of `KEYWORDS`. */
export function keywordsOf(...roles: readonly KeywordRole[]): Keyword[] {
  return (Object.keys(KEYWORDS) as Keyword[]).filter((w) => roles.includes(KEYWORDS[w]));
}
