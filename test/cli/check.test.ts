import { describe, expect, it } from "vitest";
import { jsonLines, run, runBinary } from "./helpers.js";

describe("filter-check: checking expressions", () => {
  it("accepts a valid expression: exit 0, a status line, nothing on stderr (the real binary)", async () => {
    const r = await runBinary(["--schema", "job", 'Status == "running" and "dc1" in Datacenters']);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe("expression 1: valid\n");
  });

  it("reports a syntax error with a code frame, the caret under the span, the message and a hint; exit 1 (the real binary)", async () => {
    const r = await runBinary(['Status == "running" and Stop ==']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("expression 1: invalid, 1 error\n");
    expect(r.stdout).toContain('error[unexpected-end] at 1:32: expected a value after "==", but the expression ends\n');
    const lines = r.stdout.split("\n");
    const src = lines.findIndex((l) => l.endsWith('1 | Status == "running" and Stop =='));
    expect(src).toBeGreaterThan(0);
    // The caret sits under column 32 (one past the end), in the line below the source.
    const caretLine = lines[src + 1]!;
    const bar = caretLine.indexOf("| ") + 2;
    expect(caretLine.slice(bar)).toBe(`${" ".repeat(31)}^`);
    expect(r.stdout).toMatch(/hint: the expression stops too early/);
  });

  it("reports every static finding against the schema, each with a hint, in source order", async () => {
    const expr = 'Stauts == running and Priority == abc and ID matches "(" and Datacenters is nil';
    const r = await run(["--schema", "job", expr]);
    expect(r.code).toBe(1);
    const codes = [...r.stdout.matchAll(/error\[([a-z-]+)\] at (\d+:\d+)/g)].map((m) => `${m[1]}@${m[2]}`);
    expect(codes).toEqual(["unknown-field@1:1", "invalid-literal@1:35", "invalid-regex@1:54"]);
    expect(r.stdout).toContain('did you mean "Status"?');
    expect(r.stdout).toContain("hint: replace it with Status; the fields of JobListStub are ID, ParentID,");
    expect(r.stdout).toContain("a signed integer is written 42");
    expect(r.stdout).toContain("patterns are RE2");
    expect(r.stdout).toContain("      | ^^^^^^\n");
  });

  it("without a schema, still finds an invalid regular expression", async () => {
    const r = await run(['a matches "(x"', 'a matches "(x)"']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("expression 1: invalid, 1 error");
    expect(r.stdout).toContain("error[invalid-regex] at 1:11");
    expect(r.stdout).toContain("expression 2: valid");
    expect(r.stdout).toContain("2 expressions: 1 valid, 1 invalid\n");
  });

  it("reads expressions from stdin, one a line, skipping blank lines and # comments, labelled by line", async () => {
    const input = '# jobs that matter\nStatus == "running"\n\n  \nPriority == x\r\nStop == true';
    const r = await run(["--schema", "job"], { input });
    expect(r.code).toBe(1);
    const status = r.stdout.split("\n").filter((l) => /^stdin:\d+: /.test(l));
    expect(status).toEqual(["stdin:2: valid", "stdin:5: invalid, 1 error", "stdin:6: valid"]);
    expect(r.stdout).toContain("3 expressions: 2 valid, 1 invalid");
  });

  it("--format json: one object a line per expression, with the documented fields", async () => {
    const r = await run(["--format", "json", "--schema", "job"], { input: 'Status == "running"\nStauts == x\nID == "/x"\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("");
    const [ok, bad, warned] = jsonLines(r.stdout) as Record<string, unknown>[];
    // Read from standard input: filePath <stdin>, and positions on its lines.
    expect(ok).toEqual({ expression: 'Status == "running"', filePath: "<stdin>", line: 1, valid: true, errors: [], warnings: [] });
    expect(bad).toEqual({
      expression: "Stauts == x",
      filePath: "<stdin>",
      line: 2,
      valid: false,
      errors: [
        {
          code: "unknown-field",
          message: '"Stauts" is not a field of JobListStub; did you mean "Status"? at 1:1',
          line: 2,
          column: 1,
          endLine: 2,
          endColumn: 7,
          offset: 0,
          length: 6,
          // Each finding carries the fixes of diagnose(): edits with offsets into the expression.
          fixes: [{ title: 'replace "Stauts" with "Status"', edits: [{ start: 0, end: 6, insert: "Status" }] }],
        },
      ],
      warnings: [],
    });
    expect(warned).toMatchObject({ expression: 'ID == "/x"', valid: true, errors: [] });
    expect((warned!.warnings as unknown[])[0]).toEqual({
      code: "pointer-value",
      message: expect.stringMatching(/^"\/x" is read as a JSON Pointer and compared as "x".* at 1:7$/),
      hint: expect.stringContaining("`/x`"),
      line: 3,
      column: 7,
      endLine: 3,
      endColumn: 11,
      offset: 6,
      length: 4,
      fixes: [{ title: expect.stringContaining("`/x`"), edits: [{ start: 6, end: 10, insert: "`/x`" }] }],
    });
  });

  it("positions on later lines of a multi-line expression", async () => {
    const r = await run(["--format", "json", 'Status == "running"\n  and Priorty == 1'], { env: {} });
    const [report] = jsonLines(r.stdout) as { errors: { line: number; column: number; offset: number }[] }[];
    expect(r.code).toBe(0);
    expect(report!.errors).toEqual([]);
    const typed = await run(["--format", "json", "--schema", "job", 'Status == "running"\n  and Priorty == 1']);
    const [t] = jsonLines(typed.stdout) as { errors: { line: number; column: number; offset: number }[] }[];
    expect(typed.code).toBe(1);
    expect(t!.errors[0]).toMatchObject({ line: 2, column: 7, offset: 26 });
  });
});
