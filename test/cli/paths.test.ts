/**
 * `filter-check` given files and file patterns as arguments, as eslint is (issue 43): the real binary
 * in a directory of its own, through a real shell where the shell expands the pattern. The rule that
 * tells an expression from a file (src/cli/inputs.ts), patterns matching nothing, files named twice,
 * `--fix` writing back through a pattern, and code frames numbered with the file's lines.
 */
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runChild } from "../support/child.js";
import { CLI, childEnv, jsonLines, runBinary, type Result } from "./helpers.js";

/** A fresh directory holding `files` (path → text). */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "filter-check-paths-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** The status lines of a text report (`LABEL: valid` / `LABEL: invalid, …`). */
function statusLines(stdout: string): string[] {
  return stdout.split("\n").filter((l) => /^\S+: (in)?valid/.test(l));
}

let dir: string;
beforeAll(() => {
  dir = tree({
    "filters/a.txt": '# jobs\nStatus == "running"\n\n\nPriority == high\n',
    "filters/b.txt": "Priority == 50\n",
    "more/x/c.txt": 'Name == "web"\n',
    "more/x/y/d.txt": "Type == batch\n",
    "more/notes.md": "not an expression file\n",
    "more/node_modules/pkg/e.txt": "broken ==\n",
    "more/.cache/f.txt": "broken ==\n",
  });
  symlinkSync("..", join(dir, "more", "x", "y", "loop")); // more/x/y/loop is more/x
});

const cli = (args: readonly string[], input?: string): Promise<Result> => runBinary(args, { cwd: dir, ...(input !== undefined && { input }) });

describe("filter-check FILE... and PATTERN...", () => {
  it("files the shell expanded are checked, one expression a line, labelled FILE:LINE", async () => {
    const r = await runChild("sh", ["-c", `"$0" "$1" --schema job filters/*.txt`, process.execPath, CLI], { cwd: dir, env: childEnv() });
    expect(r.status).toBe(1);
    expect(statusLines(r.stdout)).toEqual(["filters/a.txt:2: valid", "filters/a.txt:5: invalid, 1 error", "filters/b.txt:1: valid"]);
    expect(r.stdout).toContain("3 expressions: 2 valid, 1 invalid");
    expect(r.stderr).toBe("");
  });

  it("a quoted pattern with ** crosses directories, sorted, without node_modules, dot directories or the symlink loop", async () => {
    const r = await cli(["--schema", "job", "more/**/*.txt", "filters/*.txt"]);
    expect(r.code).toBe(1);
    expect(statusLines(r.stdout)).toEqual(["more/x/c.txt:1: valid", "more/x/y/d.txt:1: valid", "filters/a.txt:2: valid", "filters/a.txt:5: invalid, 1 error", "filters/b.txt:1: valid"]);
    // Named, node_modules and dot directories are searched.
    const named = await cli(["more/node_modules/**/*.txt", "more/.cache/*.txt"]);
    expect(statusLines(named.stdout)).toEqual(["more/node_modules/pkg/e.txt:1: invalid, 1 error", "more/.cache/f.txt:1: invalid, 1 error"]);
  });

  it("--file takes a pattern too, and goes with file arguments (its files first)", async () => {
    const r = await cli(["--file", "more/**/*.txt", "filters/b.txt"]);
    expect(r.code).toBe(0);
    expect(statusLines(r.stdout)).toEqual(["more/x/c.txt:1: valid", "more/x/y/d.txt:1: valid", "filters/b.txt:1: valid"]);
  });

  it("a pattern that matches no file is a usage error (exit 2)", async () => {
    const r = await cli(["--schema", "job", "filters/*.json"]);
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toBe(`filter-check: no files matching the pattern "filters/*.json" were found (nor is it a valid expression)\nTry 'filter-check --help' for more information.\n`);
    const file = await cli(["--file", "nowhere/**/*.txt"]);
    expect(file).toMatchObject({ code: 2, stdout: "" });
    expect(file.stderr).toMatch(/^filter-check: no files matching the pattern "nowhere\/\*\*\/\*\.txt" were found\n/);
  });

  it("a file named twice (two patterns, a path, a link) is checked once, where it is first named", async () => {
    symlinkSync("a.txt", join(dir, "filters", "link-to-a.lnk"));
    const r = await cli(["filters/*.txt", "filters/{a,b}.txt", "./filters/a.txt", "filters/link-to-a.lnk"]);
    expect(statusLines(r.stdout)).toEqual(["filters/a.txt:2: valid", "filters/a.txt:5: valid", "filters/b.txt:1: valid"]);
  });

  it("--fix writes the fixed expressions back to each file a pattern matches, and says what it changed", async () => {
    const fix = tree({ "f/one.txt": '# one\nStatus = "running"\n', "f/sub/two.txt": "Name == web-1\n\nPriority == 50\n", "f/sub/ok.txt": "Type == batch\n" });
    const r = await runBinary(["--schema", "job", "--fix", "f/**/*.txt"], { cwd: fix });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe('f/one.txt:2: compare with "=="\nf/sub/two.txt:1: quote the value: "web-1"\n');
    expect(readFileSync(join(fix, "f/one.txt"), "utf8")).toBe('# one\nStatus == "running"\n');
    expect(readFileSync(join(fix, "f/sub/two.txt"), "utf8")).toBe('Name == "web-1"\n\nPriority == 50\n');
    expect(readFileSync(join(fix, "f/sub/ok.txt"), "utf8")).toBe("Type == batch\n");
  });

  it("a file with only comments adds nothing; files with no expression at all are a usage error", async () => {
    const d = tree({ "c/empty.txt": "# nothing yet\n", "c/one.txt": "a == 1\n" });
    const r = await runBinary(["c/*.txt"], { cwd: d });
    expect(r.code).toBe(0);
    expect(statusLines(r.stdout)).toEqual(["c/one.txt:1: valid"]);
    const none = await runBinary(["c/empty.txt"], { cwd: d });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^filter-check: no expression in c\/empty\.txt \(one a line/);
  });
});

