import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
let out = "";

/** Runs node in the repository (so the build's imports resolve) and returns its outcome. */
function node(args: string[], input?: string) {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: "utf8", input, timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("the built package (tsup: ESM, CommonJS, declarations, binaries)", () => {
  beforeAll(() => {
    // Inside the repository, so that the build finds its dependencies in node_modules.
    out = mkdtempSync(join(ROOT, "node_modules", ".package-test-"));
    const build = spawnSync("npx", ["tsup", "--out-dir", out], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
    expect(build.status, build.stderr).toBe(0);
  }, 180_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  const program = `const d = { Status: "running", Datacenters: ["dc1"] };
    const f = m.compile('Status == "running" and "dc1" in Datacenters', { schema: m.schemas.job });
    let syntax = "";
    try { m.compile("Status ==") } catch (e) { syntax = e.name + " " + e.code + " " + (e instanceof m.FilterSyntaxError); }
    console.log(JSON.stringify([f.evaluate(d), f.filter([d, { Status: "dead" }]).length, syntax]));`;
  const expected = JSON.stringify([true, 1, "FilterSyntaxError unexpected-end true"]);

  it("works from CommonJS (require)", () => {
    const r = node(["-e", `const m = require(${JSON.stringify(join(out, "index.cjs"))}); ${program}`]);
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe(expected);
  });

  it("works from ESM (import)", () => {
    const r = node(["--input-type=module", "-e", `const m = await import(${JSON.stringify(join(out, "index.js"))}); ${program}`]);
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe(expected);
  });

  it("declares its types for both", () => {
    for (const file of ["index.d.ts", "index.d.cts"]) {
      const dts = readFileSync(join(out, file), "utf8");
      expect(dts).toMatch(/declare function compile<T = unknown>\(expression: string, options\?: CompileOptions\): Filter<T>/);
      expect(dts).toContain("declare class FilterSyntaxError");
    }
  });

  it("ships runnable binaries with a shebang", () => {
    for (const bin of ["cli/filter-check.js", "server/main.js"]) {
      expect(existsSync(join(out, bin))).toBe(true);
      expect(readFileSync(join(out, bin), "utf8").startsWith("#!/usr/bin/env node")).toBe(true);
    }
    const ok = node([join(out, "cli/filter-check.js"), "--schema", "job", 'Status == "running"']);
    expect(ok.status).toBe(0);
    const bad = node([join(out, "cli/filter-check.js"), "--schema", "job", 'Stauts == "running"']);
    expect(bad.status).toBe(1);
    expect(bad.stdout + bad.stderr).toContain('did you mean "Status"');
    const help = node([join(out, "server/main.js"), "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("filter-server");
  });
});
