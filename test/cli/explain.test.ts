import { describe, expect, it } from "vitest";
import { jsonLines, run } from "./helpers.js";

describe("filter-check --explain", () => {
  it("prints the syntax tree and the optimized plan as trees", async () => {
    const expr = 'Status == "/x" and (any JobSummary.Summary as k, v { v.Running == 0 }) or not "dc1" in Datacenters';
    const r = await run(["--explain", "--no-warnings", "--schema", "job", expr]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "expression 1: valid",
        "  syntax tree:",
        "    or  @1:1",
        "    ├─ and  @1:1",
        "    │  ├─ match ==  @1:1",
        '    │  │  ├─ selector Status  steps "Status"',
        '    │  │  └─ value "/x" → text "x" (JSON-Pointer-shaped string, leading slash dropped)',
        "    │  └─ any as k, v  @1:21",
        '    │     ├─ selector JobSummary.Summary  steps "JobSummary" → "Summary"',
        "    │     └─ body",
        "    │        └─ match ==  @1:54",
        '    │           ├─ selector v.Running  steps "v" → "Running"',
        '    │           └─ value 0 → text "0" (number)',
        "    └─ not  @1:75",
        "       └─ match in  @1:79",
        '          ├─ selector Datacenters  steps "Datacenters"',
        '          └─ value "dc1" → text "dc1" (string)',
        "  plan (evaluation order: negations pushed down to the matches; operands that cannot fail sorted cheapest first, the others and regular expressions (metered: charged by the text's length) keep their place):",
        "    or  (cost 26)",
        "    ├─ and  (cost 22)",
        '    │  ├─ Status == "/x"   [equal on string, cannot fail]  (cost 1)',
        "    │  └─ any JobSummary.Summary as k, v  (cost 21)",
        "    │     └─ v.Running == 0   [equal on int]  (cost 1)",
        '    └─ not ("dc1" in Datacenters)   [in on list, cannot fail]  (cost 4)',
        "",
      ].join("\n"),
    );
  });

  it("adds ast and plan to the JSON object; an invalid expression gets its tree but no plan", async () => {
    const r = await run(["--explain", "--format", "json", "--schema", "job"], { input: "not Stop == true\nPriority == high\n" });
    expect(r.code).toBe(1);
    const [ok, bad] = jsonLines(r.stdout) as Record<string, unknown>[];
    expect(ok!.ast).toMatchObject({ kind: "not", operand: { kind: "match", op: "==", value: { type: "word", text: "true" } } });
    expect(ok!.plan).toEqual({ label: "not (Stop == true)   [equal on bool, cannot fail]", cost: 1, infallible: true, metered: false, children: [] });
    expect(bad).toMatchObject({ valid: false, ast: { kind: "match" }, plan: null });
  });
  it("checks, warns about and draws 45,000 nots (the reference accepts them) as one run", async () => {
    const text = `${"not ".repeat(45_000)}a.b == 1`;
    const r = await run(["--explain", text]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("not ×45000  @1:1");
    expect(r.stdout.split("\n").length).toBeLessThan(40);
  });
});
