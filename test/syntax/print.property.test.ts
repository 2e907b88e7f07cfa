import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse, print, type Expr } from "../../src/index.js";
import { NAMES, exprArb, withoutSpans } from "../support/arbitraries.js";
import { runs } from "../support/runs.js";

/**
 * A match that begins with the word `not` (`not not contains x`, `not in in or y`) may be read by the
 * reference as a negation of what follows: such trees have no text of their own.
 */
function canonical(e: Expr): boolean {
  switch (e.kind) {
    case "match": {
      const first = e.op === "in" || e.op === "not in" ? e.value?.raw : e.selector.form === "path" && e.selector.segments.length === 1 ? e.selector.segments[0]!.name : undefined;
      return first !== "not";
    }
    case "not":
      return canonical(e.operand);
    case "and":
    case "or":
      return e.operands.every(canonical);
    case "collection":
      return canonical(e.body);
  }
}

describe("print", () => {
  it("parse ∘ print is the identity on ASTs (up to spans)", () => {
    fc.assert(
      fc.property(exprArb(NAMES).filter(canonical), (ast) => {
        const text = print(ast);
        expect(withoutSpans(parse(text))).toEqual(withoutSpans(ast));
      }),
      { numRuns: runs(3000) },
    );
  });

  it("printing is idempotent", () => {
    fc.assert(
      fc.property(exprArb(NAMES), (ast) => {
        const once = print(ast);
        let reparsed: Expr;
        try {
          reparsed = parse(once);
        } catch {
          return; // not every random tree is printable as valid text (see canonical); those are skipped
        }
        expect(print(reparsed)).toBe(print(parse(print(reparsed))));
      }),
      { numRuns: runs(2000) },
    );
  });

  it("spans point at the text they came from", () => {
    fc.assert(
      fc.property(exprArb(NAMES).filter(canonical), (ast) => {
        const text = print(ast);
        const visit = (e: Expr): void => {
          expect(e.span.start).toBeGreaterThanOrEqual(0);
          expect(e.span.end).toBeLessThanOrEqual(text.length);
          if (e.kind === "match") {
            expect(text.slice(e.opSpan.start, e.opSpan.end).replace(/\s+/g, " ")).toBe(e.op);
            if (e.value) expect(text.slice(e.value.span.start, e.value.span.end)).toBe(e.value.raw);
          } else if (e.kind === "not") visit(e.operand);
          else if (e.kind === "collection") visit(e.body);
          else e.operands.forEach(visit);
        };
        visit(parse(text));
      }),
      { numRuns: runs(1000) },
    );
  });
});
