import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROOT, run, runBinary } from "./helpers.js";

const usage = (r: { code: number | null; stdout: string; stderr: string }, message: RegExp) => {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(message);
  expect(r.stderr).toContain("Try 'filter-check --help'");
};

describe("filter-check: options", () => {
  it("--help prints the usage on stdout and exits 0; -h too", async () => {
    for (const flag of ["--help", "-h"]) {
      const r = await runBinary([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: filter-check \[options\] \[EXPRESSION\.\.\. \| FILE\.\.\. \| PATTERN\.\.\.\]/);
      for (const option of ["--schema", "--format", "--data", "--count", "--explain", "--strict", "--no-warnings", "--version"]) {
        expect(r.stdout).toContain(option);
      }
      expect(r.stderr).toBe("");
    }
  });

  it("--version prints the package.json version", async () => {
    const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { version: string };
    const r = await runBinary(["--version"]);
    expect(r).toEqual({ code: 0, stdout: `filter-check (filter-expr) ${version}\n`, stderr: "" });
  });

  it("usage errors exit 2 with a message on stderr", async () => {
    const cases: [string[], RegExp][] = [
      [["--frob", "a == 1"], /^filter-check: Unknown option '--frob'\n/],
      [["--format", "xml", "a == 1"], /--format must be "text" or "json", not "xml"/],
      [["--count", "a == 1"], /--count needs --data/],
      [["--schema"], /--schema/],
      [["--schema", "nope.json", "a == 1"], /cannot read the schema file nope\.json: no such file/],
      [["--data", "nope.json", "a == 1"], /cannot read the data file nope\.json: no such file/],
      [["--data", "test", "a == 1"], /cannot read the data file test: it is a directory/],
    ];
    const results = await Promise.all(cases.map(([args]) => run(args)));
    results.forEach((r, i) => usage(r, cases[i]![1]));
  });

  it("usage errors about expressions: none on stdin, several with --data, --data - without an argument", async () => {
    const [none, dataStdin, several] = await Promise.all([
      run([], { input: "\n# only a comment\n" }),
      run(["--data", "-"], { input: '{"a":1}\n' }),
      run(["--data", "-", "a == 1", "b == 2"], { input: "" }),
    ]);
    usage(none, /no expression on standard input/);
    usage(dataStdin, /with --data -, give the expression as an argument/);
    usage(several, /--data evaluates one expression, but 2 were given/);
  });

  it("after --, an argument starting with a dash is an expression, not an option", async () => {
    const r = await run(["--format", "json", "--", "--help"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ expression: "--help", valid: false, errors: [{ code: "unexpected-input", column: 2 }] });
  });
});
