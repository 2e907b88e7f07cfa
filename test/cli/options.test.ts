import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ROOT, run } from "./helpers.js";

const usage = (r: { code: number | null; stdout: string; stderr: string }, message: RegExp) => {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe("");
  expect(r.stderr).toMatch(message);
  expect(r.stderr).toContain("Try 'filter-check --help'");
};

describe("filter-check: options", () => {
  it("--help prints the usage on stdout and exits 0; -h too", async () => {
    for (const flag of ["--help", "-h"]) {
      const r = await run([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Usage: filter-check \[options\] \[EXPRESSION\.\.\.\]/);
      for (const option of ["--schema", "--format", "--data", "--count", "--explain", "--strict", "--no-warnings", "--version"]) {
        expect(r.stdout).toContain(option);
      }
      expect(r.stderr).toBe("");
    }
  });

  it("--version prints the package.json version", async () => {
    const { version } = JSON.parse(readFileSync(`${ROOT}package.json`, "utf8")) as { version: string };
    const r = await run(["--version"]);
    expect(r).toEqual({ code: 0, stdout: `filter-check (filter-expr) ${version}\n`, stderr: "" });
  });

  it("usage errors exit 2 with a message on stderr", async () => {
    usage(await run(["--frob", "a == 1"]), /^filter-check: Unknown option '--frob'\n/);
    usage(await run(["--format", "xml", "a == 1"]), /--format must be "text" or "json", not "xml"/);
    usage(await run(["--count", "a == 1"]), /--count needs --data/);
    usage(await run(["--schema"]), /--schema/);
    usage(await run(["--schema", "nope.json", "a == 1"]), /cannot read the schema file nope\.json: no such file/);
    usage(await run(["--data", "nope.json", "a == 1"]), /cannot read the data file nope\.json: no such file/);
    usage(await run(["--data", "test", "a == 1"]), /cannot read the data file test: it is a directory/);
  });

  it("usage errors about expressions: none on stdin, several with --data, --data - without an argument", async () => {
    usage(await run([], { input: "\n# only a comment\n" }), /no expression on standard input/);
    usage(await run(["--data", "-"], { input: '{"a":1}\n' }), /with --data -, give the expression as an argument/);
    usage(await run(["--data", "-", "a == 1", "b == 2"], { input: "" }), /--data evaluates one expression, but 2 were given/);
  });

  it("after --, an argument starting with a dash is an expression, not an option", async () => {
    const r = await run(["--format", "json", "--", "--help"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ expression: "--help", valid: false, errors: [{ code: "unexpected-input", column: 2 }] });
  });
});
