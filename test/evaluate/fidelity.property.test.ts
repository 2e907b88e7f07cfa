import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, evaluate, FilterError, interpret, parse, print, schemas } from "../../src/index.js";
import { runs } from "../support/runs.js";

// Laws of issue 12: strings are bytes (Go's strconv.Unquote and byte comparisons), hexadecimal floats
// round once (Go's ParseFloat), and nesting never reaches the JavaScript stack.

function outcome(run: () => boolean): string {
  try {
    return String(run());
  } catch (e) {
    if (!FilterError.is(e)) throw e;
    return `${e.name}:${e.code}`;
  }
}

/** A Go double-quoted literal holding exactly `bytes`: printable ASCII as is, the rest as \xHH or \ooo. */
const byteLiteral = (bytes: readonly number[], octal: readonly boolean[]): string =>
  `"${bytes
    .map((b, i) =>
      b >= 0x20 && b < 0x7f && b !== 0x22 && b !== 0x5c ? String.fromCharCode(b) : octal[i] ? `\\${b.toString(8).padStart(3, "0")}` : `\\x${b.toString(16).padStart(2, "0")}`,
    )
    .join("")}"`;

const WORDS = ["", "a", "é", "ÿ", "\ufffd", "한", "日本", "aé한", "\u00c3", "x\ufffdy"];
const datumString = fc.oneof(fc.constantFrom(...WORDS), fc.string({ maxLength: 4, unit: "grapheme" }));
// Bytes that build valid and invalid UTF-8: ASCII, lead bytes, continuation bytes, 0xff.
const byteArb = fc.oneof(fc.constantFrom(0x61, 0xc3, 0xa9, 0xbf, 0xed, 0x95, 0x9c, 0xff, 0x80, 0xe6), fc.integer({ min: 0, max: 255 }));
const bytesArb = fc.array(byteArb, { maxLength: 4 });
const utf8 = (s: string) => Buffer.from(s, "utf8");

