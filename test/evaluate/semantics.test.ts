import { describe, expect, it } from "vitest";
import { FilterEvaluationError, FilterTypeError, checkAst, compile, evaluate, parse, parseJson, schemas, t } from "../../src/index.js";

function evalError(run: () => unknown): FilterEvaluationError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(FilterEvaluationError);
    return e as FilterEvaluationError;
  }
  throw new Error("expected an evaluation error");
}

function typeError(expr: string, schema = schemas.job): FilterTypeError {
  try {
    compile(expr, { schema });
  } catch (e) {
    expect(e).toBeInstanceOf(FilterTypeError);
    return e as FilterTypeError;
  }
  throw new Error("expected a type error");
}

describe("own properties only", () => {
  it("treats __proto__, constructor and toString as ordinary missing keys", () => {
    for (const key of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      expect(compile(`a["${key}"] is empty`).evaluate({ a: {} })).toBe(true);
      expect(compile(`a["${key}"] == x`).evaluate({ a: {} })).toBe(false);
      expect(compile(`"${key}" in a`).evaluate({ a: {} })).toBe(false);
      expect(evalError(() => compile(`"/${key}" == x`).evaluate({})).code).toBe("missing-key");
      expect(evalError(() => compile(`"/${key}" == x`, { schema: schemas.job, check: false }).evaluate({})).code).toBe("unknown-field");
    }
    const own = JSON.parse('{"a": {"__proto__": "p", "constructor": "c"}}');
    expect(compile('a["__proto__"] == p and a.constructor == c and "__proto__" in a').evaluate(own)).toBe(true);
  });

  it("never reads through a prototype chain", () => {
    const proto = { Status: "running" };
    const datum = Object.create(proto) as object;
    expect(evalError(() => compile('Status == "running"').evaluate(datum)).code).toBe("missing-key");
    expect(compile('Status == "running"', { schema: schemas.job }).evaluate(datum)).toBe(false);
  });
});

describe("typed records", () => {
  it("reads absent fields as zero values and compares integers exactly, bigint included", () => {
    const job = parseJson('{"ID":"a","Priority":9007199254740993,"CreateIndex":18446744073709551615}');
    const f = (e: string) => compile(e, { schema: schemas.job }).evaluate(job);
    expect(f("Priority == 9007199254740993")).toBe(true);
    expect(f("Priority == 9007199254740992")).toBe(false);
    expect(f('CreateIndex == "0xffffffffffffffff"')).toBe(true);
    expect(f('Status == ""')).toBe(true);
    expect(f("Stop == false and Datacenters is nil and Datacenters is empty and JobSummary is nil")).toBe(true);
    expect(f('Priority == "0x20_0000_0000_0001"')).toBe(true);
  });

  it("finds unknown fields at compile time, with a did-you-mean and the span", () => {
    const e = typeError('Stauts == "running"');
    expect(e.code).toBe("unknown-field");
    expect(e.suggestion).toBe("Status");
    expect(e.message).toContain('did you mean "Status"');
    expect([e.offset, e.length]).toEqual([0, 6]);
    expect(typeError("JobSummary.Sumary.web.Running == 1").alwaysFails).toBe(true);
    // Behind a short-circuit the reference would not always fail: compile accepts it, the lint still finds it.
    const lazy = 'ID == "a" and JobSummary.Sumary.web.Running == 1';
    expect(() => compile(lazy, { schema: schemas.job })).not.toThrow();
    const [finding] = checkAst(parse(lazy), lazy, schemas.job);
    expect(finding).toMatchObject({ code: "unknown-field", suggestion: "Summary", alwaysFails: false });
  });

  it("finds matches that can never succeed, but keeps the reference's lazy behaviour elsewhere", () => {
    expect(typeError('Priority matches "5"').code).toBe("operator-not-applicable");
    expect(typeError("Priority == 50.0").code).toBe("invalid-literal");
    expect(typeError("Stop is empty").code).toBe("operator-not-applicable");
    expect(typeError("Multiregion.Regions.Name == east").code).toBe("invalid-index");
    expect(() => compile('Datacenters["0x1"] == dc1', { schema: schemas.job })).not.toThrow();
    // Behind a short-circuit, or ending in a map key that may be absent: not rejected.
    expect(() => compile('ID == "a" or Priority matches "5"', { schema: schemas.job })).not.toThrow();
    expect(() => compile('JobSummary.Summary.web matches "x"', { schema: schemas.job })).not.toThrow();
    // An invalid regular expression fails only when a value reaches it: rejected where every record does.
    const f = compile('ID == "b" and Name matches "("', { schema: schemas.job });
    expect(f.evaluate({ ID: "a" })).toBe(false);
    expect(evalError(() => f.evaluate({ ID: "b", Name: "x" })).code).toBe("invalid-regex");
    expect(typeError('Name matches "("')).toMatchObject({ code: "invalid-regex", alwaysFails: true, offset: 13, length: 3 });
    expect(() => compile('JobSummary.Summary.web matches "("', { schema: schemas.job })).not.toThrow();
  });

  it("rejects in plain JSON only an invalid pattern that every datum reaches", () => {
    const rejected = (text: string, options = {}) => {
      try {
        compile(text, options);
        return false;
      } catch (e) {
        expect(e).toBeInstanceOf(FilterTypeError);
        expect((e as FilterTypeError).code).toBe("invalid-regex");
        return true;
      }
    };
    // A missing top-level key is itself an error, so every datum fails here...
    expect(rejected('x matches "("')).toBe(true);
    expect(rejected('not (x not matches "a)") or y == 1')).toBe(true);
    expect(rejected('"/x" matches "("')).toBe(true);
    // ...but a missing last key answers without compiling the pattern, and short-circuits skip it.
    expect(rejected('a.x matches "("')).toBe(false);
    expect(compile('a.x matches "("').evaluate({ a: {} })).toBe(false);
    expect(rejected('y == 1 or x matches "("')).toBe(false);
    expect(rejected('any l as v { v matches "(" }')).toBe(false);
    // With an unknown value no key is missing: the pattern is always reached.
    expect(rejected('a.x matches "("', { unknownValue: "" })).toBe(true);
    // check: false and evaluate keep the reference's timing.
    expect(evalError(() => compile('x matches "("', { check: false }).evaluate({ x: "s" })).code).toBe("invalid-regex");
    expect(evalError(() => evaluate('x matches "("', {})).code).toBe("missing-key");
  });

  it("accepts schemas of the user's own records", () => {
    const node = t.record("Node", { Name: t.string, Cores: t.uint, Labels: t.map(t.string), Drivers: t.list(t.string) });
    const f = compile('Cores == 8 and Labels.zone == "a" and "docker" in Drivers', { schema: node });
    expect(f.evaluate({ Name: "n1", Cores: 8, Labels: { zone: "a" }, Drivers: ["docker"] })).toBe(true);
    expect(f.evaluate({ Name: "n1", Cores: 8, Labels: {}, Drivers: ["docker"] })).toBe(false);
    expect(typeError("Core == 8", node).suggestion).toBe("Cores");
  });
});

