/**
 * The parser's shape (issue 11): what the hand-written loop of src/syntax/parser.ts (and/or/not/
 * parentheses/collection bodies parsed with an explicit stack) buys over a Chevrotain parser with one
 * rule per precedence level (bench/parser-shape/level-parser.ts), measured, not argued:
 *  1. call-stack depth: the deepest nesting of collections, parentheses and `not` runs each parser
 *     accepts on Node's DEFAULT stack, with and without 2,000 plain frames already on the stack (a
 *     request handler's callers), in three JIT states of the rule-per-level parser:
 *       cold    a fresh process whose first parse is the deep one (a CLI run, a server's first request)
 *       corpus  a fresh process warmed for 300 ms on ordinary expressions first (a server in service)
 *       hot     this process, after the repeated deep parses of a bisection (the best case)
 *     and how often the reference's deepest accepted input (1,501 nested collections) parses in
 *     fresh processes. The project's `parse` is given `{ maxExpressions: Infinity, maxLength:
 *     Infinity }` so that only the parser can stop it; its limit is searched up to a cap.
 *     Both parsers must first build the same AST for every input used (checked).
 *  2. speed: µs per expression for Q1–Q6 and for a seeded corpus of 200 logical expressions, both
 *     end to end (`parse(text)`: lexing included) and for the parser alone on pre-lexed tokens (benny,
 *     one run, so the ratios compare like with like).
 * Nothing is saved; a summary table is printed at the end.
 *
 * A note on keepNames: tsx compiles with esbuild's keepNames, which wraps every function literal that
 * gets a name (an object property such as `{ GATE: () => …, DEF: () => … }`, a `const f = () => …`) in
 * a `__name(…)` call that defines its `name` property each time the literal is evaluated. A Chevrotain
 * parser that builds its MANY/OPTION/OR definitions inside the rule body therefore runs about twice
 * as slowly under tsx (and under bench/run.ts) as in the published build (tsup: no keepNames). The
 * rule-per-level parser here builds them once, like the project's parser, so neither pays for it.
 *
 *   npx tsx bench/parser-shape.ts            (about a minute and a half)
 *   npx tsx bench/parser-shape.ts --quick    (in-process depths and short samples only: no fresh processes)
 *
 * Run it with the default stack: no --stack-size.
 */
import b from "benny";
import { deepStrictEqual } from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile, parse, type Ast } from "../src/index.js";
import { lexer } from "../src/syntax/tokens.js";
import { parseLevels, parseLevelsTokens } from "./parser-shape/level-parser.js";
import { CONSTRUCTS, logicalCorpus, maxFrames, withFrames, type Construct } from "./parser-shape/inputs.js";
import { attempt, deepest } from "./parser-shape/shapes.js";
import { QUERIES } from "./queries.js";

const quick = process.argv.includes("--quick");
const started = performance.now();
const PRE = 2_000;
/** Largest nesting tried for the project's parser (it keeps its stack on the heap): above every reference limit. */
const CAP = 60_000;
/** What the reference (go-bexpr v0.1.16, default budget) accepts: docs/language.md, "Limits of the reference". */
const REFERENCE: Readonly<Record<Construct, string>> = { collections: "1,501", parens: "6", nots: "49,987" };
const fmt = (n: number) => n.toLocaleString("en-US");
const log = (s: string) => console.log(s);

if (process.execArgv.some((a) => a.startsWith("--stack-size")) || (process.env.NODE_OPTIONS ?? "").includes("stack-size")) {
  throw new Error("run with the default stack size (no --stack-size)");
}

// ---------------------------------------------------------------------------------------------------
// 0. Both parsers build the same AST (kinds, operators, literals, selectors, spans) on every input used.

const corpus = logicalCorpus(200);
const inputs = [...QUERIES.map((q) => q.expression), ...corpus, CONSTRUCTS.collections(50), CONSTRUCTS.parens(50), CONSTRUCTS.nots(50)];
for (const text of inputs) deepStrictEqual(parseLevels(text), parse(text, { maxExpressions: Infinity }), `the parsers disagree on ${JSON.stringify(text)}`);
const depthOf = (e: Ast): number =>
  e.kind === "match" ? 0 : e.kind === "not" ? depthOf(e.operand) : e.kind === "collection" ? 1 + depthOf(e.body) : Math.max(...e.operands.map(depthOf));
