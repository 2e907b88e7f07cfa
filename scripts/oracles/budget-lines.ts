/**
 * Records what 0.1.15 and 0.1.16 say when their parse budget runs out after an error of their
 * grammar (test/fixtures/targets/budget-lines.jsonl). The reference's parser records a failed
 * predicate ("Unmatched parentheses", "Invalid number literal", …) or a failed strconv.Unquote and
 * goes on parsing; when it then runs out of its budget, its message holds the error's line and then
 * "max number of expressions parsed" with the position and rule where the budget ran out.
 *
 * The drafts: broken expressions (every predicate of the grammar, a bad escape, an operator without
 * operand, stray characters) inside 0–8 pairs of parentheses (sometimes one left open), each with the
 * reference's default budget and with a budget drawn between 1 and the replay's whole count
 * (src/syntax/budget.ts), so that the budget runs out before the error, after it, or not at all.
 * Only the drafts both releases reject are kept, with each release's message; the test
 * (test/syntax/budget-lines.test.ts) reads only this file.
 *
 *   npx tsx scripts/oracles/budget-lines.ts [--seed 20260307] [--count 600] [--bin DIR] [--jobs 2]
 */
import fc from "fast-check";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { budgetSteps, REFERENCE_PARSE_BUDGET } from "../../src/syntax/budget.js";
import { budgetRules } from "../../src/syntax/target-grammar.js";
import { askOracles, defaultBin } from "./oracle.js";

const { values: args } = parseArgs({
  options: {
    seed: { type: "string", default: "20260307" },
    count: { type: "string", default: "600" },
    bin: { type: "string", default: defaultBin() },
    jobs: { type: "string", default: "2" },
  },
});

const RELEASES = ["0.1.15", "0.1.16"] as const;
/** Broken expressions: each predicate of the grammar, a bad escape, what a match lacks, stray characters. */
const CORES = [
  'x["a" == 1', "x[1] == 2", "x[ == 2", "x != 1e3", "x == 01", "x == 1.", "x == -", '"a" in 1', "1 in", 'x == "\\q"', 'x == "a\\x4"',
  "x ==", "x == == 1", "== 1", "x is", "x is not", "not", "x == 1 and", "x == 1 or", "x = 1", "x == 1 &&", "any x as { x == 1 }",
  'x == "open', "x == `open", "x.", "x..y == 1", "(x == 1", "x == 1)", "x $ 1", "x == 1 y == 2",
];
const MATCHES = ["a == 1", "b != 2", '"v" in c', "d is empty", "e.f == g"];

const draftArb = fc
  .record({
    depth: fc.integer({ min: 0, max: 8 }),
    core: fc.constantFrom(...CORES),
    before: fc.option(fc.constantFrom(...MATCHES), { nil: undefined }),
    after: fc.option(fc.constantFrom(...MATCHES), { nil: undefined }),
    joiner: fc.constantFrom(" and ", " or "),
    open: fc.boolean(),
    inner: fc.integer({ min: 0, max: 3 }),
    budget: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map((d) => {
    let body = d.core;
    if (d.before !== undefined) body = `${d.before}${d.joiner}${body}`;
    if (d.after !== undefined) body = `${body}${d.joiner}${d.after}`;
    const inner = Math.min(d.inner, d.depth);
    // `inner` of the pairs go around the broken part only, the others around the whole.
    body = `${"(".repeat(inner)}${body}${")".repeat(inner)}`;
    const outer = d.depth - inner;
    const expr = `${"(".repeat(outer)}${body}${")".repeat(Math.max(0, outer - (d.open ? 1 : 0)))}`;
    return { expr, budget: d.budget };
  });

interface Case {
  readonly id: string;
  readonly expr: string;
  /** The budget the case sets (0: the release's default, 2,000,000). */
  readonly maxExpressions: number;
}

const drafts = fc.sample(draftArb, { seed: Number(args.seed), numRuns: Number(args.count) });
const seen = new Set<string>();
const cases: Case[] = [];
for (const d of drafts) {
  const r = budgetSteps(d.expr, Infinity, budgetRules({ name: "go-bexpr@0.1.16", bexpr: "0.1.16" }));
  if (r.exceeded) continue;
  // Deep drafts are kept with the default budget only (their whole count is past it).
  for (const max of [0, Math.max(1, Math.floor(d.budget * Math.min(r.steps, REFERENCE_PARSE_BUDGET)))]) {
    const key = `${max} ${d.expr}`;
    if (seen.has(key)) continue;
    seen.add(key);
    cases.push({ id: `b-${cases.length}`, expr: d.expr, maxExpressions: max });
  }
}

const lines = cases.map((c) => JSON.stringify({ id: c.id, kind: "json", expr: c.expr, datum: {}, ...(c.maxExpressions ? { maxExpressions: c.maxExpressions } : {}) }));
const answers = await askOracles(lines, { bin: args.bin!, jobs: Number(args.jobs), timeoutSeconds: 60, repeat: 1, progress: (s) => process.stderr.write(`\r${s}   `) }, RELEASES);
process.stderr.write("\n");

const out: string[] = [];
const counts = { kept: 0, twoLines: 0, budgetOnly: 0 };
cases.forEach((c, i) => {
  const goError: Record<string, string> = {};
  for (const v of RELEASES) {
    const a = answers[v][i]!;
    if (a.expect !== "parse-error") return;
    goError[v] = a.goError!;
  }
  counts.kept++;
  const m = goError["0.1.16"]!;
  if (/max number of expres+ions parsed$/.test(m)) {
    if (m.includes("\n")) counts.twoLines++;
    else counts.budgetOnly++;
  }
  out.push(JSON.stringify({ id: c.id, expr: c.expr, maxExpressions: c.maxExpressions, goError }));
});
const file = fileURLToPath(new URL("../../test/fixtures/targets/budget-lines.jsonl", import.meta.url));
mkdirSync(fileURLToPath(new URL("../../test/fixtures/targets/", import.meta.url)), { recursive: true });
writeFileSync(file, out.join("\n") + "\n");
console.log(`${cases.length} drafts, ${counts.kept} rejected by both releases (kept); 0.1.16: ${counts.twoLines} with an error and then the budget, ${counts.budgetOnly} with the budget alone`);
