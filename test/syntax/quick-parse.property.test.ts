import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { print } from "../../src/index.js";
import { DEFAULT_PARSE_OPTIONS, fullParse } from "../../src/syntax/parse.js";
import { quickParse } from "../../src/syntax/quick-parse.js";
import { loadCorpus } from "../support/corpus.js";
import { JOB_NAMES, NAMES, exprArb } from "../support/arbitraries.js";
import { runs } from "../support/runs.js";

/**
 * The parser's fast path (quick-parse.ts) against the full parser: wherever it answers, the tree is
 * the full parser's, spans included; where the full parser fails, it declines (so the error is the
 * full parser's).
 */
function agrees(text: string, limits = DEFAULT_PARSE_OPTIONS): boolean {
  const quick = quickParse(text, limits);
  let full: unknown;
  try {
    full = fullParse(text, limits);
  } catch (e) {
    full = e;
  }
  if (quick !== undefined) expect(quick).toStrictEqual(full);
  return quick !== undefined;
}

/** Edits that break or bend a text where the two parsers could part: quotes, brackets, spacing, words. */
const EDITS = [" ", "", "(", ")", "{", "}", "[", "]", '"', "`", "\\", "-", "0", "1", ".", ",", "_", "=", "!", "/", "\t", "\n", "not ", "is ", " in ", "and", "or", "any", "as", "empty", "\\x", "é", "01"];

const mutated = (names: readonly string[]) =>
  fc.tuple(exprArb(names), fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.constantFrom(...EDITS)), { maxLength: 3 })).map(([ast, edits]) => {
    let text = print(ast);
    for (const [at, cut, insert] of edits) {
      const i = at % (text.length + 1);
      text = text.slice(0, i) + insert + text.slice(i + cut);
    }
    return text;
  });

describe("the parser's fast path", () => {
  it("gives the full parser's tree wherever it answers, on printed and edited expressions", () => {
    let answered = 0;
    let tried = 0;
    fc.assert(
      fc.property(fc.oneof(exprArb(NAMES).map(print), exprArb(JOB_NAMES).map(print), mutated(NAMES), mutated(JOB_NAMES)), (text) => {
        tried++;
        if (text.trim() === "") return;
        if (agrees(text)) answered++;
      }),
      { numRuns: runs(6000) },
    );
    // It must also be a fast path: it answers for most of these texts (about half are broken by edits).
    expect(answered / tried).toBeGreaterThan(0.4);
  });

  it("answers for every printed expression that does not start a match with the word not", () => {
    fc.assert(
      fc.property(exprArb(JOB_NAMES), (ast) => {
        const text = print(ast);
        expect(agrees(text)).toBe(true);
      }),
      { numRuns: runs(2000) },
    );
  });

  it("gives the full parser's tree, or declines, on every corpus expression", () => {
    let answered = 0;
    const texts = [...new Set(loadCorpus(["bexpr-cases.jsonl", "edge-cases.jsonl", "fidelity-cases.jsonl"]).map((c) => c.expr))].filter((t) => t.trim() !== "" && t.length < 100_000);
    for (const text of texts) if (agrees(text)) answered++;
    expect(answered).toBeGreaterThan(texts.length / 2);
  });

  it("declines where a limit is reached, so the full parser reports it", () => {
    fc.assert(
      fc.property(exprArb(JOB_NAMES), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), (ast, maxDepth, maxMatches) => {
        agrees(print(ast), { ...DEFAULT_PARSE_OPTIONS, maxDepth, maxMatches });
      }),
      { numRuns: runs(2000) },
    );
  });
});
