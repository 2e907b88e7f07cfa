import { describe, expect, it } from "vitest";
import { FilterSyntaxError, parse, print, type Expr, type MatchExpr } from "../../src/index.js";

function syntaxError(text: string, options = {}): FilterSyntaxError {
  try {
    parse(text, options);
  } catch (e) {
    expect(e).toBeInstanceOf(FilterSyntaxError);
    return e as FilterSyntaxError;
  }
  throw new Error(`expected a syntax error for ${JSON.stringify(text)}`);
}

const match = (e: Expr): MatchExpr => {
  if (e.kind !== "match") throw new Error(`not a match: ${e.kind}`);
  return e;
};

describe("parse: the AST keeps the surface form", () => {
  it("keeps contains and in apart, with the value on the side it was written", () => {
    const a = match(parse('Datacenters contains "dc1"'));
    const b = match(parse('"dc1" in Datacenters'));
    expect([a.op, b.op]).toEqual(["contains", "in"]);
    expect(a.value?.text).toBe("dc1");
    expect(b.selector.segments.map((s) => s.name)).toEqual(["Datacenters"]);
    expect(b.value?.span).toEqual({ start: 0, end: 5 });
  });

  it("keeps every not, and chains and/or n-ary with precedence not > and > or", () => {
    const e = parse("not not a == 1 and b == 2 and c == 3 or d == 4");
    expect(e.kind).toBe("or");
    if (e.kind !== "or") return;
    expect(e.operands).toHaveLength(2);
    const and = e.operands[0]!;
    expect(and.kind).toBe("and");
    if (and.kind !== "and") return;
    expect(and.operands).toHaveLength(3);
    expect(and.operands[0]!.kind).toBe("not");
    if (and.operands[0]!.kind === "not") expect(and.operands[0]!.operand.kind).toBe("not");
  });

  it("records each literal's kind, raw text and compared text", () => {
    const lit = (t: string) => match(parse(`x == ${t}`)).value!;
    expect(lit("-1.5")).toMatchObject({ type: "number", raw: "-1.5", text: "-1.5" });
    expect(lit('"a\\tb"')).toMatchObject({ type: "string", raw: '"a\\tb"', text: "a\tb" });
    expect(lit("`a\\tb`")).toMatchObject({ type: "string", text: "a\\tb" });
    expect(lit('"\\x41\\101\\u00e9"')).toMatchObject({ type: "string", text: "AAé" });
    expect(lit('"/a/b~1c"')).toMatchObject({ type: "pointer", text: "a/b/c" });
    expect(lit('a.b["c d"].0')).toMatchObject({ type: "word", raw: 'a.b["c d"].0', text: "a.b.c d.0" });
  });

  it("reads selectors: names with / and digits, .index, [\"key\"], [`key`], JSON Pointers", () => {
    const m = match(parse('a/b.c_1.0["x y"][`z`] == 1'));
    expect(m.selector.segments.map((s) => [s.kind, s.name])).toEqual([
      ["name", "a/b"],
      ["name", "c_1"],
      ["index", "0"],
      ["key", "x y"],
      ["key", "z"],
    ]);
    const p = match(parse('"/Datacenters/0" == dc1'));
    expect(p.selector.form).toBe("pointer");
    expect(p.selector.segments.map((s) => s.name)).toEqual(["Datacenters", "0"]);
  });

  it("treats keywords as ordinary names where the reference does", () => {
    expect(match(parse("in == x")).selector.segments[0]!.name).toBe("in");
    expect(match(parse("not == x")).selector.segments[0]!.name).toBe("not");
    expect(match(parse("x == and")).value!.text).toBe("and");
    expect(parse("not x == not").kind).toBe("not");
    expect(match(parse("not in x")).op).toBe("in");
    // `not` followed by an operator word negates when the rest parses as an operand.
    expect(parse("not in in x").kind).toBe("not");
    expect(parse("any in as").kind).toBe("match");
    expect(syntaxError("any in as v { v == 1 }")).toBeInstanceOf(FilterSyntaxError);
  });

  it("places collections only where a whole or-operand may stand", () => {
    expect(parse("any x as v { v == 1 }").kind).toBe("collection");
    expect(parse("a == 1 or all x as k, v { v == 1 }").kind).toBe("or");
    expect(parse("(any x as _, v { v == 1 }) and a == 1").kind).toBe("and");
    expect(syntaxError("a == 1 and any x as v { v == 1 }").code).toBe("unexpected-input");
    expect(syntaxError("not any x as v { v == 1 }")).toBeInstanceOf(FilterSyntaxError);
    expect(syntaxError("any x as v { v == 1 } or a == 1")).toBeInstanceOf(FilterSyntaxError);
    const c = parse("all m as i, _ { i == 0 }");
    expect(c.kind === "collection" && c.binding).toEqual({ mode: "index", index: "i" });
  });

  it("accepts a parenthesised whole and surrounding whitespace", () => {
    expect(parse("  ( (x == 1) )\n").kind).toBe("match");
    expect(parse("x\t==\n1").kind).toBe("match");
  });
});

