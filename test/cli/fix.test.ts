import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLines, run, runBinary } from "./helpers.js";

describe("filter-check --fix", () => {
  it("prints each expression with every fix applied; exit 0 when all are valid (the real binary)", async () => {
    const r = await runBinary(["--schema", "job", "--fix", 'Name == web-1 && Stauts = "running"', 'Type in ["batch", "system"]']);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe('Name == "web-1" and Status == "running"\nType == "batch" or Type == "system"\n');
  });

  it("exits 1 when a finding has no fix, and prints what it could fix", async () => {
    const r = await run(["--schema", "job", "--fix", 'Name == web-1 and']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('Name == "web-1" and\n');
  });

  it("--format json: the fixed text, the fixes applied and what is left", async () => {
    const r = await run(["--schema", "job", "--fix", "--format", "json", "JobSummary.Summary.web.Running == 1"]);
    expect(r.code).toBe(0);
    expect(jsonLines(r.stdout)).toEqual([
      {
        expression: "JobSummary.Summary.web.Running == 1",
        fixed: '"web" in JobSummary.Summary and JobSummary.Summary.web.Running == 1',
        applied: [{ code: "missing-key-error", title: 'guard the key: "web" in JobSummary.Summary and JobSummary.Summary.web.Running == 1' }],
        remaining: [],
      },
    ]);
  });

  it("--file: fixes the expressions of a file in place, keeping comments and blank lines", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-check-fix-"));
    const file = join(dir, "filters.txt");
    writeFileSync(file, '# jobs\nStatus = "running"\n\nName == "ok"\n!(Stop == true)\n');
    const r = await run(["--schema", "job", "--fix", "--file", file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${file}:2: compare with "=="\n${file}:5: write "not" for "!"\n`);
    expect(readFileSync(file, "utf8")).toBe('# jobs\nStatus == "running"\n\nName == "ok"\nnot (Stop == true)\n');
  });

  it("without --fix, --file checks the expressions of the file, and reports carry their fixes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-check-fix-"));
    const file = join(dir, "filters.txt");
    writeFileSync(file, "Name == web-1\n");
    const r = await run(["--file", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('fix: quote the value: "web-1" (filter-check --fix)');
    const j = await run(["--file", file, "--format", "json"]);
    expect((jsonLines(j.stdout)[0] as { errors: unknown[] }).errors[0]).toMatchObject({
      code: "unexpected-input",
      fixes: [{ title: 'quote the value: "web-1"', edits: [{ start: 8, end: 13, insert: '"web-1"' }] }],
    });
    expect(readFileSync(file, "utf8")).toBe("Name == web-1\n");
  });

  it("usage errors: --file with arguments, --fix with --data", async () => {
    expect((await run(["--file", "x", "a == 1"])).code).toBe(2);
    expect((await run(["--fix", "--data", "-", "a == 1"])).code).toBe(2);
  });
});