const parenDepth = (s: string) => [...s].reduce((m, c) => ((m.d += c === "(" ? 1 : c === ")" ? -1 : 0), (m.max = Math.max(m.max, m.d)), m), { d: 0, max: 0 }).max;
const matches = (s: string) => (s.match(/ [=!]= /g) ?? []).length;
const avg = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
log(`Node ${process.version}, default stack; chevrotain 11; both parsers build the same AST for all ${inputs.length} inputs`);
log(
  `logical corpus: ${corpus.length} expressions (seeded), ${avg(corpus.map((s) => s.length)).toFixed(0)} characters and ${avg(corpus.map(matches)).toFixed(1)} matches on average; ` +
    `up to ${Math.max(...corpus.map(parenDepth))} nested parentheses and ${Math.max(...corpus.map((s) => depthOf(parseLevels(s))))} nested collections`,
);

// ---------------------------------------------------------------------------------------------------
// 1. Depth.

const framesCold = maxFrames();
for (let i = 0; i < 5; i++) maxFrames();
const framesWarm = maxFrames();
const share = (f: number) => `${((100 * PRE) / f).toFixed(0)} %`;
log(`the default stack holds ${fmt(framesCold)} to ${fmt(framesWarm)} frames of the plain function that pre-uses it (first measurement; after warm-up): ${fmt(PRE)} of them take ${share(framesCold)} to ${share(framesWarm)} of it`);