describe("strings are bytes", () => {
  it("==, contains and in compare the literal's bytes with the datum's UTF-8, compiled and interpreted alike", () => {
    fc.assert(
      fc.property(bytesArb, fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), datumString, (bytes, octal, s) => {
        const lit = byteLiteral(bytes, octal);
        const want = Buffer.from(bytes);
        const cases: [string, unknown, boolean][] = [
          [`x == ${lit}`, { x: s }, utf8(s).equals(want)],
          [`x != ${lit}`, { x: s }, !utf8(s).equals(want)],
          [`x contains ${lit}`, { x: s }, utf8(s).includes(want)],
          [`${lit} in x`, { x: s }, utf8(s).includes(want)],
          [`${lit} in x`, { x: [s, "q"] }, utf8(s).equals(want) || utf8("q").equals(want)],
          [`${lit} in x`, { x: { [s]: 1 } }, utf8(s).equals(want)],
        ];
        for (const [text, datum, expected] of cases) {
          expect(evaluate(text, datum)).toBe(expected);
          expect(compile(text).evaluate(datum)).toBe(expected);
        }
      }),
      { numRuns: runs(300) },
    );
  });

  it("a regular expression with a byte that is not UTF-8 fails when a value reaches it, on both paths", () => {
    fc.assert(
      fc.property(bytesArb, fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), datumString, (bytes, octal, s) => {
        const lit = byteLiteral(bytes, octal);
        const valid = Buffer.from(Buffer.from(bytes).toString("utf8"), "utf8").equals(Buffer.from(bytes));
        for (const op of ["matches", "not matches"]) {
          const text = `x ${op} ${lit}`;
          const a = outcome(() => evaluate(text, { x: s }));
          expect(outcome(() => compile(text, { check: false }).evaluate({ x: s }))).toBe(a);
          if (!valid) expect(a).toBe("FilterEvaluationError:invalid-regex");
          // Every datum reaches this match: compile rejects such a pattern up front.
          expect(outcome(() => compile(text).evaluate({ x: s }))).toBe(a === "FilterEvaluationError:invalid-regex" ? "FilterTypeError:invalid-regex" : a);
          // Nothing to match: no error.
          expect(outcome(() => compile(`y.x ${op} ${lit}`).evaluate({ y: {} }))).toBe(op === "matches" ? "false" : "true");
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it("typed string fields and lists of strings compare bytes too", () => {
    fc.assert(
      fc.property(bytesArb, datumString, (bytes, s) => {
        const lit = byteLiteral(bytes, []);
        const job = { ID: "a", Status: s, Datacenters: [s] };
        const want = Buffer.from(bytes);
        for (const [text, expected] of [
          [`Status == ${lit}`, utf8(s).equals(want)],
          [`Status contains ${lit}`, utf8(s).includes(want)],
          [`${lit} in Datacenters`, utf8(s).equals(want)],
        ] as const) {
          expect(evaluate(text, job, { schema: schemas.job })).toBe(expected);
          expect(compile(text, { schema: schemas.job }).evaluate(job)).toBe(expected);
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it("messages show a stray byte as Go writes it", () => {
    const message = (run: () => unknown) => {
      try {
        run();
      } catch (e) {
        return (e as Error).message;
      }
      return "";
    };
    expect(message(() => evaluate('x["\\xff"].y == 1', { x: {} }))).toBe('x has no key "\\xff" at 1:1');
    expect(message(() => evaluate('x matches "a\\377"', { x: "a" }))).toContain("invalid UTF-8: `\\xff`");
    expect(message(() => evaluate('x == "\\xc3"', { x: 1 }))).toContain('"\\xc3" is not a number');
  });

  it("printing keeps the literal as written", () => {
    fc.assert(
      fc.property(bytesArb, fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), (bytes, octal) => {
        const text = `x == ${byteLiteral(bytes, octal)}`;
        expect(print(parse(text))).toBe(text);
      }),
    );
  });
});

/** The exact hexadecimal text of a finite positive double, and its integer significand and exponent. */
function parts(d: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, d);
  const bits = view.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & ((1n << 52n) - 1n);
  return exp === 0 ? { m: frac, e: -1074 } : { m: frac | (1n << 52n), e: exp - 1075 };
}

describe("hexadecimal floats round once, as Go's ParseFloat", () => {
  const positive = fc.double({ min: Number.MIN_VALUE, max: Number.MAX_VALUE, noNaN: true, noDefaultInfinity: true });
  const subnormal = fc.integer({ min: 1, max: 2 ** 40 }).map((k) => k * Number.MIN_VALUE);

  it("a double written exactly in hex reads back as itself", () => {
    fc.assert(
      fc.property(fc.oneof(positive, subnormal), (d) => {
        const { m, e } = parts(d);
        expect(compile(`x == "0x${m.toString(16)}p${e}"`).evaluate({ x: d })).toBe(true);
      }),
      { numRuns: runs(300) },
    );
  });

  it("a value halfway between two doubles rounds to the even one, subnormals included", () => {
    fc.assert(
      fc.property(fc.oneof(positive, subnormal), (d) => {
        const { m, e } = parts(d);
        if (m + 1n >= 1n << 53n) return; // the next double has another exponent
        const half = `0x${(2n * m + 1n).toString(16)}p${e - 1}`;
        const even = m % 2n === 0n ? d : Number(m + 1n) * 2 ** e;
        expect(evaluate(`x == "${half}"`, { x: even })).toBe(true);
        expect(compile(`x == "${half}"`).evaluate({ x: even })).toBe(true);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe("nesting never reaches the JavaScript stack", () => {
  it("runs of not of any length within the budget: compiled and interpreted agree on the parity", () => {
    for (const n of [0, 1, 2, 1001, 45_000]) {
      const text = `${"not ".repeat(n)}x == true`;
      const f = compile(text);
      expect(print(f.ast)).toBe(text);
      for (const x of [true, false]) {
        const want = x !== (n % 2 === 1);
        expect(f.evaluate({ x })).toBe(want);
        expect(interpret(f.ast, text, { x })).toBe(want);
      }
    }
  });

  it("collections nested deeper than any budget allows compile, evaluate, check and print without overflow", () => {
    // (test/fixtures/fidelity-cases.jsonl has 1,500 nested collections, within the reference's budget.)
    const typed = `${"any Datacenters as _, d { ".repeat(5000)}d == "dc1"${" }".repeat(5000)}`;
    const job = { ID: "a", Datacenters: ["dc2", "dc1"] };
    expect(compile(typed, { schema: schemas.job, maxExpressions: Infinity }).evaluate(job)).toBe(true);
    expect(evaluate(typed, job, { schema: schemas.job, maxExpressions: Infinity })).toBe(true);
    const deeper = `${"all a as b { ".repeat(5000)}b == 1${" }".repeat(5000)}`;
    const options = { maxExpressions: Infinity };
    expect(compile(deeper, options).evaluate({ a: [1] })).toBe(true);
    expect(evaluate(deeper, { a: [1, 2] }, options)).toBe(false);
    expect(print(parse(deeper, options))).toBe(deeper);
    // explain too: compiled within closures' nesting (1,500, the reference's deepest), interpreted past it.
    for (const depth of [1500, 5000]) {
      const text = `${"any Datacenters as _, d { ".repeat(depth)}d == "dc1"${" }".repeat(depth)}`;
      const x = compile(text, { schema: schemas.job, maxExpressions: Infinity }).explain(job);
      expect(x.result).toBe(true);
      expect(x.witness).toHaveLength(depth + 1);
      expect(x.witness[depth]!.elements).toEqual(Array.from({ length: depth }, (_, i) => (i === depth - 1 ? 1 : 0)));
    }
  });
});

describe("placeholders as the reference's getValue resolves them", () => {
  const name = fc.constantFrom("k", "v", "x");
  const binding = fc.oneof(
    name.map((n) => n),
    fc.tuple(name, name).map(([i, v]) => `${i}, ${v}`),
    name.map((n) => `${n}, _`),
    name.map((n) => `_, ${n}`),
  );
  const datum = fc.record({
    k: fc.oneof(fc.constant([] as unknown[]), fc.constant([{ y: 1 }, 2]), fc.constant({ a: { y: 1 }, b: 0 })),
    x: fc.oneof(fc.constant([0, 1]), fc.constant({ y: 1 })),
    v: fc.constant({ y: 1 }),
  });

  it("a JSON Pointer naming a placeholder reads what the path does; compiled and interpreted agree", () => {
    fc.assert(
      fc.property(fc.constantFrom("any", "all"), fc.constantFrom("k", "x"), binding, name, fc.constantFrom("", ".y"), datum, (q, sel, b, read, rest, d) => {
        const path = `${q} ${sel} as ${b} { ${read}${rest} == 1 }`;
        const pointer = `${q} ${sel} as ${b} { "/${read}${rest.replace(".", "/")}" == 1 }`;
        const a = outcome(() => evaluate(path, d));
        expect(outcome(() => evaluate(pointer, d))).toBe(a);
        expect(outcome(() => compile(path).evaluate(d))).toBe(a);
        expect(outcome(() => compile(pointer).evaluate(d))).toBe(a);
        // `as a, a` fails exactly when there is an element to visit.
        const [index, value] = b.split(", ");
        const elements = Array.isArray(d[sel as "k"]) ? (d[sel as "k"] as unknown[]).length : Object.keys(d[sel as "k"] as object).length;
        if (index === value && elements > 0) expect(a).toBe("FilterEvaluationError:invalid-placeholder");
      }),
      { numRuns: runs(300) },
    );
  });
});
