import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, FilterSyntaxError, parse } from "../../src/index.js";
import { runs } from "../support/runs.js";

// Text made of the language's own pieces (and a few foreign ones), glued with or without whitespace:
// most of it is invalid, in every way the parser can fail.
const PIECES = [
  "x", "Name", "a.b", 'a["k"]', "Meta.team", "any", "all", "as", "v", "_", ",", "and", "or", "not", "in", "contains", "matches",
  "is", "empty", "nil", "==", "!=", "(", ")", "{", "}", "[", "]", '"s"', "`r`", '"/p/q"', "1", "-2.5", "01", ".", "-", "=", "&&", "'q'", '"open', ">",
];
const textArb = fc
  .array(fc.tuple(fc.constantFrom(...PIECES), fc.constantFrom("", " ", " ", "\n", "\t")), { minLength: 1, maxLength: 12 })
  .map((parts) => parts.map(([p, ws]) => p + ws).join(""));

describe("syntax errors", () => {
  it("carry a catalogue code, one position (the span's, at the end of the message) and the library's own words", () => {
    let errors = 0;
    fc.assert(
      fc.property(textArb, (text) => {
        let error: unknown;
        try {
          parse(text);
        } catch (e) {
          error = e;
        }
        if (error === undefined) return;
        errors++;
        expect(error).toBeInstanceOf(FilterSyntaxError);
        const e = error as FilterSyntaxError;
        expect(ERROR_CODES.syntax).toContain(e.code);
        // Its first line; a second is the reference's parse budget running out after the error (budget-lines.test.ts).
        const [first, ...rest] = e.message.split("\n");
        expect(first).toBe(`${e.summary} at ${e.line}:${e.column}`);
        expect(rest.every((line) => line.startsWith("max number of expressions parsed: "))).toBe(true);
        expect(rest.length).toBeLessThanOrEqual(1);
        // One position: the summary names none (the texts generated hold no digits followed by ":").
        expect(e.summary).not.toMatch(/\d+:\d+|\bcolumn \d|\bline \d/);
        // Chevrotain's default wording never shows.
        expect(e.summary).not.toMatch(/Expecting|-->|<--|but found|EOF/);
        expect(0 <= e.span.start && e.span.start <= e.span.end && e.span.end <= text.length).toBe(true);
      }),
      { numRuns: runs(3000) },
    );
    expect(errors).toBeGreaterThan(2000);
  });
});
