import { describe, expect, it } from "vitest";
import { applyFix, compile, diagnose, fixAll, schemas, selectorAt, type Diagnostic } from "../../src/index.js";

const job = { schema: schemas.job };

/** The text after the first fix of the only diagnostic. */
function fixed(text: string, options: { schema?: typeof schemas.job } = job): string {
  const ds = diagnose(text, options);
  expect(ds).toHaveLength(1);
  const fix = ds[0]!.fixes[0];
  expect(fix, `a fix for ${text}`).toBeDefined();
  const out = applyFix(text, fix!);
  compile(out, options);
  return out;
}

describe("diagnose: fixes", () => {
  it.each([
    ["Name == web-1", 'Name == "web-1"'],
    ["Name contains web-1", 'Name contains "web-1"'],
    ["Name == 10.0.0.1", 'Name == "10.0.0.1"'],
    ["Name == web:1 or Status == \"x\"", 'Name == "web:1" or Status == "x"'],
    ["Name == 'web'", 'Name == "web"'],
    ['Status == "a" && Name == "b"', 'Status == "a" and Name == "b"'],
    ['Status == "a"||Name == "b"', 'Status == "a" or Name == "b"'],
    ['!(Status == "a")', 'not (Status == "a")'],
    ['Status = "x"', 'Status == "x"'],
    ['Status === "x"', 'Status == "x"'],
    ['Status == "a" AND Name == "b"', 'Status == "a" and Name == "b"'],
    ['Status in ["a","b"]', 'Status == "a" or Status == "b"'],
    ['Priority == 1 and Status not in ["a", b]', 'Priority == 1 and (Status != "a" and Status != "b")'],
    ['Datacenters in ["dc1", "dc2"]', '"dc1" in Datacenters or "dc2" in Datacenters'],
    ['Stauts == "running"', 'Status == "running"'],
    ['JobSummary.Sumary["web"].Running == 1', 'JobSummary.Summary["web"].Running == 1'],
    ['Datacenters == "dc1"', '"dc1" in Datacenters'],
    ['Datacenters.Name == "x"', '"x" in Datacenters'],
    ['Multiregion.Regions.Name == "x"', 'any Multiregion.Regions as r { r.Name == "x" }'],
    ['(Name == "a"', '(Name == "a")'],
    ['Name == "a")', 'Name == "a"'],
    ['not(Name == "a")', 'not (Name == "a")'],
    ['Name == "a', 'Name == "a"'],
    ["JobSummary.Children is null", "JobSummary.Children is nil"],
  ])("%s → %s", (text, expected) => {
    expect(fixed(text)).toBe(expected);
  });

  it("guards a map key that may be missing (a warning whose fix is the guarded form)", () => {
    const [d] = diagnose("JobSummary.Summary.web.Running == 1", job) as [Diagnostic];
    expect(d).toMatchObject({ code: "missing-key-error", severity: "warning", span: { start: 19, end: 22 } });
    expect(applyFix("JobSummary.Summary.web.Running == 1", d.fixes[0]!)).toBe('"web" in JobSummary.Summary and JobSummary.Summary.web.Running == 1');
    expect(diagnose('"web" in JobSummary.Summary and JobSummary.Summary.web.Running == 1', job)).toEqual([]);
  });

  it("carries the did-you-mean text and the span of the misspelt name", () => {
    expect(diagnose('Stauts == "running"', job)).toEqual([
      {
        code: "unknown-field",
        severity: "error",
        message: '"Stauts" is not a field of JobListStub; did you mean "Status"?',
        span: { start: 0, end: 6 },
        fixes: [{ title: 'replace "Stauts" with "Status"', edits: [{ start: 0, end: 6, insert: "Status" }] }],
      },
    ]);
  });

  it("offers no fix where no edit keeps the intent", () => {
    for (const text of ["Priority > 1", 'Status == "a" and', "Name == foo bar"]) {
      const ds = diagnose(text, job);
      expect(ds).toHaveLength(1);
      expect(ds[0]!.fixes).toEqual([]);
    }
  });

  it("says nothing about a valid expression without traps", () => {
    expect(diagnose('Status == "running" and "dc1" in Datacenters', job)).toEqual([]);
    expect(diagnose("a.b == 1")).toEqual([]);
  });

  it("fixAll applies fixes one after the other until none is left", () => {
    const r = fixAll('Name == web-1 && Status = "dead" || Stauts in [pending, running]', job);
    expect(r.text).toBe('Name == "web-1" and Status == "dead" or (Status == "pending" or Status == "running")');
    expect(r.applied.map((a) => a.code)).toEqual(["unexpected-input", "unexpected-input", "unexpected-input", "unexpected-input", "invalid-selector", "unknown-field", "unknown-field"]);
    expect(r.remaining).toEqual([]);
    compile(r.text, job);
  });
});

describe("long runs of not (the reference accepts 45,000)", () => {
  it("diagnose, its fixes and selectorAt stay off the stack", () => {
    const text = `${"not ".repeat(45_000)}JobSummary.Summary.web.Running == 1`;
    const found = diagnose(text, { schema: schemas.job });
    expect(found.map((d) => d.code)).toContain("missing-key-error");
    expect(selectorAt(text, text.length - 10, { schema: schemas.job })).toMatchObject({ text: "JobSummary.Summary.web.Running", type: "signed integer" });
  });
});

describe("selectorAt", () => {
  it("gives the type of the selector under a position, bound names included", () => {
    const text = 'JobSummary.Summary contains "web" or any Datacenters as d { d == "dc1" }';
    expect(selectorAt(text, 12, job)).toMatchObject({ text: "JobSummary.Summary", type: "map of record TaskGroupSummary", span: { start: 0, end: 18 } });
    expect(selectorAt(text, 60, job)).toMatchObject({ text: "d", type: "string" });
    expect(selectorAt(text, 48, job)).toMatchObject({ text: "Datacenters", type: "list of string" });
    expect(selectorAt("JobSummary is nil", 3, job)?.fields).toContain("Summary");
    expect(selectorAt("a.b == 1", 1)).toMatchObject({ type: "any JSON value" });
    expect(selectorAt("a ==", 1)).toBeUndefined();
  });
});
