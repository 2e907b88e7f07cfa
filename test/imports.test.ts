/**
 * Issue 42: no import circle among the library's modules, no folder of src/ that imports a folder
 * that imports it back, and no folder that imports one it may not (docs/internals.md, "Rooms"). The check is `npm run check:imports` (dependency-cruiser with the rules of
 * .dependency-cruiser.mjs), run here as the script says, with its report as JSON.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runChild, type Ran } from "./support/child.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEPCRUISE = join(ROOT, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

/** The arguments of `npm run check:imports` after `depcruise`, with `src` replaced by `path`. */
function checkArgs(path: string): string[] {
  const script: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts["check:imports"];
  const [command, ...args] = script.split(/\s+/);
  expect(command).toBe("depcruise");
  expect(args).toContain("src");
  return args.map((a) => (a === "src" ? path : a));
}

interface Report {
  /** The exit status of the check as the script runs it (its report in words: non-zero on a violation). */
  readonly status: number | null;
  readonly modules: readonly string[];
  readonly folders: readonly string[];
  /** Each violation as `rule: from → … → back to from`. */
  readonly violations: readonly string[];
}

interface CruiseResult {
  readonly modules: readonly { readonly source: string }[];
  readonly folders?: readonly { readonly name: string }[];
  readonly summary: { readonly violations: readonly { readonly rule: { readonly name: string }; readonly from: string; readonly cycle?: readonly { readonly name: string }[] }[] };
}

/** Runs dependency-cruiser in `cwd` (without blocking the worker: test/support/child.ts). */
async function depcruise(args: readonly string[], cwd = ROOT): Promise<Ran> {
  const run = await runChild(process.execPath, [DEPCRUISE, ...args], { cwd });
  expect(run.stdout, run.stderr).not.toBe("");
  return run;
}

/** The check of `path` run in `cwd` (with the library's rules, wherever it runs). */
async function check(path: string, cwd = ROOT): Promise<Report> {
  const args = checkArgs(path).map((a) => (a === ".dependency-cruiser.mjs" ? join(ROOT, a) : a));
  // The JSON report says what the check read; its exit status is always 0.
  const [json, words] = await Promise.all([depcruise([...args, "--output-type", "json"], cwd), depcruise(args, cwd)]);
  const result = JSON.parse(json.stdout) as CruiseResult;
  return {
    status: words.status,
    modules: result.modules.map((m) => m.source),
    folders: (result.folders ?? []).map((f) => f.name),
    violations: result.summary.violations.map((v) => `${v.rule.name}: ${[v.from, ...(v.cycle ?? []).map((c) => c.name)].join(" → ")}`),
  };
}

describe("imports (npm run check:imports)", () => {
  it("src/ has no import circle, no folder loop and no upward import", async () => {
    const report = await check("src");
    // The check read the whole library, its folders included (a check that read nothing would pass).
    expect(report.modules).toEqual(expect.arrayContaining(["src/index.ts", "src/syntax/parse.ts", "src/evaluate/compile.ts", "src/semantics/table.ts"]));
    expect(report.modules.filter((m) => m.startsWith("src/")).length).toBeGreaterThan(100);
    expect(report.folders).toEqual(expect.arrayContaining(["src/syntax", "src/semantics", "src/evaluate", "src/sql", "src/targets", "src/lint"]));
    expect(report.violations).toEqual([]);
    expect(report.status).toBe(0);
  });

  it("finds a circle of modules and a loop of folders (test/fixtures/import-loops)", async () => {
    const dir = "test/fixtures/import-loops";
    const report = await check(dir);
    expect([...report.violations].sort()).toEqual([
      `no-circular: ${dir}/circle-a.ts → ${dir}/circle-b.ts → ${dir}/circle-a.ts`,
      `no-folder-loop: ${dir}/left → ${dir}/right → ${dir}/left`,
      `no-folder-loop: ${dir}/right → ${dir}/left → ${dir}/right`,
    ]);
    expect(report.status).not.toBe(0);
  });

  it("finds an upward import that closes no loop, and the package face imported inside src/ (test/fixtures/import-upward)", async () => {
    // The rules are written for src/: the fixture is a small src/ of its own, checked from its folder.
    const report = await check("src", join(ROOT, "test/fixtures/import-upward"));
    expect([...report.violations].sort()).toEqual(["lint-may-import: src/lint/face.ts", "semantics-may-import: src/semantics/meaning.ts"]);
    expect(report.status).not.toBe(0);
  });
});
