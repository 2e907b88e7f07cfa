import { describe, expect, it } from "vitest";
import { jsonLines, run, runBinary } from "./helpers.js";

interface JsonWarning {
  code: string;
  message: string;
  hint: string;
  line: number;
  column: number;
  offset: number;
  length: number;
}
interface JsonReport {
  expression: string;
  valid: boolean;
  errors: unknown[];
  warnings: JsonWarning[];
}

/** Checks the expressions (one a line on stdin) and returns their JSON reports. */
async function check(schema: string | undefined, ...expressions: string[]): Promise<{ code: number | null; reports: JsonReport[] }> {
  const args = ["--format", "json", ...(schema ? ["--schema", schema] : [])];
  const r = await run(args, { input: expressions.join("\n") });
  expect(r.stderr).toBe("");
  return { code: r.code, reports: jsonLines(r.stdout) as JsonReport[] };
}

describe("filter-check: warnings for the reference's traps", () => {
  it("warns about each trap with an explanation and a fix", async () => {
    const { code, reports } = await check(
      "job",
      'ID == "/x"',
      "ID == Name",
      "any Datacenters as dc { Name == dc }",
      "Multiregion.Regions.Name == east",
      "JobSummary.Summary.web.Running == 1",
      "JobSummary.Summary.web.Running != 1 and Stop == false",
      "Datacenters.first == dc1",
    );
    // A name step into a list fails wherever it is reached: the static check reports it once, as an
    // error whose fix looks inside the elements (no warning says it again).
    expect(code).toBe(1);
    expect(reports.map((r) => r.valid)).toEqual([true, true, true, false, true, true, false]);
    expect(reports[3]!.errors).toEqual([expect.objectContaining({ code: "invalid-index", column: 20, fixes: [expect.objectContaining({ title: "test the elements: any Multiregion.Regions as r { r.Name == east }" })] })]);
    expect(reports[6]!.errors).toEqual([expect.objectContaining({ code: "invalid-index", column: 12, fixes: [expect.objectContaining({ title: "write dc1 in Datacenters" })] })]);
    const [pointer, word, bound, list, missing, negated, scalars] = reports.map((r) => r.warnings);

    expect(pointer).toHaveLength(1);
    expect(pointer![0]).toMatchObject({ code: "pointer-value", column: 7, length: 4 });
    expect(pointer![0]!.message).toContain('compared as "x", without its leading slash');
    expect(pointer![0]!.hint).toContain('write `/x` (backticks: a raw string) to compare with the text "/x"');

    expect(word).toEqual([expect.objectContaining({ code: "word-is-selector", column: 7, length: 4 })]);
    expect(word![0]!.message).toContain('the bare word Name is the text "Name", not a value from the data (Name is a field of JobListStub)');

    expect(bound).toEqual([expect.objectContaining({ code: "word-is-selector", column: 33 })]);
    expect(bound![0]!.message).toContain("dc is the name bound by any/all here");

    expect(list).toEqual([]);

    expect(missing).toEqual([expect.objectContaining({ code: "missing-key-error", column: 20, length: 3 })]);
    expect(missing![0]!.message).toContain('JobSummary.Summary may have no key "web"; then this raises an error instead of not matching');
    expect(missing![0]!.hint).toBe('guard the key: "web" in JobSummary.Summary and JobSummary.Summary.web.Running == 1');

    expect(scalars).toEqual([]);

    // != answers true on a missing last key: the guard keeps that meaning, parenthesised inside the and.
    expect(negated![0]!.hint).toBe('guard the key: ("web" not in JobSummary.Summary or JobSummary.Summary.web.Running != 1)');
  });

  it("does not warn when the key is guarded, or for plain values", async () => {
    const { reports } = await check(
      "job",
      '"web" in JobSummary.Summary and JobSummary.Summary.web.Running == 1',
      '"web" not in JobSummary.Summary or JobSummary.Summary.web.Running != 1',
      "any JobSummary.Summary as k, v { v.Running == 1 }",
      'Status == running and ID == `/x` and "dc1" in Datacenters and Multiregion.Regions.0 is not empty',
      "JobSummary.Summary.web is not nil",
    );
    expect(reports.map((r) => r.warnings)).toEqual([[], [], [], [], []]);
  });

  it("a guard only counts where it protects: after and for in, after or for not in", async () => {
    const { reports } = await check("job", '"web" in JobSummary.Summary or JobSummary.Summary.web.Running == 1');
    expect(reports[0]!.warnings.map((w) => w.code)).toEqual(["missing-key-error"]);
  });

  it("without a schema: a path-shaped bare word and a nested key of plain JSON", async () => {
    const { reports } = await check(undefined, "a.b.c == 1", "x == a.b", "x == y");
    expect(reports[0]!.warnings).toEqual([expect.objectContaining({ code: "missing-key-error", hint: 'guard the key: "b" in a and a.b.c == 1' })]);
    expect(reports[1]!.warnings).toEqual([expect.objectContaining({ code: "word-is-selector" })]);
    expect(reports[2]!.warnings).toEqual([]);
  });

  it("in text, a warning is a frame with the caret under the span and a hint; --no-warnings drops them; --strict fails", async () => {
    const text = await run(["--schema", "deployment", "TaskGroups.web.HealthyAllocs == 2"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("expression 1: valid, 1 warning\n");
    expect(text.stdout).toContain('  warning[missing-key-error] at 1:12: TaskGroups may have no key "web"');
    expect(text.stdout).toContain("    1 | TaskGroups.web.HealthyAllocs == 2\n      |            ^^^\n");
    expect(text.stdout).toContain('    hint: guard the key: "web" in TaskGroups and TaskGroups.web.HealthyAllocs == 2\n');

    const quiet = await run(["--no-warnings", "--schema", "deployment", "TaskGroups.web.HealthyAllocs == 2"]);
    expect(quiet).toMatchObject({ code: 0, stdout: "expression 1: valid\n" });

    const strict = await run(["--strict", "--schema", "deployment", "TaskGroups.web.HealthyAllocs == 2", "Status == running"]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain("expression 1: invalid, 1 warning");
    expect(strict.stdout).toContain("expression 2: valid");
  });

  it("unknown-value: a text none of the field's known values, with the listed spelling as its fix", async () => {
    const { code, reports } = await check(
      "job",
      'Status == "RUNNING"',
      "Type != Batch",
      "Status == `runing`",
      'Status == "unknown"',
      '"RUN" in Status',
      'Status == "running" and Type == "service" and "dc1" in Datacenters and Name == "RUNNING" and Status matches "RUN"',
    );
    expect(code).toBe(0);
    expect(reports.map((r) => r.valid)).toEqual([true, true, true, true, true, true]);
    const [upper, word, backticks, unknown, substring, fine] = reports.map((r) => r.warnings);
    expect(upper).toEqual([expect.objectContaining({ code: "unknown-value", column: 11, length: 9, hint: 'write "running"' })]);
    expect(upper![0]!.message).toBe('"RUNNING" is not one of the values Status takes ("pending", "running", "dead"): the comparison is case-sensitive, and the value is spelt "running" at 1:11');
    expect(word).toEqual([expect.objectContaining({ code: "unknown-value", hint: "write batch" })]);
    expect(backticks).toEqual([expect.objectContaining({ code: "unknown-value", hint: "write `running`" })]);
    expect(backticks![0]!.message).toContain('did you mean "running"?');
    expect(unknown).toEqual([expect.objectContaining({ code: "unknown-value", hint: 'compare with one of the values: "pending", "running", "dead"' })]);
    expect(unknown![0]!.message).toContain("this matches no record whose Status is one of them");
    expect(substring).toEqual([expect.objectContaining({ code: "unknown-value", hint: 'write "run"' })]);
    expect(fine).toEqual([]);
  });

  it("unknown-value: the deployment's Status; no warning without a schema; --fix writes the spelling (the real binary)", async () => {
    const deployment = await check("deployment", 'Status == "Successful"', 'Status == "successful" or Status == "blocked"');
    expect(deployment.reports.map((r) => r.warnings.map((w) => w.hint))).toEqual([['write "successful"'], []]);
    const plain = await check(undefined, 'Status == "RUNNING"');
    expect(plain.reports[0]!.warnings).toEqual([]);

    const fixed = await runBinary(["--schema", "job", "--fix", 'Status == "RUNNING" and Type == SERVICE', 'Status == "x"']);
    expect(fixed.stdout).toBe('Status == "running" and Type == service\nStatus == "x"\n');
    expect(fixed.stderr).toContain('warning[unknown-value]: "x" is not one of the values Status takes');
    expect(fixed.code).toBe(0);
    const text = await runBinary(["--schema", "job", "Status == RUNNING"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("expression 1: valid, 1 warning\n");
    expect(text.stdout).toContain("    1 | Status == RUNNING\n      |           ^^^^^^^\n");
    expect(text.stdout).toContain("    hint: write running\n");
  });
});
