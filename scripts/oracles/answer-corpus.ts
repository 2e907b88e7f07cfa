/**
 * Re-answers the existing corpora (test/fixtures/{bexpr,edge,regex-unicode,fidelity}-cases.jsonl) with
 * every release and writes test/fixtures/targets/corpus-answers.jsonl: one line per case,
 * {"file", "id", "expect": {"0.1.11": …, …, "0.1.16": …}}. A release's answer is left out where it
 * timed out, crashed or was unstable (none did when the file was written; see README.md).
 *
 * Checks that 0.1.16's answers are each case's recorded `expect` and prints every disagreement, then
 * how each release's answers differ from 0.1.16's.
 *
 *   npx tsx scripts/oracles/answer-corpus.ts [--bin DIR] [--jobs 2] [--timeout 60] [--repeat 256]
 */
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { askOracles, oracleCommandLine, VERSIONS, type Answer, type Version } from "./oracle.js";
import { BUDGETED, replayDisagreement } from "./replay-check.js";
import { summarise } from "./summary.js";

const FILES = ["bexpr-cases.jsonl", "edge-cases.jsonl", "regex-unicode-cases.jsonl", "fidelity-cases.jsonl"];
const fixtures = fileURLToPath(new URL("../../test/fixtures/", import.meta.url));
const KEPT = new Set(["true", "false", "parse-error", "eval-error"]);

const args = oracleCommandLine({ timeout: "60" });

interface Row {
  readonly file: string;
  readonly id: string | number;
  readonly recorded: string;
  readonly line: string;
}

const rows: Row[] = [];
for (const file of FILES) {
  for (const line of readFileSync(fixtures + file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const c = JSON.parse(line) as { id: string | number; expect: string };
    rows.push({ file, id: c.id, recorded: c.expect, line });
  }
}

const started = Date.now();
const answers = await askOracles(
  rows.map((r) => r.line),
  args.oracle,
);
process.stderr.write("\n");

const out: string[] = [];
const omitted: string[] = [];
const disagreements: string[] = [];
for (const [i, r] of rows.entries()) {
  const expect: Partial<Record<Version, string>> = {};
  for (const v of VERSIONS) {
    const a: Answer = answers[v][i]!;
    if (KEPT.has(a.expect)) expect[v] = a.expect;
    else omitted.push(`${r.file} ${r.id} ${v}: ${a.expect} ${a.goError ?? ""}`);
  }
  const a16 = answers["0.1.16"][i]!;
  if (a16.expect !== r.recorded) disagreements.push(`${r.file} ${JSON.stringify(r.id)}: recorded ${r.recorded}, 0.1.16 answers ${a16.expect}${a16.goError ? ` (${a16.goError.slice(0, 160)})` : ""}`);
  out.push(JSON.stringify({ file: r.file, id: r.id, expect }));
}

mkdirSync(fixtures + "targets", { recursive: true });
writeFileSync(fixtures + "targets/corpus-answers.jsonl", out.join("\n") + "\n");

console.log(`${rows.length} cases, ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`0.1.16 against the recorded answers: ${disagreements.length} disagreements`);
for (const d of disagreements) console.log("  " + d);
console.log(`answers left out: ${omitted.length}`);
for (const o of omitted) console.log("  " + o);
for (const file of FILES) {
  const idx = rows.flatMap((r, i) => (r.file === file ? [i] : []));
  console.log(`\n${file} (${idx.length} cases)`);
  console.log(summarise(idx.map((i) => Object.fromEntries(VERSIONS.map((v) => [v, answers[v][i]!.expect])) as Record<Version, string>)));
}
const replay: string[] = [];
for (const [i, r] of rows.entries()) {
  const expr = (JSON.parse(r.line) as { expr: string }).expr;
  for (const v of BUDGETED) {
    const d = replayDisagreement(expr, v, answers[v][i]!.goError);
    if (d !== undefined) replay.push(`${r.file} ${JSON.stringify(r.id)}: ${d}`);
  }
}
console.log(`\nbudget replay vs oracles (0.1.15, 0.1.16): ${replay.length} disagreements`);
for (const d of replay) console.log("  " + d);
const panics = VERSIONS.map((v) => `${v} ${answers[v].filter((a) => a.goError?.startsWith("panic: ")).length}`);
console.log(`\neval-errors that are recovered panics: ${panics.join(", ")}`);
console.log("\nall corpora");
console.log(summarise(rows.map((_, i) => Object.fromEntries(VERSIONS.map((v) => [v, answers[v][i]!.expect])) as Record<Version, string>)));
