/**
 * Whole-process figures of the built package (medians of fresh processes, in one run):
 *  1. importing the package against requiring its CommonJS entry, each timed inside its own fresh
 *     `node` (the import alone, not node's start-up);
 *  2. `filter-check --version` against a bare `node -e 0`, wall time;
 *  3. `filter-check --schema job --data` over 200,000 generated jobs (a JSON array, 19-digit
 *     `SubmitTime`s that the exact-integer reader keeps) against `jq -c '.[] | select(...)'` on the
 *     same file, wall time and peak resident memory (GNU time), when jq and /usr/bin/time are
 *     installed. Both must exit 0 and print the same jobs (their IDs, in order), or the bench fails.
 *
 *   npx tsx bench/start.ts [--runs 9]      (after npm run build; also the end of npm run bench)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateJobs } from "./jobs.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const runsAt = process.argv.indexOf("--runs");
const RUNS = runsAt > 0 ? Number(process.argv[runsAt + 1]) : 9;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (x: number): string => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

/** Milliseconds `code` (which prints its own figure) reports, in a fresh process each run. */
function inProcess(args: string[]): number {
  return median(Array.from({ length: RUNS }, () => Number(execFileSync(process.execPath, args, { cwd: ROOT, encoding: "utf8" }).trim())));
}

/** Wall milliseconds of a whole command, a fresh process each run. */
function wall(command: string, args: string[]): number {
  return median(
    Array.from({ length: RUNS }, () => {
      const t = performance.now();
      const r = spawnSync(command, args, { cwd: ROOT, stdio: "ignore" });
      if (r.status !== 0) throw new Error(`${command} ${args.join(" ")}: exit ${r.status}`);
      return performance.now() - t;
    }),
  );
}

/**
 * Wall seconds and peak resident MiB of one run of a command (GNU time), and the IDs of the JSON
 * objects it printed, one a line. A command that fails fails the bench: a baseline that did not do
 * the work measures nothing.
 */
function timed(command: string, args: string[]): { seconds: number; mib: number; ids: string[] } {
  const r = spawnSync("/usr/bin/time", ["-f", "%e %M", command, ...args], { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")}: exit ${r.status}: ${r.stderr.trim().split("\n").slice(-3).join(" / ")}`);
  const [seconds, kb] = r.stderr.trim().split("\n").at(-1)!.split(" ").map(Number) as [number, number];
  const ids = r.stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => String((JSON.parse(line) as { ID: unknown }).ID));
  return { seconds, mib: kb / 1024, ids };
}

const lines: string[] = [];
const esm = inProcess(["--input-type=module", "-e", "const t = performance.now(); await import('./dist/index.js'); console.log(performance.now() - t)"]);
const cjs = inProcess(["-e", "const t = performance.now(); require('./dist/index.cjs'); console.log(performance.now() - t)"]);
lines.push(`import of the package ${ms(esm)}, require of its CommonJS entry (the same build, through require of an ES module) ${ms(cjs)} (median of ${RUNS} fresh processes): ${(esm / cjs).toFixed(2)}×`);

const bare = wall(process.execPath, ["-e", "0"]);
const version = wall(process.execPath, ["dist/cli/filter-check.js", "--version"]);
lines.push(`filter-check --version ${ms(version)}, bare node ${ms(bare)}: ${ms(version - bare)} over bare node`);

const hasJq = spawnSync("jq", ["--version"]).status === 0 && existsSync("/usr/bin/time");
if (hasJq) {
  const dir = mkdtempSync(join(tmpdir(), "filter-bench-"));
  try {
    const file = join(dir, "jobs.json");
    writeFileSync(file, `[${generateJobs(200_000).map((j) => JSON.stringify(j)).join(",\n")}]\n`);
    const ours = Array.from({ length: 3 }, () => timed(process.execPath, ["dist/cli/filter-check.js", "--schema", "job", "--data", file, 'Status == "running"']));
    const jq = Array.from({ length: 3 }, () => timed("jq", ["-c", '.[] | select(.Status == "running")', file]));
    for (const run of [...ours, ...jq]) {
      if (run.ids.length === 0 || JSON.stringify(run.ids) !== JSON.stringify(ours[0]!.ids)) throw new Error(`filter-check and jq printed different jobs (${ours[0]!.ids.length} and ${run.ids.length})`);
    }
    const s = median(ours.map((x) => x.seconds));
    const j = median(jq.map((x) => x.seconds));
    const m = median(ours.map((x) => x.mib));
    const jm = median(jq.map((x) => x.mib));
    lines.push(`filter-check --data over 200,000 jobs (${ours[0]!.ids.length.toLocaleString("en")} printed, the same as jq's): ${s.toFixed(2)} s, ${m.toFixed(0)} MiB; jq: ${j.toFixed(2)} s, ${jm.toFixed(0)} MiB (time ${(s / j).toFixed(2)}×, memory ${(m / jm).toFixed(2)}×; median of 3)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else lines.push("filter-check --data against jq: skipped (jq or /usr/bin/time is not installed)");

console.log(`\n${lines.join("\n")}`);
