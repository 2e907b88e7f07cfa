/**
 * `filter-check` over files as eslint users expect: several `--file`s, positions as FILE:LINE:COLUMN
 * (text) and filePath/line/column/endLine/endColumn (JSON), `--fix` saying what it left, a file
 * name given as an argument, and a suggestion for a misspelt option.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, jsonLines, run, runBinary } from "./helpers.js";

let dir: string;
let a: string;
let b: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "filter-check-files-"));
  a = join(dir, "a.txt");
  b = join(dir, "b.txt");
  writeFileSync(a, '# first file\nStatus == "running"\n');
  writeFileSync(b, '\nPriority == 50\n  Stauts == "dead"\n');
});

describe("filter-check: files", () => {
  it("every --file is checked, in order; an invalid expression in any of them exits 1 (the real binary)", async () => {
    const r = await runBinary(["--schema", "job", "--file", b, "--file", a]);
    expect(r.code).toBe(1);
    const status = r.stdout.split("\n").filter((l) => /: (in)?valid/.test(l) && !l.startsWith("3 expressions"));
    expect(status).toEqual([`${b}:2: valid`, `${b}:3: invalid, 1 error`, `${a}:2: valid`]);
    expect(r.stdout).toContain("3 expressions: 2 valid, 1 invalid");
    // The files the other way round: still every one, still exit 1.
    const swapped = await runBinary(["--schema", "job", "--file", a, "--file", b]);
    expect(swapped.code).toBe(1);
    expect(swapped.stdout.indexOf(`${a}:2: valid`)).toBeLessThan(swapped.stdout.indexOf(`${b}:3: invalid`));
  });

  it("text positions are FILE:LINE:COLUMN in the file; arguments keep 'at LINE:COLUMN'", async () => {
    const r = await run(["--schema", "job", "--file", b]);
    expect(r.stdout).toMatch(new RegExp(`error\\[unknown-field\\] ${escape(b)}:3:3: "Stauts" is not a field`));
    const arg = await run(["--schema", "job", 'Stauts == "dead"']);
    expect(arg.stdout).toMatch(/error\[unknown-field\] at 1:1: "Stauts"/);
  });

  it("JSON carries filePath and the input line; errors carry line, column, endLine and endColumn in the file", async () => {
    const r = await run(["--schema", "job", "--format", "json", "--file", b]);
    const [ok, bad] = jsonLines(r.stdout) as Record<string, unknown>[];
    expect(ok).toMatchObject({ expression: "Priority == 50", filePath: b, line: 2, valid: true });
    expect(bad).toMatchObject({ expression: '  Stauts == "dead"', filePath: b, line: 3, valid: false });
    expect((bad!.errors as unknown[])[0]).toMatchObject({ code: "unknown-field", line: 3, column: 3, endLine: 3, endColumn: 9, offset: 2, length: 6 });
    // The span read back from the file by those positions is the offending text.
    const fileLine = readFileSync(b, "utf8").split("\n")[2]!;
    expect(fileLine.slice(3 - 1, 9 - 1)).toBe("Stauts");
    // Standard input is named <stdin>; an argument has no file and line 1.
    const stdin = await run(["--format", "json"], { input: "\n\na ==\n" });
    expect(jsonLines(stdin.stdout)[0]).toMatchObject({ filePath: "<stdin>", line: 3, errors: [{ line: 3, column: 5, endLine: 3, endColumn: 5 }] });
    const arg = await run(["--format", "json", "a =="]);
    expect(jsonLines(arg.stdout)[0]).toMatchObject({ filePath: null, line: 1, errors: [{ line: 1, column: 5 }] });
  });

  it("--fix reports on stderr, as FILE:LINE:COLUMN, what no fix removes, and exits 1", async () => {
    const file = join(dir, "fix.txt");
    writeFileSync(file, 'Status = "running"\nName == web-1 and\n');
    const r = await runBinary(["--schema", "job", "--fix", "--file", file]);
    expect(r.code).toBe(1);
    expect(readFileSync(file, "utf8")).toBe('Status == "running"\nName == "web-1" and\n');
    expect(r.stderr).toMatch(new RegExp(`^${escape(file)}:2:20: error\\[unexpected-end\\]: .+\\n1 problem left that no fix removes\\n$`));
    // Without --file, the position is the expression's own.
    const arg = await runBinary(["--schema", "job", "--fix", "Name == web-1 and"]);
    expect(arg.code).toBe(1);
    expect(arg.stdout).toBe('Name == "web-1" and\n');
    expect(arg.stderr).toMatch(/^1:20: error\[unexpected-end\]: .+\n1 problem left that no fix removes\n$/);
    // Nothing left: nothing on stderr.
    const clean = await runBinary(["--schema", "job", "--fix", 'Status = "running"']);
    expect(clean).toMatchObject({ code: 0, stderr: "" });
  });

  it("a file name given as an argument is the file (test/cli/paths.test.ts has the rule)", async () => {
    const name = relative(ROOT, a);
    const r = await runBinary(["--schema", "job", name]);
    expect(r).toMatchObject({ code: 0, stdout: `${name}:2: valid\n`, stderr: "" });
    // No note for an expression that merely looks like a path, nor for a valid one.
    expect((await run(["no/such/file.txt"])).stderr).toBe("");
    expect((await run(["Status"])).stderr).toBe("");
  });

  it("a misspelt option is a usage error that suggests the option meant", async () => {
    const r = await runBinary(["--fromat", "json", "a == 1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^filter-check: Unknown option '--fromat'; perhaps you meant '--format'\?\n/);
    expect((await run(["--no-warning", "a == 1"])).stderr).toMatch(/perhaps you meant '--no-warnings'\?/);
    expect((await run(["--frobnicate", "a == 1"])).stderr).toMatch(/^filter-check: Unknown option '--frobnicate'\n/);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
