import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile, escapeRegex, parse, quote, quoteRegex } from "../../src/index.js";
import { runs } from "../support/runs.js";

/** True for a string without lone surrogates (String.prototype.isWellFormed, not in our lib target). */
const wellFormed = (s: string): boolean => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);

/** The value of the literal of `Name == LITERAL`. */
function valueOf(literal: string): string {
  const ast = parse(`Name == ${literal}`);
  if (ast.kind !== "match" || ast.value === undefined) throw new Error("not a match");
  return ast.value.text;
}

describe("quote", () => {
  it("writes the value back exactly, for every well-formed string", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom('"', "\\", "/", "`", "\n", "\r", "\t", "\x00", "\x7f", "a", "~", "é") })), (v) => {
        fc.pre(wellFormed(v));
        expect(valueOf(quote(v))).toBe(v);
      }),
      { numRuns: runs(200) },
    );
  });

  it("escapes what would end the string or be read otherwise", () => {
    expect(quote('say "hi"')).toBe('"say \\x22hi\\x22"');
    expect(quote("a\\b")).toBe('"a\\\\b"');
    expect(quote("line\nbreak\ttab\x01")).toBe('"line\\nbreak\\ttab\\x01"');
    // "/x" would be a JSON Pointer (the text "x"): the slash is escaped.
    expect(quote("/x")).toBe('"\\x2fx"');
    expect(valueOf(quote("/x"))).toBe("/x");
    expect(quote("")).toBe('""');
    expect(quote("web-1")).toBe('"web-1"');
  });

  it("writes raw bytes (lone U+DC80–U+DCFF) as \\x escapes, and other lone surrogates as U+FFFD", () => {
    expect(quote("a\udcff")).toBe('"a\\xff"');
    expect(valueOf(quote("a\udcff"))).toBe("a\udcff");
    expect(valueOf(quote("a\ud800b"))).toBe("a\ufffdb");
  });
});

describe("quoteRegex", () => {
  it("matches the text literally, anywhere in the value", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."ab.+*?()|[]{}^$\\/\"`-") , minLength: 1 }), fc.string(), fc.string(), (text, before, after) => {
        fc.pre(wellFormed(before) && wellFormed(after));
        const f = compile(`Name matches ${quoteRegex(text)}`);
        expect(f.evaluate({ Name: before + text + after })).toBe(true);
        const whole = compile(`Name matches ${quote(`^${escapeRegex(text)}$`)}`);
        expect(whole.evaluate({ Name: text })).toBe(true);
        expect(whole.evaluate({ Name: `${text}x` })).toBe(false);
      }),
      { numRuns: runs(300) },
    );
  });

  it("escapes RE2's metacharacters as Go's regexp.QuoteMeta", () => {
    expect(escapeRegex("a.b*c")).toBe("a\\.b\\*c");
    expect(quoteRegex("1.2")).toBe('"1\\\\.2"');
    expect(compile(`Name matches ${quoteRegex("1.2")}`).evaluate({ Name: "1x2" })).toBe(false);
  });
});
