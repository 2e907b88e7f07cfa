import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLines, run, runBinary } from "./helpers.js";

const dir = mkdtempSync(join(tmpdir(), "filter-check-why-"));
const jobs = join(dir, "jobs.json");
writeFileSync(
  jobs,
  `${[
    { ID: "a", Status: "running", Datacenters: ["dc1"] },
    { ID: "b", Status: "running", Datacenters: ["dc2"] },
    { ID: "c", Status: "dead", Datacenters: ["dc1"] },
  ]
    .map((j) => JSON.stringify(j))
    .join("\n")}\n`,
);
const EXPR = 'Status == "running" and "dc1" in Datacenters';

describe("filter-check --why", () => {
  it("says for each item whether it matched, with carets under the parts that decided it and what they read (the real binary)", async () => {
    const r = await runBinary(["--schema", "job", "--data", jobs, "--why", EXPR]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const items = r.stdout.trimEnd().split("\n\n");
    expect(items).toHaveLength(3);
    // A match: every operand of the and, each with its caret and value.
    expect(items[0]).toBe(
      [
        `item 0 (${jobs}, line 1): match`,
        `  1 | ${EXPR}`,
        `    | ${"^".repeat(19)} true: Status is "running"`,
        `  1 | ${EXPR}`,
        `    | ${" ".repeat(24)}${"^".repeat(20)} true: Datacenters is ["dc1"]`,
      ].join("\n"),
    );
    // No match: the first false operand alone.
    expect(items[1]).toBe([`item 1 (${jobs}, line 2): no match`, `  1 | ${EXPR}`, `    | ${" ".repeat(24)}${"^".repeat(20)} false: Datacenters is ["dc2"]`].join("\n"));
    expect(items[2]).toContain('false: Status is "dead"');
    expect(items[2]).not.toContain("Datacenters is");
  });

  it("--format json: one object an item with its result and witness", async () => {
    const r = await run(["--schema", "job", "--data", jobs, "--why", "--format", "json", EXPR]);
    expect(r.code).toBe(0);
    const lines = jsonLines(r.stdout) as { item: number; result: unknown; witness: { selector: string; outcome: unknown; read: unknown; span: unknown }[] }[];
    expect(lines.map((l) => [l.item, l.result, l.witness.map((w) => w.selector)])).toEqual([
      [0, true, ["Status", "Datacenters"]],
      [1, false, ["Datacenters"]],
      [2, false, ["Status"]],
    ]);
    expect(lines[1]!.witness[0]).toMatchObject({ read: { value: ["dc2"] }, outcome: false, span: { start: 24, end: 44 } });
  });

  it("an item that raises an error is explained by the leaf that raised it, and the run stops with exit 1", async () => {
    const r = await run(["--schema", "job", "--no-warnings", "--data", jobs, "--why", "JobSummary.Summary.web.Running == 1"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("item 0");
    expect(r.stdout).toMatch(/error\[invalid-path\]: cannot select "Summary" in JobSummary, which is nil\n.*\n.* error\n/);
    expect(r.stdout).not.toContain("item 1");
    expect(r.stderr).toContain("error[invalid-path]");
  });

  it("usage: --why needs --data, and does not go with --count", async () => {
    expect((await run(["--why", "a == 1"])).stderr).toMatch(/--why needs --data/);
    expect((await run(["--why", "--count", "--data", jobs, "a == 1"])).code).toBe(2);
  });
});