/** Bisects the boundary between `lo` (parses) and `hi` (does not) to within `tol`. */
function bisect(ok: (n: number) => boolean, lo: number, hi: number, tol: (lo: number) => number): { lo: number; hi: number } {
  while (ok(hi)) [lo, hi] = [hi, hi * 2];
  while (hi - lo > tol(lo)) {
    const mid = (lo + hi) >>> 1;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return { lo, hi };
}

type Depths = Record<string, string>;
const depths: Record<Construct, Record<number, Depths>> = { collections: { 0: {}, [PRE]: {} }, parens: { 0: {}, [PRE]: {} }, nots: { 0: {}, [PRE]: {} } };
const constructs: Construct[] = ["collections", "parens", "nots"];
const levelsCap = (c: Construct) => (c === "nots" ? CAP : 10_000);
const capped = (n: number, cap: number) => (n >= cap ? `≥ ${fmt(cap)}` : fmt(n));
/** The hot limits of the rule-per-level parser, to bracket the fresh-process bisections. */
const hotLimit: Partial<Record<string, number>> = {};

// The project's parse (in process): searched up to the cap.
for (const c of constructs) {
  for (const pre of [0, PRE]) depths[c][pre]!.project = capped(deepest("project", c, pre, CAP), CAP);
}
// The rule-per-level parser, hot: the same bisection three times in a row; the last is the warmest.
for (const c of constructs) {
  for (const pre of [0, PRE]) {
    const runs = [0, 1, 2].map(() => deepest("levels", c, pre, levelsCap(c)));
    hotLimit[`${c}/${pre}`] = Math.max(...runs);
    depths[c][pre]!.hot = runs.every((r) => r === runs[2]) ? capped(runs[2]!, levelsCap(c)) : `${runs.map((r) => capped(r, levelsCap(c))).join(" → ")}`;
  }
}

// The rule-per-level parser, cold and corpus-warmed: one fresh process per probe. The probe is bundled
// once with esbuild (a dependency of tsup and tsx), so that a fresh process starts in a fraction of
// tsx's time; without esbuild it runs under tsx.
const probeSource = fileURLToPath(new URL("./parser-shape/cold-probe.ts", import.meta.url));
let probeCommand: string[] = ["--import", "tsx", probeSource];
let probeDir: string | undefined;
if (!quick) {
  try {
    const esbuild = (await import("esbuild")) as unknown as { buildSync(o: Record<string, unknown>): unknown };
    probeDir = mkdtempSync(join(tmpdir(), "parser-shape-"));
    const outfile = join(probeDir, "cold-probe.mjs");
    esbuild.buildSync({ entryPoints: [probeSource], bundle: true, platform: "node", format: "esm", target: "node20", outfile, logLevel: "error" });
    probeCommand = [outfile];
  } catch (e) {
    log(`(esbuild unavailable, probes run under tsx: ${(e as Error).message})`);
  }
}
let probes = 0;
function probe(construct: Construct, n: number, pre: number, state: "cold" | "corpus", parser: "levels" | "project" = "levels"): boolean {
  probes++;
  const r = spawnSync(process.execPath, [...probeCommand, parser, construct, String(n), String(pre), state], { encoding: "utf8" });
  if (r.stdout === "ok") return true;
  if (r.stdout === "overflow") return false;
  throw new Error(`probe ${construct} ${n} ${pre} ${state} failed: ${r.stderr || r.stdout}`);
}
const COLD: [Construct, number, "cold" | "corpus"][] = [
  ["collections", 0, "cold"],
  ["collections", PRE, "cold"],
  ["collections", 0, "corpus"],
  ["collections", PRE, "corpus"],
  ["parens", 0, "cold"],
  ["parens", PRE, "cold"],
  ["parens", 0, "corpus"],
  ["parens", PRE, "corpus"],
];
/** How often 1,501 nested collections (the reference's deepest) parse in a fresh process, per state. */
const REPEATS = 10;
const atReference: Record<string, string> = {};
if (!quick) {
  for (const [c, pre, state] of COLD) {
    // One bisection to within 2 %: a rough limit, since in a fresh process it moves from run to run
    // (when the optimising compiler, running in the background, finishes is a matter of timing).
    const { lo, hi } = bisect((n) => probe(c, n, pre, state), 0, hotLimit[`${c}/${pre}`]! + 1, (x) => Math.max(4, Math.floor(x / 50)));
    depths[c][pre]![state] = hi - lo > 1 ? `≈ ${fmt(lo)}` : fmt(lo);
    if (c === "collections") {
      let ok = 0;
      for (let i = 0; i < REPEATS; i++) if (probe(c, 1_501, pre, state)) ok++;
      atReference[`${pre}/${state}`] = `${ok}/${REPEATS}`;
    }
  }
  // A `not` run is a MANY loop: no recursion, checked once in each state with the stack pre-used.
  depths.nots[PRE]!.cold = probe("nots", CAP, PRE, "cold") ? `≥ ${fmt(CAP)}` : `< ${fmt(CAP)}`;
  depths.nots[PRE]!.corpus = probe("nots", CAP, PRE, "corpus") ? `≥ ${fmt(CAP)}` : `< ${fmt(CAP)}`;
  // The project's parse, cold, with the stack pre-used: its loop keeps the nesting on the heap.
  for (const c of constructs) {
    if (!probe(c, CAP, PRE, "cold", "project")) depths[c][PRE]!.project = `< ${fmt(CAP)} cold`;
  }
  if (probeDir) rmSync(probeDir, { recursive: true, force: true });
}

// For context: the stages after the parser (check, compile, evaluate) keep up with the project's parser.
const after = 5_000;
withFrames(PRE, () => compile(CONSTRUCTS.collections(after), { maxExpressions: Infinity }).evaluate({ x: [1] }));
log(`compile() + evaluate() of ${fmt(after)} nested collections (budget off) under ${fmt(PRE)} pre-used frames: ok`);
const refOk = attempt("project", CONSTRUCTS.collections(1_501)) === "ok" && parse(CONSTRUCTS.collections(1_501)) !== undefined;
log(`the project's parse with default options accepts the reference's 1,501 nested collections: ${refOk ? "yes" : "NO"}`);
log(`depth probes: ${probes} fresh processes; ${((performance.now() - started) / 1000).toFixed(0)} s so far`);

// ---------------------------------------------------------------------------------------------------
// 2. Speed (benny, one run).

type Summary = { results: { name: string; ops: number }[] };
const ops = (s: Summary, name: string): number => s.results.find((r) => r.name === name)!.ops;
const options = { minSamples: quick ? 5 : 10, maxTime: quick ? 0.2 : 0.5 };
const corpusOptions = { minSamples: quick ? 5 : 10, maxTime: quick ? 0.5 : 2 };

// The parser alone: tokens lexed once, outside the timing. The project's parser is reached through
// parse.ts's shared instance (internal API; left out if it has changed shape).
type Lexed = { text: string; tokens: ReturnType<typeof lexer.tokenize>["tokens"] };
const lex = (text: string): Lexed => ({ text, tokens: lexer.tokenize(text).tokens });
const internal = (await import("../src/syntax/parse.js")) as unknown as { sharedParser?: () => { begin(t: string, k: unknown[], l: unknown): void; filter(): unknown; errors: unknown[] } };
const limits = { maxDepth: 0, maxMatches: 0 };
let projectAlone: ((l: Lexed) => void) | undefined;
try {
  const p = internal.sharedParser!();
  projectAlone = ({ text, tokens }) => {
    p.begin(text, tokens, limits);
    p.filter();
    if (p.errors.length > 0) throw new Error(`project parser failed on ${text}`);
  };
  for (const q of QUERIES) projectAlone(lex(q.expression));
} catch (e) {
  log(`(the project's parser alone is not timed: ${(e as Error).message})`);
  projectAlone = undefined;
}
const levelsAlone = ({ text, tokens }: Lexed) => parseLevelsTokens(text, tokens);

const qSuite = (await b.suite(
  "Q1–Q6: parse(text), and the parser alone",
  ...QUERIES.flatMap((q) => {
    const l = lex(q.expression);
    return [
      b.add(`${q.id} project`, () => parse(q.expression), options),
      b.add(`${q.id} levels`, () => parseLevels(q.expression), options),
      ...(projectAlone ? [b.add(`${q.id} project alone`, () => projectAlone!(l), options)] : []),
      b.add(`${q.id} levels alone`, () => levelsAlone(l), options),
    ];
  }),
  b.cycle(),
)) as unknown as Summary;

const lexed = corpus.map(lex);
const cSuite = (await b.suite(
  "logical corpus (200 expressions per operation)",
  b.add("project parse", () => corpus.forEach((t) => parse(t)), corpusOptions),
  b.add("project parse, budget off", () => corpus.forEach((t) => parse(t, { maxExpressions: Infinity })), corpusOptions),
  b.add("levels parse", () => corpus.forEach((t) => parseLevels(t)), corpusOptions),
  ...(projectAlone ? [b.add("project parser alone", () => lexed.forEach(projectAlone!), corpusOptions)] : []),
  b.add("levels parser alone", () => lexed.forEach(levelsAlone), corpusOptions),
  b.cycle(),
)) as unknown as Summary;

// ---------------------------------------------------------------------------------------------------
// 3. Summary.

const us = (s: Summary, name: string, per = 1) => 1e6 / ops(s, name) / per;
const lines: string[] = ["", "=== parser shape: hand-written loop (project) vs one Chevrotain rule per level (levels) ==="];
lines.push("deepest nesting that parses (default stack; levels: cold = first parse in a fresh process, corpus = fresh process warmed on ordinary input, hot = after repeated deep parses;");
lines.push(`  project: searched in this process up to ${fmt(CAP)}${quick ? "" : `, and ${fmt(CAP)} checked in a cold process with ${fmt(PRE)} frames pre-used`}):`);
lines.push(`  ${"construct".padEnd(12)} ${"pre-used".padEnd(9)} ${"reference".padEnd(10)} ${"project".padEnd(10)} ${"levels cold".padEnd(13)} ${"levels corpus".padEnd(14)} levels hot`);
for (const c of constructs) {
  for (const pre of [0, PRE]) {
    const d = depths[c][pre]!;
    lines.push(`  ${c.padEnd(12)} ${fmt(pre).padEnd(9)} ${REFERENCE[c].padEnd(10)} ${d.project!.padEnd(10)} ${(d.cold ?? "–").padEnd(13)} ${(d.corpus ?? "–").padEnd(14)} ${d.hot}`);
  }
}
if (Object.keys(atReference).length > 0) {
  lines.push(
    `levels: the reference's 1,501 nested collections parsed in fresh processes: cold ${atReference[`0/cold`]}, corpus-warmed ${atReference[`0/corpus`]}; ` +
      `with ${fmt(PRE)} frames pre-used: cold ${atReference[`${PRE}/cold`]}, corpus-warmed ${atReference[`${PRE}/corpus`]} (project: every time, in every state)`,
  );
}
lines.push("parse time per expression (µs; ratio levels / project, > 1 means the rule-per-level parser is slower):");
const ratios: number[] = [];
const aloneRatios: number[] = [];
for (const q of QUERIES) {
  const [p, l] = [us(qSuite, `${q.id} project`), us(qSuite, `${q.id} levels`)];
  ratios.push(l / p);
  let alone = "";
  if (projectAlone) {
    const [pa, la] = [us(qSuite, `${q.id} project alone`), us(qSuite, `${q.id} levels alone`)];
    aloneRatios.push(la / pa);
    alone = `   parser alone: project ${pa.toFixed(2)}  levels ${la.toFixed(2)}  (${(la / pa).toFixed(2)}×)`;
  }
  lines.push(`  ${q.id}  parse(text): project ${p.toFixed(2)}  levels ${l.toFixed(2)}  (${(l / p).toFixed(2)}×)${alone}`);
}
const geomean = (xs: number[]) => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);
lines.push(`  Q1–Q6 geometric mean of the ratios: parse(text) ${geomean(ratios).toFixed(2)}×${projectAlone ? `, parser alone ${geomean(aloneRatios).toFixed(2)}×` : ""}`);
const n = corpus.length;
const [pp, pb, lp] = [us(cSuite, "project parse", n), us(cSuite, "project parse, budget off", n), us(cSuite, "levels parse", n)];
lines.push(`  corpus, parse(text)       project ${pp.toFixed(2)} (budget off ${pb.toFixed(2)})  levels ${lp.toFixed(2)}  (${(lp / pp).toFixed(2)}×; ${(lp / pb).toFixed(2)}× budget off)`);
const la = us(cSuite, "levels parser alone", n);
if (projectAlone) {
  const pa = us(cSuite, "project parser alone", n);
  lines.push(`  corpus, parser alone      project ${pa.toFixed(2)}  levels ${la.toFixed(2)}  (${(la / pa).toFixed(2)}×)`);
} else lines.push(`  corpus, parser alone      levels ${la.toFixed(2)}`);
lines.push(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
log(lines.join("\n"));
