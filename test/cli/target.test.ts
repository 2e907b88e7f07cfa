/**
 * `filter-check --target` and `--split` through the real binary: what a release lacks is an error
 * naming the release that brought it, what it answers differently a warning, `--split` the two parts,
 * `--data` evaluates as the release, and an unknown release is a usage error naming the known ones.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonLines, run, runBinary } from "./helpers.js";

describe("filter-check --target", () => {
  it("flags every construct the release lacks, naming the release that introduced it (the real binary)", async () => {
    const r = await runBinary(["--target", "nomad@1.4.0", "--format", "json", "(any Tags as t { t is nil }) and x is not nil"]);
    expect(r.code).toBe(1);
    const [report] = jsonLines(r.stdout) as [{ valid: boolean; errors: { code: string; message: string; column: number }[] }];
    expect(report.valid).toBe(false);
    expect(report.errors.map((e) => [e.code, e.column])).toEqual([["not-in-target", 2], ["not-in-target", 20], ["not-in-target", 36]]);
    expect(report.errors[0]!.message).toContain("arrived in go-bexpr 0.1.13 (nomad 1.4.14)");
    expect(report.errors[1]!.message).toContain("arrived in go-bexpr 0.1.16 (nomad 1.11.3)");
    // The same expression is valid for a release that has both.
    expect((await run(["--target", "nomad@2.0.0", "(any Tags as t { t is nil }) and x is not nil"])).code).toBe(0);
  });

  it("warns where the release answers differently, and --strict makes that an error", async () => {
    const r = await run(["--target", "go-bexpr@0.1.11", 'Meta.team == "web"']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/warning\[target-behaviour\] at 1:1: on go-bexpr@0\.1\.11 \(go-bexpr 0\.1\.11\) a key missing from a map at a selector's end is an error/);
    expect((await run(["--target", "go-bexpr@0.1.12", 'Meta.team == "web"'])).stdout).not.toContain("target-behaviour");
    expect((await run(["--strict", "--target", "go-bexpr@0.1.11", 'Meta.team == "web"'])).code).toBe(1);
  });

  it("--data evaluates as the release: go-bexpr 0.1.11 fails on a missing map key where 0.1.12 answers false", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-check-target-"));
    const data = join(dir, "items.json");
    writeFileSync(data, JSON.stringify([{ Meta: { team: "web" } }, { Meta: {} }]));
    const newer = await run(["--target", "go-bexpr@0.1.12", "--data", data, "--count", 'Meta.team == "web"']);
    expect(newer.stdout.trim()).toBe("1");
    const old = await run(["--target", "go-bexpr@0.1.11", "--no-warnings", "--data", data, 'Meta.team == "web"']);
    expect(old.code).toBe(1);
    expect(old.stderr).toMatch(/error\[missing-key\] at 1:1: item 1 .*Meta has no key "team"/);
  });

  it("--split prints the part for the release's server and the residual (text and JSON)", async () => {
    const expr = 'ParentID == `` and Multiregion is not nil';
    const text = await runBinary(["--schema", "job", "--target", "nomad@1.10.5", "--split", expr]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("split for nomad@1.10.5 (go-bexpr 0.1.14):");
    expect(text.stdout).toMatch(/server: +ParentID == ``\n/);
    expect(text.stdout).toMatch(/residual: +Multiregion is not nil\n/);
    const json = await run(["--schema", "job", "--target", "nomad@1.10.5", "--split", "--format", "json", expr]);
    expect((jsonLines(json.stdout)[0] as { split: unknown }).split).toEqual({ target: "nomad@1.10.5", bexpr: "0.1.14", server: "ParentID == ``", residual: "Multiregion is not nil" });
  });

  it("an unknown release, or --split without --target, is a usage error", async () => {
    const r = await run(["--target", "nomad@9.0.0", "x == 1"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown target "nomad@9.0.0"; known targets: go-bexpr@0.1.11');
    expect(r.stderr).toContain("nomad@<release> for 1.3.0–1.3.16");
    const s = await run(["--split", "x == 1"]);
    expect(s.code).toBe(2);
    expect(s.stderr).toContain("--split needs --target");
  });
});
