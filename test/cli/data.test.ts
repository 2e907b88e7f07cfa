import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonLines, run, runBinary, start } from "./helpers.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "filter-check-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

const JOBS = `[
  {"ID": "a", "Status": "running", "JobSummary": {"Summary": {"web": {"Running": 1}}}, "CreateIndex": 18446744073709551615},
  {"ID": "b", "Status": "dead",    "JobSummary": {"Summary": {"web": {"Running": 0}}}},
  {"ID": "c", "Status": "running", "JobSummary": {"Summary": {"api": {"Running": 2}}}, "CreateIndex": 18446744073709551614}
]`;

describe("filter-check --data", () => {
  it("prints the matching items of a JSON array as JSON lines, each item's own text compacted", async () => {
    const jobs = file("jobs.json", JOBS);
    const r = await run(["--schema", "job", "--data", jobs, 'Status == "running"']);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe(
      '{"ID":"a","Status":"running","JobSummary":{"Summary":{"web":{"Running":1}}},"CreateIndex":18446744073709551615}\n' +
        '{"ID":"c","Status":"running","JobSummary":{"Summary":{"api":{"Running":2}}},"CreateIndex":18446744073709551614}\n',
    );
  });

  it("compares unsigned integers beyond 2^53 exactly, and --count prints the number of matches", async () => {
    const jobs = file("jobs2.json", JOBS);
    const exact = await run(["--schema", "job", "--data", jobs, "CreateIndex == 18446744073709551614"]);
    expect(exact.code).toBe(0);
    expect(jsonLines(exact.stdout).map((j) => (j as { ID: string }).ID)).toEqual(["c"]);
    const count = await run(["--schema", "job", "--data", jobs, "--count", 'Status != "running"']);
    expect(count).toEqual({ code: 0, stdout: "1\n", stderr: "" });
  });

  it("an evaluation error names the item's index, its line and the span, and exits 1 after the earlier matches", async () => {
    const jobs = file("jobs3.json", JOBS);
    const expr = "JobSummary.Summary.web.Running == 1";
    const text = await run(["--schema", "job", "--no-warnings", "--data", jobs, expr]);
    expect(text.code).toBe(1);
    expect(jsonLines(text.stdout).map((j) => (j as { ID: string }).ID)).toEqual(["a"]);
    expect(text.stderr).toContain(`error[missing-key] at 1:1: item 2 (${jobs}, line 4): JobSummary.Summary has no key "web"\n`);
    expect(text.stderr).toContain(`  1 | ${expr}\n    | ${"^".repeat(expr.length)}\n`);
    expect(text.stderr).toContain("hint: a key missing before the last step is an error");

    const json = await run(["--schema", "job", "--format", "json", "--data", jobs, expr]);
    expect(json.code).toBe(1);
    const [report, failure] = jsonLines(json.stderr) as Record<string, unknown>[];
    expect(report).toMatchObject({ expression: expr, valid: true, warnings: [{ code: "missing-key-error" }] });
    expect(failure).toEqual({
      expression: expr,
      item: 2,
      dataLine: 4,
      error: { code: "missing-key", message: 'JobSummary.Summary has no key "web" at 1:1', line: 1, column: 1, endLine: 1, endColumn: expr.length + 1, offset: 0, length: expr.length, fixes: [] },
    });
  });

  it("an invalid expression is reported on stderr and no data is read; exit 1", async () => {
    const r = await run(["--schema", "job", "--data", "-", "Stauts == running"], { input: "this is not json" });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error[unknown-field]");
  });

  it("reads JSON lines (and pretty-printed values one after another) from stdin; plain JSON mode without a schema", async () => {
    const input = '{"a": 1, "tags": ["x"]}\n\n{"a": 2, "tags": ["y", "x"]}\r\n{\n  "a": 3,\n  "tags": []\n}\n';
    const r = await run(["--data", "-", "x in tags"], { input });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout).toBe('{"a":1,"tags":["x"]}\n{"a":2,"tags":["y","x"]}\n');
  });

  it("malformed data is an error naming the item and where it is; exit 1", async () => {
    const bad = await run(["--data", "-", "a == 1"], { input: '{"a": 1}\n{"a": 1,}\n' });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe('{"a":1}\n');
    expect(bad.stderr).toMatch(/^error\[invalid-data\]: item 1 is not valid JSON: .* \(standard input, line 2, column 1\)\n$/);

    const array = await run(["--format", "json", "--data", "-", "a == 1"], { input: '[{"a": 1}\n {"a": 2}]' });
    expect(array.code).toBe(1);
    expect(JSON.parse(array.stderr)).toEqual({
      item: null,
      dataLine: 2,
      dataColumn: 2,
      error: { code: "invalid-data", message: 'expected "," or "]" after item 0 of the array (standard input, line 2, column 2)' },
    });

    const [unfinished, after] = await Promise.all([
      run(["--data", "-", "a == 1"], { input: '[{"a": 1}, {"a": "}' }),
      run(["--data", "-", "a == 1"], { input: '[{"a": 1}]\n{"a": 1}\n' }),
    ]);
    expect(unfinished.code).toBe(1);
    expect(unfinished.stderr).toMatch(/item 1 is not finished when the data ends \(standard input, line 1, column 12\)/);
    expect(after.code).toBe(1);
    expect(after.stdout).toBe('{"a":1}\n');
    expect(after.stderr).toMatch(/unexpected text after the end of the array .* \(standard input, line 2, column 1\)/);
  });

  it("streams: a match is printed while standard input is still open", async () => {
    const child = start(["--data", "-", "a == 2"]);
    let out = "";
    child.stdout.setEncoding("utf8");
    const seen = new Promise<void>((resolve) =>
      child.stdout.on("data", (d: string) => {
        out += d;
        if (out.includes('{"a":2}')) resolve();
      }),
    );
    child.stdin.write('[{"a": 1},\n {"a": 2},\n');
    await seen; // the array is not finished yet
    child.stdin.end('{"a": 2, "b": true}]\n');
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code).toBe(0);
    expect(out).toBe('{"a":2}\n{"a":2,"b":true}\n');
  });

  it("streams a large file (200,000 JSON lines, and the same items as one array, within a 32 MB heap)", async () => {
    const n = 200_000;
    const lines: string[] = [];
    for (let i = 0; i < n; i++) lines.push(`{"ID":"job-${i}","Priority":${i % 100},"Datacenters":["dc${i % 3}"],"Meta":{"note":"line ${i} \\" ] }"}}`);
    const jsonl = file("big.jsonl", `${lines.join("\n")}\n`);
    const array = file("big.json", `[\n${lines.join(",\n")}\n]\n`);
    const expr = '"dc1" in Datacenters and Priority == 42';
    // i % 3 == 1 and i % 100 == 42: i ≡ 142 (mod 300)
    const expected = Math.ceil((n - 142) / 300);
    const [count, items] = await Promise.all([
      run(["--schema", "job", "--count", "--data", jsonl, expr]),
      // Parsing the whole 18 MB array at once does not fit in this heap; streaming does.
      runBinary(["--schema", "job", "--data", array, expr], { env: { NODE_OPTIONS: "--max-old-space-size=32" } }),
    ]);
    expect(count).toEqual({ code: 0, stdout: `${expected}\n`, stderr: "" });
    expect(items.code).toBe(0);
    const out = items.stdout.trimEnd().split("\n");
    expect(out).toHaveLength(expected);
    expect(out[0]).toBe(lines[142]);
    expect(out.at(-1)).toBe(lines[142 + 300 * (expected - 1)]);
  });
});
