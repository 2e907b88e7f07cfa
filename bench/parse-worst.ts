/**
 * The worst texts to parse and reject (issue 39): `compile` of each adversarial shape
 * (bench/parse-worst-shapes.ts) at 1 MiB + 4,096 characters (what a request's head can hold, as Go's
 * http server allows) and at 64 KiB, with `maxLength: Infinity`; the median of several runs (wall
 * time), before and after. "Before" is the library as committed at a git revision (default HEAD),
 * extracted with `git archive` into node_modules/.cache/parse-worst/<rev>/ and imported from there;
 * "after" is the working tree. Each row also says whether both gave the same answer (code, offset and
 * message). Prints the machine's load (`uptime`) before and after, then the table.
 *
 *   npx tsx bench/parse-worst.ts [--before REV] [--runs 7] [--no-before] [--size N]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import * as after from "../src/index.js";
import { SHAPES } from "./parse-worst-shapes.js";

const { values: args } = parseArgs({
  options: {
    before: { type: "string", default: "HEAD" },
    "no-before": { type: "boolean", default: false },
    runs: { type: "string", default: "7" },
    size: { type: "string", multiple: true },
  },
});
const RUNS = Number(args.runs);
const SIZES = args.size?.map(Number) ?? [1_048_576 + 4_096, 65_536];
type Library = Pick<typeof after, "compile">;

/** The library as committed at `rev`: its src/ extracted next to the project's node_modules (for chevrotain and re2js). */
async function libraryAt(rev: string): Promise<Library> {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const sha = execFileSync("git", ["rev-parse", "--short", rev], { cwd: root, encoding: "utf8" }).trim();
  const dir = `${root}node_modules/.cache/parse-worst/${sha}`;
  if (!existsSync(`${dir}/src/index.ts`)) {
    mkdirSync(dir, { recursive: true });
    execFileSync("sh", ["-c", `git archive ${sha} src | tar -x -C '${dir}'`], { cwd: root });
    // ES modules, as in the project (a folder under node_modules has no package.json of its own).
    writeFileSync(`${dir}/package.json`, '{ "type": "module" }\n');
  }
  return (await import(pathToFileURL(`${dir}/src/index.ts`).href)) as Library;
}

/** The answer of `compile` (code, offset, message) and its median time over `runs` runs (ms). */
function measure(lib: Library, text: string, runs: number): { answer: string; ms: number } {
  let answer = "";
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    try {
      lib.compile(text, { maxLength: Infinity });
      answer = "accepted";
    } catch (e) {
      const err = e as { code?: string; offset?: number; message?: string };
      answer = `${err.code}@${err.offset} ${err.message}`;
    }
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { answer, ms: times[Math.floor(times.length / 2)]! };
}

const load = () => loadavg().map((l) => l.toFixed(2)).join(", ");
/**
 * How fast the machine is just now (it is shared): the median time of a plain loop over the char
 * codes of 1 MiB, a pass that an idle machine makes in about a millisecond.
 */
function calibrate(): string {
  const text = "a == 1 or ".repeat(104_858);
  const times: number[] = [];
  for (let k = 0; k < 9; k++) {
    const t = performance.now();
    let sum = 0;
    for (let i = 0; i < text.length; i++) sum += text.charCodeAt(i) & 7;
    times.push(performance.now() - t + (sum < 0 ? 1 : 0));
  }
  return `${times.sort((a, b) => a - b)[4]!.toFixed(2)} ms`;
}
const before = args["no-before"] ? undefined : await libraryAt(args.before!);
console.log(`Node ${process.version}; load average before: ${load()}; a loop over 1 MiB: ${calibrate()}; median of ${RUNS} runs (before: of ${Math.max(3, Math.ceil(RUNS / 2))})`);

const rows: string[][] = [];
for (const size of SIZES) {
  for (const [name, make] of Object.entries(SHAPES)) {
    const text = make(size);
    // A first run of each, not timed: every shape meets warm code, as a server's would.
    const now = (measure(after, text, 1), measure(after, text, RUNS));
    const old = before === undefined ? undefined : (measure(before, text, 1), measure(before, text, Math.max(3, Math.ceil(RUNS / 2))));
    const code = now.answer.split(" ")[0]!;
    // The answers agree, or the new one is the reference's two lines (an error, then the budget):
    // the old error with the budget's line after it, or the old budget error after the error first met.
    const lines = now.answer.split("\n");
    const agree =
      old === undefined
        ? ""
        : old.answer === now.answer
          ? "same"
          : lines.length === 2 && lines[1]!.startsWith("max number of expressions parsed") && (old.answer === lines[0] || old.answer.endsWith(lines[1]!))
            ? "+ the error before the budget's line"
            : "DIFFERS";
    rows.push([
      size.toLocaleString("en-US"),
      name,
      code,
      old === undefined ? "" : old.ms.toFixed(1),
      now.ms.toFixed(1),
      old === undefined ? "" : `${(old.ms / now.ms).toFixed(0)}×`,
      agree,
    ]);
    process.stderr.write(".");
  }
}
process.stderr.write("\n");

const head = ["characters", "shape", "answer (code@offset)", "before (ms)", "after (ms)", "speed-up", "answer before/after"];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(" | ")} |`;
console.log(line(head));
console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
for (const r of rows) console.log(line(r));
const worst = Math.max(...rows.map((r) => Number(r[4])));
console.log(`worst after: ${worst.toFixed(1)} ms; load average after: ${load()}; a loop over 1 MiB: ${calibrate()}`);
