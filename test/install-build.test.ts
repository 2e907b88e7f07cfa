/**
 * The build `npm ci` runs in a checkout (`prepare`): what `npm start` needs, quietly, without the type
 * declarations that nothing at run time reads. It runs here as npm runs it (the same script, npm's
 * variables), in a copy of the sources, so that this checkout's `dist/` is left alone. The script builds
 * only a build older than its sources (scripts/build-if-stale.mjs): `npm pack` during the tests never
 * empties a `dist/` other test files read. (`npm pack` builds everything in `prepack` when `dist/` is
 * stale; test/package.test.ts type-checks the tarball's declarations.)
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runChild } from "./support/child.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function checkoutCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "filter-expr-prepare-"));
  for (const f of ["package.json", "tsconfig.json", "tsup.config.ts", "src", "scripts/build-if-stale.mjs"]) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** The `prepare` script of package.json, run with npm's variables for `command`. */
async function prepare(dir: string, command: string): Promise<string> {
  const script = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts["prepare"]!;
  const [bin, ...args] = script.split(" ");
  const command0 = bin === "node" ? process.execPath : join(dir, "node_modules", ".bin", bin!);
  const r = await runChild(command0, args, { cwd: dir, env: { ...process.env, npm_lifecycle_event: "prepare", npm_command: command } });
  if (r.status !== 0) throw new Error(`prepare exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Node's output for `args`, which must exit 0. */
async function nodeOut(args: readonly string[]): Promise<string> {
  const r = await runChild(process.execPath, args);
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

describe("the build of npm ci (prepare)", () => {
  it("writes the JavaScript npm start and the CLI run, no declarations, and prints nothing", async () => {
    const dir = checkoutCopy();
    const out = await prepare(dir, "ci");
    expect(out).toBe("");
    for (const f of ["dist/index.js", "dist/index.cjs", "dist/cli/filter-check.js"]) expect(existsSync(join(dir, f)), f).toBe(true);
    expect(existsSync(join(dir, "dist/index.d.ts"))).toBe(false);
    // What it wrote runs.
    const answer = await nodeOut(["--input-type=module", "-e", `import { compile } from "${join(dir, "dist/index.js")}"; console.log(compile('Status == "running"').evaluate({ Status: "running" }))`]);
    expect(answer.trim()).toBe("true");
    // The binary shares the library's chunks: it imports node's modules and the build's own files,
    // never a package (an unbundled chevrotain loads lodash-es file by file: 300 ms at every start).
    const bin = readFileSync(join(dir, "dist/cli/filter-check.js"), "utf8");
    const imported = [...bin.matchAll(/^import\b[^"']*["']([^"']+)["']/gm)].map((m) => m[1]!);
    expect(imported.length).toBeGreaterThan(0);
    expect(imported.filter((p) => !p.startsWith("node:") && !/^(fs|fs\/promises|path|util|url|os|readline|process|stream)$/.test(p) && !p.startsWith("../"))).toEqual([]);
    expect(await nodeOut([join(dir, "dist/cli/filter-check.js"), "--version"])).toMatch(/^filter-check/);
  });
});
