/**
 * `KEYWORDS` is the language's one list of words: the lexer makes a keyword token of each of them and
 * of nothing else.
 */
import { describe, expect, it } from "vitest";
import { KEYWORDS, keywordsOf } from "../../src/index.js";
import { allTokens, Identifier, lexer } from "../../src/syntax/tokens.js";

describe("KEYWORDS", () => {
  it("are exactly the words the lexer makes keyword tokens of", () => {
    // A keyword token is a word-shaped token that an identifier may be longer than.
    const lexed = allTokens.filter((t) => t.LONGER_ALT === Identifier).map((t) => (t.PATTERN as RegExp).source);
    expect(lexed.sort()).toEqual(Object.keys(KEYWORDS).sort());
    for (const word of Object.keys(KEYWORDS)) {
      const { tokens } = lexer.tokenize(word);
      expect(tokens.map((t) => t.tokenType.name)).toEqual([word[0]!.toUpperCase() + word.slice(1)]);
    }
  });

  it("keywordsOf gives the words of some roles, in the table's order", () => {
    expect(keywordsOf("junction", "negation")).toEqual(["and", "or", "not"]);
    expect(keywordsOf("operand", "quantifier")).toEqual(["empty", "nil", "any", "all"]);
    expect(keywordsOf()).toEqual([]);
  });
});
