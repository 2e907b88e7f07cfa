import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, parse, print, schemas } from "../src/index.js";
import { NAMES, exprArb, jsonArb } from "./support/arbitraries.js";
import { runs } from "./support/runs.js";

const KNOWN = new Set(["FilterSyntaxError", "FilterTypeError", "FilterEvaluationError"]);

/** Runs `f`; any exception must be one of the library's own error classes. */
function noCrash(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    if (!KNOWN.has((e as Error).name)) throw e;
    const err = e as { offset: number; line: number; column: number; codeFrame(): string };
    expect(err.offset).toBeGreaterThanOrEqual(0);
    expect(err.line).toBeGreaterThanOrEqual(1);
    expect(typeof err.codeFrame()).toBe("string");
  }
}

/** Valid expressions with a few characters inserted, deleted or replaced. */
const mutated = fc
  .tuple(exprArb(NAMES, 3).map(print), fc.array(fc.tuple(fc.nat(), fc.nat(3), fc.string({ maxLength: 3, unit: "binary" })), { minLength: 1, maxLength: 4 }))
  .map(([text, edits]) =>
    edits.reduce((t, [at, del, ins]) => {
      const i = t.length === 0 ? 0 : at % (t.length + 1);
      return t.slice(0, i) + ins + t.slice(i + del);
    }, text),
  );

const ALPHABET = ['"', "`", "(", ")", "[", "]", "{", "}", " ", "\n", "=", "!", "-", ".", ",", "_", "0", "1", "a", "not", "and", "or", "in", "is", "any", "all", "as", "\\", "/", "~"];
const tokenSoup = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 30 }).map((parts) => parts.join(""));

describe("no input crashes the library", () => {
  it.each([
    ["arbitrary strings", fc.string({ maxLength: 60, unit: "binary" })],
    ["token soup", tokenSoup],
    ["mutations of valid expressions", mutated],
  ] as const)("%s: parse, compile and evaluate throw only the library's errors", (_name, texts) => {
    fc.assert(
      fc.property(texts, jsonArb(NAMES), (text, datum) => {
        noCrash(() => parse(text));
        noCrash(() => compile(text).evaluate(datum));
        noCrash(() => compile(text, { schema: schemas.job }).evaluate(datum));
        noCrash(() => compile(text, { schema: schemas.deployment, check: false }).evaluate(datum));
      }),
      { numRuns: runs(2000) },
    );
  });

  it("evaluates any datum, including non-objects, prototypes and odd values", () => {
    const odd = fc.oneof(jsonArb(NAMES), fc.anything(), fc.constantFrom(undefined, null, 1n, Object.create(null), [], "x"));
    fc.assert(
      fc.property(exprArb(NAMES, 3).map(print), odd, (text, datum) => {
        noCrash(() => compile(text).evaluate(datum));
        noCrash(() => compile(text, { schema: schemas.job, check: false }).evaluate(datum));
      }),
      { numRuns: runs(1500) },
    );
  });
});

describe("no nesting crashes the library", () => {
  // Runs of `not`s, parentheses and collection bodies, in any mix, up to thousands deep: within the
  // reference's parse budget they evaluate, beyond it they are its syntax error, and with no budget
  // at all nothing reaches the JavaScript stack. (One element per list: nested any/all under nots
  // may visit every combination.)
  const wrapper = fc.constantFrom("not ", "(", "any a as b { ", "all a as _, b { ");
  const closing = (w: string) => (w === "(" ? ")" : w.endsWith("{ ") ? " }" : "");
  const nested = fc
    .array(fc.tuple(wrapper, fc.integer({ min: 1, max: 400 })), { minLength: 1, maxLength: 8 })
    .map((runs) => runs.flatMap(([w, n]) => Array.from({ length: w === "(" ? Math.min(n, 3) : n }, () => w)))
    .map((ws) => `${ws.join("")}b == 1${ws.map(closing).reverse().join("")}`);

  it("parse, compile and evaluate answer or throw the library's errors, with and without a budget", () => {
    fc.assert(
      fc.property(nested, fc.constantFrom(undefined, Infinity), (text, maxExpressions) => {
        const options = maxExpressions === undefined ? {} : { maxExpressions };
        noCrash(() => compile(text, options).evaluate({ a: [1], b: 1 }));
        noCrash(() => compile(text, { ...options, schema: schemas.job }).evaluate({ ID: "x" }));
        noCrash(() => print(parse(text, options)));
      }),
      { numRuns: runs(25) },
    );
  });
});
