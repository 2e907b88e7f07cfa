/**
 * `parseJson` reads JSON text as `JSON.parse` does, but keeps integers beyond ±2^53 exact (`bigint`)
 * and decodes an escaped lone surrogate to U+FFFD, as Go's decoder does; text that is not JSON gets
 * `JSON.parse`'s own error.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseJson, stringifyJson } from "../src/index.js";
import { runs } from "./support/runs.js";

const big = fc.oneof(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), fc.constantFrom(2n ** 53n, -(2n ** 53n), 2n ** 63n - 1n, 2n ** 64n - 1n, 2n ** 60n));
/** An integer as `parseJson` gives it back: a number while it is safe, else the bigint. */
const kept = (n: bigint): number | bigint => (Number.isSafeInteger(Number(n)) ? Number(n) : n);

type Value = null | boolean | number | bigint | string | Value[] | { [k: string]: Value };
const key = fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom("__proto__", "constructor", "1", "0", "a\u0000b", "é"));
const value: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.constant(null),
    fc.boolean(),
    // JSON writes -0 as 0, and a double holding an integer beyond 2^53 as that integer (read back as a bigint).
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0) && (!Number.isInteger(x) || Number.isSafeInteger(x))),
    fc.integer(),
    big.map(kept),
    fc.string({ maxLength: 6 }),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.array(fc.tuple(key, tie("v")), { maxLength: 4 }).map((entries) => {
      const o: { [k: string]: Value } = {};
      for (const [k, x] of entries) Object.defineProperty(o, k, { value: x, enumerable: true, writable: true, configurable: true });
      return o;
    }),
  ),
})).v;

/** JSON text of `v` with random spacing. */
const spaced = (text: string, seed: number): string => text.replace(/([,:[{])/g, (m, _c, at: number) => ((at * 31 + seed) % 3 === 0 ? `${m} \n\t` : m));

describe("parseJson", () => {
  it("reads back what stringifyJson wrote, with integers beyond ±2^53 exact", () => {
    fc.assert(
      fc.property(value, fc.nat(), (v, seed) => {
        const text = spaced(stringifyJson(v), seed);
        // Spacing inside strings would change them: only when the strings have none of those characters.
        const read = parseJson(/"[^"]*[,:[{][^"]*"/.test(text) ? stringifyJson(v) : text);
        expect(read).toEqual(v);
        expect(stringifyJson(read)).toBe(stringifyJson(v));
      }),
      { numRuns: runs(2000) },
    );
  });

  it("decodes an escaped lone surrogate to U+FFFD and keeps escaped pairs", () => {
    const text = '{"\\ud800k": ["\\udc00", "\\ud83d\\ude00", "a\\ud83db", "\\u00e9\\n\\"", 12345678901234567890]}';
    expect(parseJson(text)).toEqual({ "\ufffdk": ["\ufffd", "😀", "a\ufffdb", 'é\n"', 12345678901234567890n] });
  });

  it("gives JSON.parse's error, about the text as given, for text that is not JSON", () => {
    const damaged = fc.tuple(value, fc.nat(), fc.constantFrom("", ",", "}", "]", '"', "\\", "\u0001", "-", "01", "1.", "e5", "tru", "\\u12")).map(([v, at, put]) => {
      const text = `${stringifyJson(v)} `;
      const i = at % text.length;
      return text.slice(0, i) + put + text.slice(i + 1);
    });
    fc.assert(
      fc.property(damaged, (text) => {
        let expected: Error | undefined;
        try {
          JSON.parse(text);
        } catch (e) {
          expected = e as Error;
        }
        // Where JSON.parse refuses the text, parseJson throws the same error; elsewhere it reads it.
        if (expected === undefined) expect(() => parseJson(text)).not.toThrow();
        else expect(() => parseJson(text)).toThrow(expected);
      }),
      { numRuns: runs(2000) },
    );
  });
});
