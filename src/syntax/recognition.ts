/**
 * What the parser says when a token does not fit: the `errorMessageProvider` of `FilterParser`, and
 * the same words for the mismatches the parser raises itself. Every message names what was expected
 * (by the rule that failed), the token after which, and what was found instead or that the
 * expression ends; the words come from the catalogue (messages.ts). `parse.ts` gives such an error
 * its code (`unexpected-end` at the end, `unexpected-input` elsewhere) and keeps the message as is.
 */
import { EOF, type IParserErrorMessageProvider, type IToken } from "chevrotain";
import { syntaxSummary } from "../messages.js";

/** What each rule expects, for a failure inside it. */
export const EXPECTED = {
  filter: '"and", "or" or the end of the expression',
  expression: 'a selector, a value, "(" or "not"',
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
} as const;

/** Where a whole expression has been read, and more follows that is not the end. */
const AFTER_EXPRESSION = '"and", "or", ")" or the end of the expression';

const inRule = (ruleName: string): string => (EXPECTED as Readonly<Record<string, string>>)[ruleName] ?? "an expression";

/** A token as messages show it: its text, quoted (cut at 24 characters), or the end. */
export function describeToken(t: IToken): string {
  if (t.tokenType === EOF) return "the end of the expression";
  return JSON.stringify(t.image.length > 24 ? `${t.image.slice(0, 24)}…` : t.image);
}

/** "expected `expected` after `previous`, found `actual` (`note`)" (or "…, but the expression ends"). */
export function expectedAt(expected: string, actual: IToken, previous: IToken | undefined, note?: string): string {
  const after = previous === undefined || previous.tokenType === EOF ? undefined : describeToken(previous);
  return actual.tokenType === EOF
    ? syntaxSummary("unexpected-end", { expected, after, note })
    : syntaxSummary("unexpected-input", { expected, after, found: describeToken(actual), note });
}

/** No alternative (or no first iteration) of rule `ruleName` fits the next token. */
const noneFits = ({ actual, previous, ruleName }: { actual: IToken[]; previous: IToken; ruleName: string }): string =>
  expectedAt(inRule(ruleName), actual[0]!, previous);

/** Chevrotain's recognition errors, in the catalogue's words. */
export const errorMessageProvider: IParserErrorMessageProvider = {
  buildMismatchTokenMessage: ({ expected, actual, previous, ruleName }) =>
    expectedAt(expected === EOF ? AFTER_EXPRESSION : expected.LABEL ?? inRule(ruleName), actual, previous),
  buildNoViableAltMessage: noneFits,
  buildEarlyExitMessage: noneFits,
  buildNotAllInputParsedMessage: ({ firstRedundant }) => expectedAt(EXPECTED.filter, firstRedundant, undefined),
};
