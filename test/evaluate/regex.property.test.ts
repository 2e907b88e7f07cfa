import fc from "fast-check";
import { RE2JS } from "re2js";
import { describe, expect, it } from "vitest";
import { compilePattern } from "../../src/semantics/regex.js";
import { runs } from "../support/runs.js";

/** Patterns of the shapes the fast paths take: literals and anchored simple patterns. */
const atom = fc.constantFrom("a", "b", "w", "-", "0", "9", "\\d", "[0-9]", "[a-c]", "[^0-9]", "\\.", "x", " ", "é");
const quantifier = fc.constantFrom("", "", "+", "*", "?", "{2}", "{1,3}");
const pattern = fc
  .tuple(fc.boolean(), fc.array(fc.tuple(atom, quantifier), { minLength: 1, maxLength: 5 }), fc.boolean())
  .map(([start, parts, endAnchor]) => `${start ? "^" : ""}${parts.map(([a, q]) => a + q).join("")}${endAnchor ? "$" : ""}`);
const subject = fc.array(fc.constantFrom("a", "b", "w", "-", "0", "9", ".", "x", " ", "é", "😀", "\n"), { maxLength: 12 }).map((p) => p.join(""));

describe("regular expression fast paths", () => {
  it("agree with RE2 (re2js) on every string, whichever engine they pick", () => {
    fc.assert(
      fc.property(pattern, fc.array(subject, { minLength: 1, maxLength: 8 }), (p, subjects) => {
        const compiled = compilePattern(p);
        const reference = RE2JS.compile(p);
        for (const s of subjects) expect(compiled.test(s)).toBe(reference.test(s));
      }),
      { numRuns: runs(3000) },
    );
  });

  it("take the fast engines only for patterns that cannot backtrack badly", () => {
    expect(compilePattern("web").engine).toBe("literal");
    expect(compilePattern("^web-1$").engine).toBe("literal");
    expect(compilePattern("^web-[0-9]+$").engine).toBe("native");
    expect(compilePattern("^(a+)+$").engine).toBe("re2");
    expect(compilePattern("^a*a*$").engine).toBe("re2");
    expect(compilePattern("a+$").engine).toBe("re2");
    expect(compilePattern("^a.b$").engine).toBe("re2");
    expect(compilePattern("(?i)web").engine).toBe("re2");
  });
});
