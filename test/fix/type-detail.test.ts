/**
 * `FilterTypeError.detail`: the facts of a static type error, keyed by its code, which the fixes read
 * instead of the message's words.
 */
import { describe, expect, it } from "vitest";
import { checkAst, compile, diagnose, FilterTypeError, parse, schemas, t, type Schema } from "../../src/index.js";

const job = schemas.job;

/** The static type errors of `text` against `schema`. */
function check(text: string, schema: Schema = job): FilterTypeError[] {
  return checkAst(parse(text), text, schema);
}

describe("FilterTypeError.detail", () => {
  it("unknown-field: the step's name as written (unescaped) and the record's name", () => {
    const [e] = check('Stauts == "running"');
    expect(e).toBeInstanceOf(FilterTypeError);
    expect(e!.detail).toEqual({ code: "unknown-field", field: "Stauts", record: "JobListStub" });
    expect(e!.suggestion).toBe("Status");
    expect(check('JobSummary.Childrn.Pending == 1')[0]!.detail).toEqual({ code: "unknown-field", field: "Childrn", record: "JobSummary" });
    expect(check('"/Stat~1us" == "x"')[0]!.detail).toEqual({ code: "unknown-field", field: "Stat/us", record: "JobListStub" });
  });

  it("operator-not-applicable: the operand's type, pointers removed, and the operator", () => {
    expect(check('Datacenters == "dc1"')[0]!.detail).toEqual({
      code: "operator-not-applicable",
      selector: "Datacenters",
      type: { kind: "list", elem: { kind: "string" } },
      nullable: false,
      operator: "==",
    });
    const summary = check("JobSummary == 1")[0]!.detail;
    expect(summary).toMatchObject({ code: "operator-not-applicable", selector: "JobSummary", nullable: true, operator: "==" });
    expect(summary?.code === "operator-not-applicable" && summary.type.kind).toBe("record");
    expect(check("any Status as s { s == x }")[0]!.detail).toEqual({
      code: "operator-not-applicable",
      selector: "Status",
      type: { kind: "string", values: ["pending", "running", "dead"] },
      nullable: false,
      operator: "any",
    });
  });

  it("the other codes", () => {
    expect(check("Priority == high")[0]!.detail).toEqual({ code: "invalid-literal", selector: "Priority", literal: "high", type: { kind: "int" } });
    expect(check("Datacenters.first == dc1")[0]!.detail).toEqual({
      code: "invalid-index",
      selector: "Datacenters",
      type: { kind: "list", elem: { kind: "string" } },
      step: "first",
    });
    expect(check("Name.first == x")[0]!.detail).toEqual({ code: "not-a-record", selector: "Name", type: { kind: "string" }, step: "first" });
    const regex = check('Name matches "("')[0]!.detail;
    expect(regex).toMatchObject({ code: "invalid-regex", pattern: "(" });
    expect(regex?.code === "invalid-regex" && regex.reason.length).toBeGreaterThan(0);
  });

  it("every error's detail carries its code, and compile throws the same detail", () => {
    for (const text of ['Stauts == "x"', "Priority matches x", "Priority == 1.5", "Status.x == 1", 'Name matches "["']) {
      for (const e of check(text)) expect(e.detail?.code).toBe(e.code);
    }
    expect(() => compile('Datacenters == "dc1"', { schema: job })).toThrow(
      expect.objectContaining({ detail: expect.objectContaining({ code: "operator-not-applicable", operator: "==" }) }),
    );
  });
});

describe("the fixes read the detail", () => {
  it("a misspelt field, in each form it is written", () => {
    const titles = (text: string) => diagnose(text, { schema: job })[0]!.fixes.map((f) => f.title);
    expect(titles('Stauts == "x"')).toEqual(['replace "Stauts" with "Status"']);
    expect(titles('JobSummary["Childrn"].Pending == 1')).toEqual(['replace "Childrn" with "Children"']);
    expect(titles('"/JobSummary/Childrn/Pending" == 1')).toEqual(['replace "Childrn" with "Children"']);
  });

  it("== on a list becomes in; on a map, even of lists, it does not (in would test its keys)", () => {
    const C = t.record("C", { ML: t.map(t.list(t.string)), L: t.list(t.string) });
    expect(diagnose('L == "a"', { schema: C })[0]!.fixes.map((f) => f.title)).toEqual(['test whether the list holds the value: "a" in L']);
    expect(diagnose('L != "a"', { schema: C })[0]!.fixes.map((f) => f.title)).toEqual(['test whether the list holds the value: "a" not in L']);
    expect(diagnose('ML == "a"', { schema: C })[0]!.fixes).toEqual([]);
  });
});
