/**
 * Go's regexp parser (src/semantics/re2) and the pattern it hands re2js. Where Go's and re2js's
 * readings cannot differ (ASCII pieces: no Unicode class names, no case pairs beyond ASCII, no
 * duplicate names), the flattened pattern must mean exactly what re2js makes of the original, and
 * the two must agree on which patterns are valid. The Unicode side is held by the recorded corpus
 * (test/fixtures/regex-unicode-cases.jsonl, answered by Go 1.23 itself).
 */
import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { compilePattern } from "../../src/semantics/regex.js";
import { runs } from "../support/runs.js";

const piece = fc.oneof(
  {
    weight: 9,
    arbitrary: fc.constantFrom(
      "a", "b", "B", "x", "0", "-", " ", ".", "^", "$", "\\A", "\\z", "\\b", "\\B", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S",
      "[a-c]", "[^a]", "[[:alpha:]]", "[[:^digit:]]", "[a-]", "[]a]", "\\.", "\\*", "\\x41", "\\x{62}", "\\101", "\\Qa.b\\E",
      "(?i)", "(?s)", "(?m)", "(?U)", "(?-i)", "{", "}", "{2", "|",
    ),
  },
  // Pieces that make a pattern invalid, in either reading.
  { weight: 1, arbitrary: fc.constantFrom(")", "(", "[", "\\", "\\q", "\\8", "x{1001}", "**", "[z-a]", "[[:foo:]]", "(?z)") },
);
const group = fc.constantFrom("(", "(?:", "(?i:", "(?s:", "(?m:", "(?-i:", "(?P<n>", "(?<m>", "(?U:");
const quantifier = fc.constantFrom("", "", "", "*", "+", "?", "*?", "+?", "{2}", "{1,3}", "{0}", "{2,}", "{0,1}?", "**");
const pattern: fc.Arbitrary<string> = fc.letrec<{ seq: string }>((tie) => ({
  seq: fc
    .array(fc.oneof({ depthSize: "small", withCrossShrink: true }, fc.tuple(piece, quantifier).map(([p, q]) => p + q), fc.tuple(group, tie("seq"), fc.constantFrom(")", ")", ")", "|a)", "")).map(([g, s, c]) => g + s + c)), { minLength: 1, maxLength: 5 })
    .map((parts) => parts.join("")),
})).seq;
const subject = fc.array(fc.constantFrom("a", "b", "B", "A", "x", "0", "-", " ", ".", "*", "\n", "é", "😀"), { maxLength: 10 }).map((p) => p.join(""));

function re2js(p: string): RE2JS | undefined {
  try {
    return RE2JS.compile(p);
  } catch {
    return undefined;
  }
}

describe("Go's regexp parser and the pattern re2js runs", () => {
  it("mean what re2js makes of the original wherever their tables cannot differ, and agree on validity", () => {
    let valid = 0;
    fc.assert(
      fc.property(pattern, fc.array(subject, { minLength: 1, maxLength: 6 }), (p, subjects) => {
        // A name used twice is valid in Go and not in re2js (the conformance corpus holds Go's answer).
        const names = [...p.matchAll(/\(\?P?<(\w+)>/g)].map((m) => m[1]);
        fc.pre(new Set(names).size === names.length);
        const ours = compilePattern(p);
        const theirs = re2js(p);
        expect(ours.error === undefined, `${JSON.stringify(p)}: ${ours.error ?? "valid"}`).toBe(theirs !== undefined);
        if (theirs === undefined) return;
        valid++;
        for (const s of subjects) expect(ours.test(s), `${JSON.stringify(p)} on ${JSON.stringify(s)}`).toBe(theirs.test(s));
      }),
      { numRuns: runs(4000) },
    );
    // Not vacuous: about a quarter of the draws are valid in both readings and were compared.
    expect(valid).toBeGreaterThan(500);
  });

  it("words errors as Go does, naming the offending part", () => {
    expect(compilePattern("\\p{White_Space}").error).toBe("invalid character class range: `\\p{White_Space}`");
    expect(compilePattern("a**").error).toBe("invalid nested repetition operator: `**`");
    expect(compilePattern("(?P<n!>a)").error).toBe("invalid named capture: `(?P<n!>`");
    expect(compilePattern("x{1001}").error).toBe("invalid repeat count: `{1001}`");
    expect(compilePattern("(".repeat(1001) + ")".repeat(1001)).error).toBe(`expression nests too deeply: \`${"(".repeat(1001) + ")".repeat(1001)}\``);
    expect(compilePattern("(?:(?:a{10}){10}){11}").error).toBe("invalid repeat count: `{11}`");
  });
});