describe("parse: errors", () => {
  it.each([
    ["x ==", "unexpected-end", 1, 5, 'expected a value after "=="'],
    ["x == 01", "invalid-number", 1, 6, "invalid number literal"],
    ["x == 1.", "invalid-number", 1, 6, "invalid number literal"],
    ["x == 1e3", "invalid-number", 1, 6, "invalid number literal"],
    ['x == "abc', "unterminated-string", 1, 6, "unterminated string literal"],
    ['x == "\\q"', "invalid-string", 1, 6, "\\q is not a valid escape"],
    ["(x == 1", "unmatched-parenthesis", 1, 8, 'expected ")"'],
    ["not(y == b)", "missing-whitespace", 1, 4, "whitespace"],
    ["x==a and(y==b)", "missing-whitespace", 1, 9, "whitespace"],
    ["x[0] == 1", "invalid-index", 1, 3, "quoted key"],
    ['x["a" == 1', "unclosed-index", 1, 7, '"]"'],
    ["1 in 2", "invalid-selector", 1, 6, "selector"],
    ["x ~ 1", "unexpected-input", 1, 3, "unexpected character"],
    ["", "empty-expression", 1, 1, "empty"],
    ["x", "unexpected-end", 1, 2, "operator"],
    ["_x == 1", "unexpected-input", 1, 1, ""],
    ["x == 1 )", "unexpected-input", 1, 8, ""],
    ['Status == "running" and', "unexpected-end", 1, 24, 'expected an expression after "and"'],
    ['"dc1" in', "unexpected-end", 1, 9, 'expected a selector after "in"'],
    ["Status is not", "unexpected-end", 1, 14, 'expected "empty" or "nil" after "is not"'],
    ['Status = "running"', "unexpected-input", 1, 8, 'compare with "=="'],
    ["a == 1 && b == 2", "unexpected-input", 1, 8, 'write "and"'],
    ["Priority >= 5", "unexpected-input", 1, 10, "no ordering comparisons"],
  ])("%j is %s at %i:%i", (text, code, line, column, words) => {
    const e = syntaxError(text);
    expect(e.name).toBe("FilterSyntaxError");
    expect(e.code).toBe(code);
    expect([e.line, e.column]).toEqual([line, column]);
    expect(e.message).toContain(words);
    expect(e.message).toMatch(new RegExp(` at ${line}:${column}$`));
    expect(e.offset).toBe(column - 1);
  });

  it("renders a code frame with a caret under the span", () => {
    const e = syntaxError('Status == "running" and\nPriority == 01');
    expect(e.line).toBe(2);
    const frame = e.codeFrame().split("\n");
    expect(frame[0]).toBe("2 | Priority == 01");
    expect(frame[1]).toBe("  |             ^^");
    expect(frame[2]).toBe(e.message);
    expect(e.toJSON()).toMatchObject({ name: "FilterSyntaxError", code: "invalid-number", line: 2, column: 13, length: 2 });
  });

  it("names the limit it enforces", () => {
    expect(syntaxError("x == 1", { maxLength: 3 })).toMatchObject({ code: "input-too-long" });
    expect(syntaxError("x == 1", { maxLength: 3 }).message).toContain("limit of 3");
    expect(syntaxError("((x == 1))", { maxDepth: 1 }).message).toContain("limit of 1");
    expect(syntaxError("a == 1 or b == 2 or c == 3", { maxMatches: 2 })).toMatchObject({ code: "too-many-matches" });
    expect(parse("a == 1 or b == 2 or c == 3", { maxMatches: 3 }).kind).toBe("or");
    expect(syntaxError("a == 1 or b == 2 or c == 3", { maxExpressions: 100 })).toMatchObject({ code: "too-many-expressions" });
  });
});

describe("parse: sizes", () => {
  it("without a budget parses 500 nested parentheses; depth past maxDepth is a syntax error", () => {
    expect(parse(`${"(".repeat(500)}x == 1${")".repeat(500)}`, { maxExpressions: Infinity }).kind).toBe("match");
    expect(parse(`${"not ".repeat(500)}x == 1`).kind).toBe("not");
    for (const text of [`${"(".repeat(1001)}x == 1${")".repeat(1001)}`, `${"not ".repeat(1001)}x == 1`]) {
      const e = syntaxError(text, { maxDepth: 1000, maxExpressions: Infinity });
      expect(e.code).toBe("nesting-too-deep");
      expect(e.message).toContain("limit of 1000");
    }
  });

  it("the reference's parse budget rejects what it rejects: 100,000 parentheses, 49,988 nots", () => {
    for (const text of [`${"(".repeat(100_000)}x == 1${")".repeat(100_000)}`, `${"not ".repeat(49_988)}x == 1`]) {
      expect(syntaxError(text).code).toBe("too-many-expressions");
    }
  });

  it("parses and prints a generated filter of 20,000 or-terms as one flat node", () => {
    const text = Array.from({ length: 20_000 }, (_, i) => `ID == "job-${i}"`).join(" or ");
    expect(syntaxError(text).code).toBe("too-many-expressions");
    const ast = parse(text, { maxExpressions: Infinity });
    expect(ast.kind === "or" && ast.operands.length).toBe(20_000);
    expect(print(ast)).toBe(text);
  });
});