describe("an expression or a file: the rule", () => {
  it("an argument that parses is an expression, even when a file has its name (a note names --file)", async () => {
    const d = tree({ "a==1": "b == 2\nc == 3\n" });
    const r = await runBinary(["a==1"], { cwd: d });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("expression 1: valid\n");
    expect(r.stderr).toBe("filter-check: note: \"a==1\" is read as an expression (it parses as one); to check the expressions in the file of that name: filter-check --file 'a==1'\n");
    const file = await runBinary(["--file", "a==1"], { cwd: d });
    expect(statusLines(file.stdout)).toEqual(["a==1:1: valid", "a==1:2: valid"]);
  });

  it("an argument that does not parse is a file when one has its name, even without glob syntax", async () => {
    const r = await cli(["filters/b.txt"]);
    expect(r).toMatchObject({ code: 0, stdout: "filters/b.txt:1: valid\n", stderr: "" });
  });

  it("an invalid expression with glob syntax and spaces stays an expression (exit 1, with its fix), not a pattern", async () => {
    const r = await cli(["Name == web-*"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("error[unexpected-input] at 1:13");
    expect(r.stdout).toContain('fix: quote the value: "web-*"');
    // Without spaces it is a pattern: no file matches, and the message says it is no expression either.
    const pattern = await cli(["Meta[a]==1"]);
    expect(pattern.code).toBe(2);
    expect(pattern.stderr).toMatch(/^filter-check: no files matching the pattern "Meta\[a\]==1" were found \(nor is it a valid expression\)\n/);
  });

  it("an argument that is neither a file, a pattern nor valid is an invalid expression", async () => {
    const r = await cli(["no/such/file.txt"]);
    expect(r).toMatchObject({ code: 1, stderr: "" });
    expect(r.stdout).toMatch(/^expression 1: invalid, 1 error\n/);
  });

  it("a directory is no file: an invalid expression, with a note giving a pattern for its files", async () => {
    const r = await cli(["more"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`filter-check: note: "more" is a directory, read as an expression; to check the files in it, give a pattern such as 'more/**/*.txt'\n`);
  });

  it("files and expressions are not mixed: a usage error that says which is which", async () => {
    const r = await cli(["filters/b.txt", 'Status == "running"']);
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toBe(
      `filter-check: give files or expressions, not both: "filters/b.txt" is a file, but "Status == \\"running\\"" is an expression\nTry 'filter-check --help' for more information.\n`,
    );
    // A misspelt file name among files is caught, not checked as an expression.
    const typo = await cli(["filters/*.txt", "filters/c.txt"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^filter-check: give files or expressions, not both: "filters\/\*\.txt" is a file, but "filters\/c\.txt" is neither a file nor a valid expression\n/);
    // --file with an expression argument.
    const option = await cli(["--file", "filters/b.txt", "a == 1"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^filter-check: --file reads the expressions from files: give no EXPRESSION arguments \("a == 1" is an expression\)\n/);
  });
});

describe("code frames numbered with the input's lines", () => {
  it("a file's frame shows the file's line, the gutter as wide as its number; JSON says the same place", async () => {
    const d = tree({ "long.txt": `${"\n".repeat(11)}Priority == high\n` });
    const r = await runBinary(["--schema", "job", "long.txt"], { cwd: d });
    expect(r.stdout).toContain(
      ['  error[invalid-literal] long.txt:12:13: "high" is not a valid signed integer for Priority', "    12 | Priority == high", "       |             ^^^^"].join("\n"),
    );
    const json = await runBinary(["--schema", "job", "--format", "json", "long.txt"], { cwd: d });
    expect(jsonLines(json.stdout)).toMatchObject([{ filePath: "long.txt", line: 12, errors: [{ line: 12, column: 13, endLine: 12, endColumn: 17 }] }]);
  });

  it("through a pattern too: filters/a.txt:5:13 shows 5 | …", async () => {
    const r = await cli(["--schema", "job", "filters/*.txt"]);
    expect(r.stdout).toContain('error[invalid-literal] filters/a.txt:5:13: "high" is not a valid signed integer for Priority\n    5 | Priority == high\n      |             ^^^^\n');
  });

  it("standard input: stdin:5:13 shows 5 | …; an argument keeps 1 | …", async () => {
    const r = await cli(["--schema", "job"], "\n\n# x\n\nPriority == high\n");
    expect(r.stdout).toContain('error[invalid-literal] stdin:5:13: "high" is not a valid signed integer for Priority\n    5 | Priority == high\n      |             ^^^^\n');
    const arg = await cli(["--schema", "job", "Priority == high"]);
    expect(arg.stdout).toContain("at 1:13: \"high\" is not a valid signed integer for Priority\n    1 | Priority == high\n      |             ^^^^\n");
  });
});