describe("evaluation errors", () => {
  it("carry a code, the failing match's span and a readable message", () => {
    const text = 'Name == "x" and JobSummary.Summary.api.Running == 1';
    const e = evalError(() => compile(text, { schema: schemas.job }).evaluate({ Name: "x", JobSummary: { Summary: {} } }));
    expect(e.code).toBe("missing-key");
    expect(e.message).toBe('JobSummary.Summary has no key "api" at 1:17');
    expect(text.slice(e.span.start, e.span.end)).toBe("JobSummary.Summary.api.Running == 1");
  });

  it("follow the reference where it errs rather than answers", () => {
    expect(evalError(() => evaluate("x == 1", { x: null })).code).toBe("not-comparable");
    expect(evalError(() => evaluate("x is empty", { x: 1 })).code).toBe("cannot-test-empty");
    expect(evalError(() => evaluate('x.y == 1', { x: [1] })).code).toBe("invalid-index");
    expect(evalError(() => evaluate("x.5 == 1", { x: [1] })).code).toBe("index-out-of-range");
    expect(evalError(() => evaluate("any y as v { v == 1 }", {})).code).toBe("missing-key");
    expect(evaluate("a.x != 1", { a: {} })).toBe(true);
    expect(evaluate("all a.x as v { v == 1 }", { a: {} })).toBe(true);
  });
});

describe("regular expressions", () => {
  it("run in linear time: a catastrophic pattern returns at once", () => {
    const f = compile('Name matches "^(a+)+$"');
    const started = process.hrtime.bigint();
    expect(f.evaluate({ Name: `${"a".repeat(10_000)}!` })).toBe(false);
    // Generous bound (milliseconds here, a minute even on a busy machine): a backtracking engine would
    // take longer than the age of the universe.
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(60);
  });

  it("use RE2 syntax: (?i), \\pL, no backreferences", () => {
    expect(evaluate('x matches "(?i)ABC"', { x: "xabcx" })).toBe(true);
    expect(evaluate('x matches "^\\\\pL+$"', { x: "héllo" })).toBe(true);
    expect(evalError(() => evaluate('x matches "(a)\\\\1"', { x: "aa" })).code).toBe("invalid-regex");
    expect(evaluate('x matches "^web-[0-9]+$"', { x: "web-12" })).toBe(true);
    expect(evaluate('x matches "web"', { x: "a-web-b" })).toBe(true);
  });
});

describe("options", () => {
  it("uses the unknown value for missing keys, as the reference's option does", () => {
    const f = compile('a.b == "dflt" and c == "dflt"', { unknownValue: "dflt" });
    expect(f.evaluate({ a: {} })).toBe(true);
    const g = compile('Nope == "dflt"', { schema: schemas.job, unknownValue: "dflt" });
    expect(g.evaluate({})).toBe(true);
  });

  it("visits map keys in the data's own order", () => {
    // The first key decides: an error on "a" comes before the answer on "b".
    const f = compile("any m as k, v { v == 1 }");
    expect(f.evaluate({ m: { b: 1, a: null } })).toBe(true);
    expect(evalError(() => f.evaluate({ m: { a: null, b: 1 } })).code).toBe("not-comparable");
  });
});
