/**
 * Generates the version-sensitive cases (test/fixtures/targets/version-cases.jsonl) and answers them
 * with every go-bexpr release (the oracles build.sh compiles). Deterministic for a seed: the same
 * drafts in the same order; the oracles then decide every answer.
 *
 *   npx tsx scripts/oracles/generate-cases.ts [--seed 20251125] [--bin DIR] [--jobs 2] [--timeout 30] [--repeat 256] [--dry-run]
 *
 * (--dry-run: only generate, and print the drafts per family and their size).
 *
 * Families (ids are given in this order, see README.md for the ranges):
 *   missing     missing leaf and intermediate map keys, missing top-level fields, for every operator
 *               and any/all; plain, under not, in and/or where short-circuiting decides
 *   collections any/all in every binding form over lists, maps, empty ones, null, missing keys,
 *               nested, in parentheses, combined with and/or
 *   budget      deep parentheses, long and/or chains and runs of not around the 2,000,000-step parse
 *               budget of 0.1.15/0.1.16, measured with the library's replay (src/syntax/budget.ts)
 *   is-nil      is nil / is not nil on every kind of value
 *   is-empty    is empty / is not empty on scalars, null, records and nil pointers (old releases panic)
 *   random      random combinations of the above with ordinary matches
 *
 * A draft is dropped when an oracle answers "bad-datum" (a generator bug), "unstable" (the answer
 * depends on the order Go visits a map's keys), "timeout" or "crash"; the run reports how many.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { budgetSteps } from "../../src/syntax/budget.js";
import { budgetRules } from "../../src/syntax/target-grammar.js";
import { askOracles, cutError, oracleCommandLine, VERSIONS, type Version } from "./oracle.js";
import { BUDGETED, replayDisagreement } from "./replay-check.js";
import { summarise } from "./summary.js";
import { Rng } from "./rng.js";

const args = oracleCommandLine({ timeout: "30", seed: "20251125" });

// ---------------------------------------------------------------------------------------------------
// Randomness

const rng = new Rng(args.seed);

type Kind = "json" | "job" | "deployment";
interface Draft {
  readonly family: string;
  readonly kind: Kind;
  readonly expr: string;
  readonly datum: unknown;
}
const drafts: Draft[] = [];
const add = (family: string, kind: Kind, expr: string, datum: unknown) => drafts.push({ family, kind, expr, datum });

// ---------------------------------------------------------------------------------------------------
// Data

/** A JSON datum: every selector the families read, with some values varied. */
function jsonDatum(r: Rng): Record<string, unknown> {
  return {
    ok: "yes",
    m: { x: r.pick([1, 2, "1", "x"]), y: "two", z: r.pick([true, false]), nul: null, sub: { p: 1 } },
    e: {},
    one: { a: r.pick([1, 2, "a"]) },
    m2: { a: 1, b: r.pick([1, 2]) },
    l: r.pick([[1, 2, 3], [1], [3, 2]]),
    sl: r.pick([["a", "b"], ["a"], ["x", "ab", ""]]),
    lm: [{ k: 1 }, { k: r.pick([1, 2]) }],
    ln: [null],
    ll: [[1, 2], [3]],
    ml: { a: [1, 2] },
    el: [],
    n: null,
    s: r.pick(["hello", "x", "a"]),
    es: "",
    i: r.pick([3, 0, -1]),
    f: 1.5,
    b: r.pick([true, false]),
    nest: { a: { b: { c: r.pick([1, 2]) } } },
  };
}

type MultiregionShape = "null" | "full" | "nil-maps" | "empty";
type SummaryShape = "null" | "full" | "empty" | "nil-summary";

/** A job list entry as the harness's JobListStub decodes it. */
function jobDatum(r: Rng, o: { multiregion?: MultiregionShape; summary?: SummaryShape; children?: boolean; datacenters?: "null" | "empty" | "full" } = {}): Record<string, unknown> {
  const id = r.pick(["web", "api", "batch-3", "cache"]);
  const mr = o.multiregion ?? r.pick<MultiregionShape>(["null", "full", "null", "nil-maps", "empty"]);
  const sum = o.summary ?? r.pick<SummaryShape>(["full", "full", "null", "empty", "nil-summary"]);
  const dcs = o.datacenters ?? r.pick(["full", "full", "empty", "null"]);
  const group = () => ({ Queued: r.int(3), Complete: r.int(3), Failed: r.int(2), Running: r.int(4), Starting: r.int(2), Lost: 0 });
  return {
    ID: id,
    ParentID: "",
    Name: id,
    Namespace: "default",
    Datacenters: dcs === "null" ? null : dcs === "empty" ? [] : r.pick([["dc1"], ["dc1", "dc2"], ["dc2", "*"]]),
    Multiregion:
      mr === "null"
        ? null
        : mr === "nil-maps"
          ? { Strategy: null, Regions: null }
          : mr === "empty"
            ? { Strategy: {}, Regions: [] }
            : {
                Strategy: { MaxParallel: r.pick([1, 2]), OnFailure: "fail_all" },
                Regions: [
                  { Name: "east", Count: 1, Datacenters: ["dc1"] },
                  { Name: "west", Count: r.pick([1, 2]), Datacenters: ["dc2"] },
                ],
              },
    Type: r.pick(["service", "batch", "system"]),
    Priority: r.pick([50, 70, 100]),
    Periodic: false,
    ParameterizedJob: false,
    Stop: r.pick([false, true]),
    Status: r.pick(["running", "pending", "dead"]),
    StatusDescription: "",
    JobSummary:
      sum === "null"
        ? null
        : {
            JobID: id,
            Namespace: "default",
            Children: (o.children ?? r.chance(0.6)) ? { Pending: r.int(2), Running: r.int(3), Dead: 0 } : null,
            Summary: sum === "nil-summary" ? null : sum === "empty" ? {} : r.chance(0.5) ? { web: group() } : { web: group(), db: group() },
            CreateIndex: 10,
            ModifyIndex: 12,
          },
    CreateIndex: 10,
    ModifyIndex: 12,
    JobModifyIndex: 11,
    SubmitTime: 1700000000000000000,
  };
}

type GroupsShape = "null" | "empty" | "one" | "two";

/** A deployment as the harness's Deployment decodes it. */
function deploymentDatum(r: Rng, o: { groups?: GroupsShape; progress?: boolean; canaries?: "null" | "empty" | "full" } = {}): Record<string, unknown> {
  const shape = o.groups ?? r.pick<GroupsShape>(["one", "one", "two", "empty", "null"]);
  const state = () => {
    const c = o.canaries ?? r.pick(["null", "empty", "full"]);
    return {
      AutoRevert: r.pick([true, false]),
      AutoPromote: false,
      ProgressDeadline: 600000000000,
      Promoted: r.pick([true, false]),
      PlacedCanaries: c === "null" ? null : c === "empty" ? [] : ["a1", "a2"],
      DesiredCanaries: r.int(3),
      DesiredTotal: 3,
      PlacedAllocs: r.int(4),
      HealthyAllocs: r.int(4),
      UnhealthyAllocs: r.int(2),
      RequireProgressBy: (o.progress ?? r.chance(0.5)) ? "2026-11-20T10:00:00Z" : null,
    };
  };
  return {
    ID: "7f3c2b1e-0000-4000-8000-000000000001",
    Namespace: "default",
    JobID: "web",
    JobVersion: 2,
    JobModifyIndex: 20,
    JobSpecModifyIndex: 20,
    JobCreateIndex: 5,
    IsMultiregion: false,
    TaskGroups: shape === "null" ? null : shape === "empty" ? {} : shape === "one" ? { web: state() } : { web: state(), api: state() },
    Status: r.pick(["running", "successful", "failed"]),
    StatusDescription: "",
    EvalPriority: 50,
    CreateIndex: 21,
    ModifyIndex: 22,
  };
}

// ---------------------------------------------------------------------------------------------------
// Expressions

const OPS = ["==", "!=", "in", "not in", "contains", "not contains", "matches", "not matches", "is empty", "is not empty", "is nil", "is not nil"] as const;
type Op = (typeof OPS)[number];

const VALUES = ["1", '"x"', "true", '"two"', "x", "0", '"a1"', "dc1"];
const PATTERNS = ['"^x"', '"."', '"^$"', '"a"', '"(?i)T"'];

function match(op: Op, sel: string, r: Rng): string {
  switch (op) {
    case "in":
    case "not in":
      return `${r.pick(VALUES)} ${op} ${sel}`;
    case "matches":
    case "not matches":
      return `${sel} ${op} ${r.pick(PATTERNS)}`;
    case "is empty":
    case "is not empty":
    case "is nil":
    case "is not nil":
      return `${sel} ${op}`;
    default:
      return `${sel} ${op} ${r.pick(VALUES)}`;
  }
}

const BINDINGS = ["v", "k, v", "_, v", "i, _"] as const;

/** A body for a collection's binding: reads the bound names, sometimes nothing else. */
function body(binding: string, r: Rng): string {
  const [a, b] = binding.split(",").map((s) => s.trim());
  const names = [a, b].filter((n): n is string => n !== undefined && n !== "_");
  const n = r.pick(names);
  return r.pick([`${n} == 1`, `${n} != 1`, `${n} == "a"`, `${n} is empty`, `${n} is not empty`, `${n} is nil`, `${n} matches "a"`, `"a" in ${n}`, `${n}.k == 1`, `not ${n} == 2`, `${n} == 1 or ${n} == "b"`]);
}

/** The always-true, always-false and always-failing matches of a kind's data. */
const FIXED: Record<Kind, { t: string; f: string; x: string }> = {
  json: { t: 'ok == "yes"', f: 'ok == "no"', x: "i == abc" },
  job: { t: 'Namespace == "default"', f: 'Namespace == "nope"', x: "Priority == abc" },
  deployment: { t: 'Namespace == "default"', f: 'Namespace == "nope"', x: "EvalPriority == abc" },
};

/** `e` in one of the positions where versions can differ: plain, under not, beside decided matches. */
function wrap(e: string, collection: boolean, kind: Kind, r: Rng): string {
  const { t, f, x } = FIXED[kind];
  const p = collection ? `(${e})` : e;
  return r.pick([
    e,
    `not ${collection ? p : r.pick([e, `(${e})`])}`,
    `(${e})`,
    `${t} and ${p}`,
    `${f} and ${p}`,
    `${p} and ${t}`,
    `${p} and ${f}`,
    `${t} or ${p}`,
    `${f} or ${p}`,
    `${p} or ${t}`,
    `${p} or ${f}`,
    `${p} and ${x}`,
    `${p} or ${x}`,
    `${x} or ${p}`,
    `not (${p} and ${t})`,
    `(${f} or ${p}) and ${t}`,
  ]);
}

/** `any`/`all` over `sel` with a random binding and body. */
function collection(sel: string, r: Rng, op: "any" | "all" = r.pick(["any", "all"] as const)): string {
  const binding = r.pick(BINDINGS);
  return `${op} ${sel} as ${binding} { ${body(binding, r)} }`;
}

// ---------------------------------------------------------------------------------------------------
// Family: missing keys

{
  // [selector, what it is]
  const json: readonly string[] = [
    // leaf key missing from a map
    "m.nope",
    'm["nope"]',
    "m.sub.nope",
    "e.nope",
    'e["x"]',
    "nest.a.nope",
    "nest.a.b.nope",
    '"/m/nope"',
    "lm.0.nope",
    "one.b",
    "m.x.nope",
    // intermediate key missing
    "m.nope.x",
    'm["nope"].x',
    "e.nope.x",
    "nest.nope.b",
    "nest.a.nope.c",
    '"/m/nope/x"',
    "lm.0.nope.x",
    // top level missing
    "nope",
    "nope.x",
    // parents that are not maps
    "l.nope",
    "l.7",
    "s.nope",
    "n.nope",
    "i.nope",
    "m.nul.x",
  ];
  const job: readonly [string, Partial<Parameters<typeof jobDatum>[1]>][] = [
    ['JobSummary.Summary["nope"]', { summary: "full" }],
    ["JobSummary.Summary.nope", { summary: "full" }],
    ['JobSummary.Summary["nope"]', { summary: "empty" }],
    ['JobSummary.Summary["nope"]', { summary: "nil-summary" }],
    ['JobSummary.Summary["nope"]', { summary: "null" }],
    ['JobSummary.Summary["nope"].Running', { summary: "full" }],
    ['JobSummary.Summary["nope"].Running', { summary: "empty" }],
    ['Multiregion.Strategy["x"]', { multiregion: "full" }],
    ['Multiregion.Strategy["x"]', { multiregion: "nil-maps" }],
    ['Multiregion.Strategy["x"]', { multiregion: "null" }],
    ["Multiregion.Strategy.x.y", { multiregion: "full" }],
    ["Multiregion.Regions.0.nope", { multiregion: "full" }],
    ["Multiregion.Regions.0.nope.x", { multiregion: "full" }],
    ["Multiregion.Regions.5.Name", { multiregion: "full" }],
    ["JobSummary.Nope", { summary: "full" }],
    ["Nope", {}],
    ["JobSummary.Children.Nope", { summary: "full", children: true }],
  ];
  const deployment: readonly [string, Partial<Parameters<typeof deploymentDatum>[1]>][] = [
    ['TaskGroups["nope"]', { groups: "one" }],
    ["TaskGroups.nope", { groups: "two" }],
    ['TaskGroups["nope"]', { groups: "empty" }],
    ['TaskGroups["nope"]', { groups: "null" }],
    ['TaskGroups["nope"].Promoted', { groups: "one" }],
    ['TaskGroups["nope"].PlacedCanaries', { groups: "empty" }],
    ['TaskGroups["nope"].RequireProgressBy', { groups: "null" }],
    ["TaskGroups.web.Nope", { groups: "one" }],
    ["Nope", {}],
  ];
  const ops = [...OPS, "any", "all"] as const;
  const each = (kind: Kind, sel: string, datum: () => unknown) => {
    for (const op of ops) {
      const e = op === "any" || op === "all" ? collection(sel, rng, op) : match(op, sel, rng);
      const coll = op === "any" || op === "all";
      add("missing", kind, e, datum());
      if (rng.chance(0.5)) add("missing", kind, wrap(e, coll, kind, rng), datum());
    }
  };
  for (const sel of json) each("json", sel, () => jsonDatum(rng));
  for (const [sel, o] of job) each("job", sel, () => jobDatum(rng, o));
  for (const [sel, o] of deployment) each("deployment", sel, () => deploymentDatum(rng, o));
}

// ---------------------------------------------------------------------------------------------------
// Family: any/all

{
  const json = ["l", "sl", "lm", "ln", "ll", "ml", "el", "one", "m2", "e", "n", "m.nope", "m.nope.x", "nope", "s", "i", "nest.a", "lm.0", '"/lm"'];
  const forms = [...BINDINGS, "v, v", "k,v", "_,v"];
  for (const sel of json) {
    for (const op of ["any", "all"] as const) {
      for (const binding of rng.sample(forms, 4)) {
        const e = `${op} ${sel} as ${binding} { ${body(binding.includes(",") ? binding.replace(/\s*,\s*/, ", ") : binding, rng)} }`;
        add("collections", "json", rng.chance(0.5) ? e : wrap(e, true, "json", rng), jsonDatum(rng));
      }
    }
  }
  // Nested, parenthesised, combined.
  const nested = [
    "any ll as v { any v as w { w == 3 } }",
    "all ll as v { all v as w { w != 0 } }",
    "any ll as i, v { i == 1 and (any v as w { w == 3 }) }",
    "any ml as k, v { any v as w { w == 2 } }",
    'all lm as v { v.k == 1 or (any sl as s { s == "a" }) }',
    "any lm as _, v { v.k is not empty }",
    "any lm as _, v { v.nope == 1 }",
    "all lm as _, v { v.nope != 1 }",
    "any lm as _, v { v.nope.x == 1 }",
    "any lm as i, _ { i.x == 1 }",
    "any m2 as k { k.x == 1 }",
    "any m2 as k, v { v.x == 1 }",
    "any one as k, v { k == \"a\" and v == 1 }",
    "(any l as v { v == 1 }) and (all sl as v { v != \"z\" })",
    "(any l as v { v == 7 }) or (any sl as v { v == \"a\" })",
    "((any l as v { v == 1 }))",
    "not (any l as v { v == 1 })",
    "not (all el as v { v == 1 })",
    "(all n as v { v == 1 }) or ok == \"yes\"",
    "ok == \"no\" and (any nope as v { v == 1 })",
    "ok == \"yes\" and (any nope as v { v == 1 })",
    "(any m.nope as v { v == 1 }) or (all m.nope as v { v == 1 })",
    "any l as v { (v == 1) }",
    "any l as v { not (v == 1) }",
    "any l as v { any l as v { v == 2 } }",
    "any l as v { l.0 == v }",
    "any l as v { \"/v\" == 1 }",
    "any lm as v { \"/v/k\" == 1 }",
    "any lm as v { v[\"k\"] == 2 }",
    "any nest as k, v { v.b.c == 1 }",
    "any nest.a as k, v { v.nope is empty }",
    "all e as k, v { v == 1 }",
    "any e as k { k == 1 } or ok == \"yes\"",
  ];
  for (const e of nested) {
    add("collections", "json", e, jsonDatum(rng));
    add("collections", "json", e, jsonDatum(rng));
  }
  const job = [
    'any Datacenters as d { d == "dc1" }',
    'all Datacenters as d { d != "*" }',
    'any Datacenters as i, d { i == 1 and d == "dc2" }',
    "all Datacenters as i, _ { i == 0 }",
    'any Datacenters as _, d { d matches "^dc" }',
    "any JobSummary.Summary as k { k == \"web\" }",
    "any JobSummary.Summary as k, v { v.Running == 1 }",
    "all JobSummary.Summary as _, v { v.Failed == 0 }",
    "any JobSummary.Summary as _, v { v.Nope == 0 }",
    "all JobSummary.Summary as k, _ { k != \"nope\" }",
    "any Multiregion.Regions as r { r.Name == \"east\" }",
    "all Multiregion.Regions as _, r { r.Count == 1 }",
    "any Multiregion.Regions as r { r.nope == 1 }",
    "any Multiregion.Regions as r { any r.Datacenters as d { d == \"dc2\" } }",
    "any Multiregion.Strategy as k { k == \"MaxParallel\" }",
    "all Multiregion.Strategy as k, v { v != \"x\" }",
    "any JobSummary as v { v == 1 }",
    "any JobSummary.Children as v { v == 1 }",
    "any Status as v { v == 1 }",
    "any Priority as v { v == 1 }",
    "any JobSummary.Summary[\"nope\"] as v { v == 1 }",
    "all JobSummary.Summary[\"nope\"] as v { v == 1 }",
  ];
  for (const e of job) {
    for (let n = 0; n < 4; n++) add("collections", "job", n < 2 ? e : wrap(e, true, "job", rng), jobDatum(rng));
  }
  const deployment = [
    "any TaskGroups as k { k == \"web\" }",
    "any TaskGroups as k, v { v.Promoted == true }",
    "all TaskGroups as _, g { g.PlacedCanaries is empty }",
    "all TaskGroups as _, g { g.PlacedCanaries is nil }",
    "any TaskGroups as _, g { g.RequireProgressBy is not nil }",
    "any TaskGroups.web.PlacedCanaries as c { c == \"a1\" }",
    "all TaskGroups.web.PlacedCanaries as i, c { i == 0 }",
    "any TaskGroups as k, g { any g.PlacedCanaries as c { c == \"a2\" } }",
    "any TaskGroups[\"nope\"] as g { g == 1 }",
    "all TaskGroups[\"nope\"].PlacedCanaries as c { c == 1 }",
    "any TaskGroups as _, g { g.Nope == 1 }",
    "all TaskGroups as k, _ { k.x == 1 }",
  ];
  for (const e of deployment) {
    for (let n = 0; n < 4; n++) add("collections", "deployment", n < 2 ? e : wrap(e, true, "deployment", rng), deploymentDatum(rng));
  }
}

// ---------------------------------------------------------------------------------------------------
// Family: the parse budget

const BUDGET = 2_000_000;
/** Each release's table (0.1.16: with `is nil`; 0.1.13–0.1.15: without; before: without any/all). */
const RULES = {
  "0.1.16": budgetRules({ name: "go-bexpr@0.1.16", bexpr: "0.1.16" }),
  "0.1.15": budgetRules({ name: "go-bexpr@0.1.15", bexpr: "0.1.15" }),
  "0.1.12": budgetRules({ name: "go-bexpr@0.1.12", bexpr: "0.1.12" }),
};
const steps = (text: string, rules: (typeof RULES)[keyof typeof RULES]): number => {
  const r = budgetSteps(text, Infinity, rules);
  if (r.exceeded) throw new Error("exceeded Infinity");
  return r.steps;
};
/** What the replay predicts for 0.1.15 and 0.1.16 (to compare with the oracles after the run). */
const predicted = new Map<string, { "0.1.15": number; "0.1.16": number }>();
/** The most steps a case may take on a release without a budget. */
const STEP_CEILING = 20_000_000;

{
  const datum = { x: 5, y: "", l: ["a1", "b"], ok: "yes", m: { a: 1 } };
  // Term makers: i is the term's position.
  const TERMS: Record<string, (i: number) => string> = {
    eq: (i) => `x == ${i}`,
    ne: (i) => `x != ${i}`,
    isEmpty: () => "y is empty",
    isNotEmpty: () => "l is not empty",
    inWord: (i) => `a${i} in l`,
    notInWord: (i) => `a${i} not in l`,
    inString: (i) => `"a${i}" in l`,
    inPointer: () => `"/a1" in l`,
    contains: (i) => `l contains a${i}`,
    not: (i) => `not x == ${i}`,
    matches: () => `y matches "^$"`,
    mixed: (i) => [`x == ${i}`, "y is empty", `a${i} in l`, `not x == ${i}`][i % 4]!,
    anyEq: (i) => `(any l as v { v == a${i} })`,
  };
  const chain = (term: (i: number) => string, join: string, n: number, depth: number, pad: number) =>
    "(".repeat(depth) + Array.from({ length: n }, (_, i) => term(i)).join(join) + " ".repeat(pad) + ")".repeat(depth);
  /** Cases just under and just over the budget for one release's count, and a pair split between 0.1.15 and 0.1.16 where one exists. */
  const around = (make: (n: number, pad: number) => string, target: "0.1.16" | "0.1.15") => {
    const rules = RULES[target];
    // Terms: the smallest count over the budget (doubling, then bisection).
    let hi = 1;
    while (steps(make(hi, 0), rules) <= BUDGET) {
      hi *= 2;
      if (hi > 1 << 16) return [];
    }
    let lo = Math.floor(hi / 2);
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (steps(make(mid, 0), rules) <= BUDGET) lo = mid;
      else hi = mid;
    }
    // The closest under and over, with padding (spaces before the closing parentheses).
    const out: string[] = [];
    let under: string | undefined;
    let over: string | undefined;
    for (let pad = 0; pad < 40; pad++) {
      const a = make(lo, pad);
      const sa = steps(a, rules);
      if (sa <= BUDGET && (under === undefined || sa > steps(under, rules))) under = a;
      if (sa > BUDGET && (over === undefined || sa < steps(over, rules))) over = a;
      const b = make(hi, pad);
      const sb = steps(b, rules);
      if (sb > BUDGET && (over === undefined || sb < steps(over, rules))) over = b;
    }
    if (under) out.push(under);
    if (over) out.push(over);
    out.push(make(Math.max(1, lo - 3), 0), make(hi + 3, 0));
    return out;
  };
  const seen = new Set<string>();
  const push = (e: string, d: unknown = datum, kind: Kind = "json") => {
    if (seen.has(e)) return;
    seen.add(e);
    const s16 = steps(e, RULES["0.1.16"]);
    const s15 = steps(e, RULES["0.1.15"]);
    // Releases without a budget (0.1.11–0.1.14) parse it all: keep them fast.
    if (Math.max(s16, s15, steps(e, RULES["0.1.12"])) > STEP_CEILING) return;
    predicted.set(e, { "0.1.15": s15, "0.1.16": s16 });
    add("budget", kind, e, d);
  };
  // Deep parentheses around one match, and after a prefix.
  for (const inner of ["x == 5", "y is empty", "a1 in l", '"/a1" in l', "not x == 1", "x == 5 or x == 6", "l contains a1"]) {
    for (const d of [5, 6, 7, 8]) {
      push("(".repeat(d) + inner + ")".repeat(d));
      push(`x == 5 and ${"(".repeat(d - 1)}${inner}${")".repeat(d - 1)}`);
      push(`${"(".repeat(d - 1)}${inner}${")".repeat(d - 1)} or x == 1`);
    }
  }
  // Chains at depths 2–4 (a few KB each; depth 2 only for `in` and `is empty`), and one chain at
  // depth 0 (about 50 KB) that 0.1.15 parses and 0.1.16 rejects.
  const SPLIT = ["inWord", "notInWord", "inPointer", "anyEq"];
  for (const [name, term] of Object.entries(TERMS)) {
    for (const depth of [2, 3, 4]) {
      for (const join of [" or ", " and "]) {
        if (depth === 2 && (join === " and " || !["inWord", "isEmpty"].includes(name))) continue;
        if (depth === 3 && !SPLIT.includes(name) && !(join === " or " && ["eq", "isEmpty", "mixed"].includes(name))) continue;
        for (const target of ["0.1.16", "0.1.15"] as const) {
          const found = around((n, pad) => chain(term, join, n, depth, pad), target);
          for (const e of depth === 4 && SPLIT.includes(name) ? found : found.slice(0, 2)) push(e);
        }
      }
    }
  }
  {
    // The smallest count of terms 0.1.16 rejects, if 0.1.15 still parses it.
    const make = (n: number) => chain(TERMS.inWord!, " or ", n, 0, 0);
    let lo = 1;
    let hi = 1;
    while (steps(make(hi), RULES["0.1.16"]) <= BUDGET) [lo, hi] = [hi, hi * 2];
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (steps(make(mid), RULES["0.1.16"]) <= BUDGET) lo = mid;
      else hi = mid;
    }
    push(make(hi));
  }
  // Runs of not inside parentheses.
  for (const depth of [4, 5]) {
    for (const inner of ["x == 5", "a1 in l", "y is empty"]) {
      for (const target of ["0.1.16", "0.1.15"] as const) {
        for (const e of around((n, pad) => "(".repeat(depth) + "not ".repeat(n) + inner + " ".repeat(pad) + ")".repeat(depth), target)) push(e);
      }
    }
  }
  // Nested any near the budget (0.1.13+ parse them; 0.1.11/0.1.12 reject them at once).
  for (const target of ["0.1.16", "0.1.15"] as const) {
    for (const e of around((n, pad) => "any l as v { ".repeat(n) + "v == a1" + " ".repeat(pad) + " }".repeat(n), target).slice(0, 2)) push(e);
    for (const e of around((n, pad) => "(((any l as v { " + Array.from({ length: n }, (_, i) => `v == a${i}`).join(" or ") + " ".repeat(pad) + " })))", target)) push(e);
  }
  // Typed data: a job's fields in chains.
  const job = jobDatum(rng, { summary: "full", datacenters: "full" });
  const jobTerms = (i: number) => [`Status == "s${i}"`, `"dc${i}" in Datacenters`, `dc${i} in Datacenters`, `JobSummary.Summary["g${i}"] is empty`][i % 4]!;
  for (const depth of [3, 4]) {
    for (const target of ["0.1.16", "0.1.15"] as const) {
      for (const e of around((n, pad) => chain(jobTerms, " or ", n, depth, pad), target)) push(e, job, "job");
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Family: is nil / is not nil

const JSON_VALUES = ["n", "m.nope", "m.nul", "ln.0", "nope", "m.nope.x", "s", "es", "i", "f", "b", "m.z", "el", "l", "e", "m", "one", "lm.0", "nest.a.b.c"];
const JOB_VALUES: readonly [string, Parameters<typeof jobDatum>[1]][] = [
  ["Multiregion", { multiregion: "null" }],
  ["Multiregion", { multiregion: "full" }],
  ["JobSummary", { summary: "null" }],
  ["JobSummary", { summary: "full" }],
  ["JobSummary.Children", { summary: "full", children: false }],
  ["JobSummary.Children", { summary: "full", children: true }],
  ["JobSummary.Children.Running", { summary: "full", children: true }],
  ["JobSummary.Children.Running", { summary: "full", children: false }],
  ["Datacenters", { datacenters: "null" }],
  ["Datacenters", { datacenters: "empty" }],
  ["Datacenters", { datacenters: "full" }],
  ["Multiregion.Strategy", { multiregion: "nil-maps" }],
  ["Multiregion.Strategy", { multiregion: "empty" }],
  ["Multiregion.Strategy", { multiregion: "full" }],
  ["Multiregion.Strategy", { multiregion: "null" }],
  ["Multiregion.Regions", { multiregion: "nil-maps" }],
  ["Multiregion.Regions", { multiregion: "empty" }],
  ["Multiregion.Regions.0", { multiregion: "full" }],
  ["Multiregion.Strategy.MaxParallel", { multiregion: "full" }],
  ['Multiregion.Strategy["nope"]', { multiregion: "full" }],
  ["JobSummary.Summary", { summary: "nil-summary" }],
  ["JobSummary.Summary", { summary: "empty" }],
  ["JobSummary.Summary", { summary: "full" }],
  ['JobSummary.Summary["web"]', { summary: "full" }],
  ['JobSummary.Summary["nope"]', { summary: "full" }],
  ['JobSummary.Summary["web"].Running', { summary: "full" }],
  ["Status", {}],
  ["Priority", {}],
  ["Stop", {}],
  ["CreateIndex", {}],
  ["SubmitTime", {}],
];
const DEPLOYMENT_VALUES: readonly [string, Parameters<typeof deploymentDatum>[1]][] = [
  ["TaskGroups", { groups: "null" }],
  ["TaskGroups", { groups: "empty" }],
  ["TaskGroups", { groups: "two" }],
  ['TaskGroups["web"]', { groups: "one" }],
  ['TaskGroups["nope"]', { groups: "one" }],
  ['TaskGroups["web"].RequireProgressBy', { groups: "one", progress: false }],
  ['TaskGroups["web"].RequireProgressBy', { groups: "one", progress: true }],
  ['TaskGroups["web"].PlacedCanaries', { groups: "one", canaries: "null" }],
  ['TaskGroups["web"].PlacedCanaries', { groups: "one", canaries: "empty" }],
  ['TaskGroups["web"].PlacedCanaries', { groups: "one", canaries: "full" }],
  ['TaskGroups["web"].Promoted', { groups: "one" }],
  ['TaskGroups["web"].ProgressDeadline', { groups: "one" }],
  ['TaskGroups["nope"].RequireProgressBy', { groups: "one" }],
  ["Status", {}],
  ["JobVersion", {}],
  ["IsMultiregion", {}],
];

function valueFamily(family: string, ops: readonly Op[]) {
  for (const op of ops) {
    for (const sel of JSON_VALUES) {
      add(family, "json", `${sel} ${op}`, jsonDatum(rng));
      if (rng.chance(0.5)) add(family, "json", wrap(`${sel} ${op}`, false, "json", rng), jsonDatum(rng));
    }
    for (const [sel, o] of JOB_VALUES) {
      add(family, "job", `${sel} ${op}`, jobDatum(rng, o));
      if (rng.chance(0.5)) add(family, "job", wrap(`${sel} ${op}`, false, "job", rng), jobDatum(rng, o));
    }
    for (const [sel, o] of DEPLOYMENT_VALUES) {
      add(family, "deployment", `${sel} ${op}`, deploymentDatum(rng, o));
      if (rng.chance(0.5)) add(family, "deployment", wrap(`${sel} ${op}`, false, "deployment", rng), deploymentDatum(rng, o));
    }
  }
  // Inside collections.
  for (const op of ops) {
    for (const [kind, e] of [
      ["json", `any ln as v { v ${op} }`],
      ["json", `all l as v { v ${op} }`],
      ["json", `any lm as _, v { v ${op} }`],
      ["json", `any lm as _, v { v.nope ${op} }`],
      ["json", `all one as k, v { k ${op} }`],
      ["json", `any sl as i, _ { i ${op} }`],
      ["job", `any JobSummary.Summary as _, v { v ${op} }`],
      ["job", `all Multiregion.Regions as r { r.Name ${op} }`],
      ["deployment", `any TaskGroups as _, g { g.RequireProgressBy ${op} }`],
      ["deployment", `all TaskGroups as _, g { g.PlacedCanaries ${op} }`],
    ] as const) {
      const d = kind === "json" ? jsonDatum(rng) : kind === "job" ? jobDatum(rng, { multiregion: "full", summary: "full" }) : deploymentDatum(rng, { groups: "one" });
      add(family, kind, e, d);
    }
  }
}

valueFamily("is-nil", ["is nil", "is not nil"]);
valueFamily("is-empty", ["is empty", "is not empty"]);

// ---------------------------------------------------------------------------------------------------
// Family: random combinations

{
  const ordinary: Record<Kind, readonly string[]> = {
    json: ['ok == "yes"', "i == 3", "b == true", '"a" in sl', 's matches "^h"', "l contains 2", 'm.y == "two"', "m.x != 1", "f == 1.5", 'sl is not empty'],
    job: ['Status == "running"', '"dc1" in Datacenters', 'Name matches "^web"', "Priority == 50", "Stop == false", 'Type != "batch"', 'JobSummary.Summary.web.Running == 1', "Datacenters is not empty"],
    deployment: ['Status == "running"', "TaskGroups.web.Promoted == true", "EvalPriority == 50", '"web" in TaskGroups', 'JobID matches "w"', "TaskGroups.web.DesiredTotal == 3"],
  };
  const special: Record<Kind, readonly string[]> = {
    json: ["m.nope == 1", "m.nope != 1", '"x" in m.nope', "m.nope is empty", "m.nope is nil", "m.nope.x == 1", "n is nil", "s is nil", "i is empty", "n is empty", "b is not empty", "l is nil", "el is not nil", "(any l as v { v == 2 })", "(all m2 as k { k != \"c\" })", "(any m.nope as v { v == 1 })", "(all m.nope as v { v == 1 })"],
    job: ['JobSummary.Summary["nope"].Running == 1', 'JobSummary.Summary["nope"] is empty', 'Multiregion.Strategy["x"] == 1', "Multiregion is nil", "Multiregion is empty", "JobSummary is empty", "JobSummary.Children is not nil", "Priority is empty", '(any Datacenters as d { d == "dc1" })', '(all JobSummary.Summary as k, v { v.Lost == 0 })'],
    deployment: ['TaskGroups["nope"].Promoted == true', 'TaskGroups["nope"] is nil', 'TaskGroups["web"].RequireProgressBy is nil', 'TaskGroups["web"] is empty', "TaskGroups is nil", '(any TaskGroups as k { k == "web" })', '(all TaskGroups as _, g { g.Promoted == false })'],
  };
  const tree = (kind: Kind, depth: number): string => {
    if (depth === 0 || rng.chance(0.3)) return rng.chance(0.5) ? rng.pick(ordinary[kind]) : rng.pick(special[kind]);
    const a = tree(kind, depth - 1);
    const b = tree(kind, depth - 1);
    switch (rng.int(4)) {
      case 0:
        return `${a} and ${b}`;
      case 1:
        return `${a} or ${b}`;
      case 2:
        return `not (${a})`;
      default:
        return `(${a} or ${b}) and ${tree(kind, 0)}`;
    }
  };
  for (let n = 0; n < 300; n++) {
    const kind = rng.pick<Kind>(["json", "json", "job", "deployment"]);
    const e = tree(kind, 3);
    add("random", kind, e, kind === "json" ? jsonDatum(rng) : kind === "job" ? jobDatum(rng) : deploymentDatum(rng));
  }
}

// ---------------------------------------------------------------------------------------------------
// Ask the oracles, keep what they all answer.

const unique: Draft[] = [];
{
  const seen = new Set<string>();
  for (const d of drafts) {
    const key = `${d.kind}\u0000${d.expr}\u0000${JSON.stringify(d.datum)}`;
    if (!seen.has(key)) {
      seen.add(key);
      unique.push(d);
    }
  }
}
const families = [...new Set(unique.map((d) => d.family))];
console.log(`${drafts.length} drafts, ${unique.length} distinct: ${families.map((f) => `${f} ${unique.filter((d) => d.family === f).length}`).join(", ")}`);
if (args.dryRun) {
  // Characters of expressions and data per family.
  for (const f of families) console.log(f, unique.filter((d) => d.family === f).reduce((s, d) => s + d.expr.length + JSON.stringify(d.datum).length, 0));
  process.exit(0);
}

const started = Date.now();
const answers = await askOracles(
  unique.map((d, i) => JSON.stringify({ id: i, kind: d.kind, expr: d.expr, datum: d.datum })),
  args.oracle,
);
process.stderr.write("\n");

const KEPT = new Set(["true", "false", "parse-error", "eval-error"]);
const dropped = new Map<string, number>();
const lines: string[] = [];
const kept: { family: string; expect: Record<Version, string>; draft: Draft }[] = [];
for (const [i, d] of unique.entries()) {
  const bad = VERSIONS.map((v) => answers[v][i]!).find((a) => !KEPT.has(a.expect));
  if (bad) {
    const k = `${d.family}: ${bad.expect}`;
    dropped.set(k, (dropped.get(k) ?? 0) + 1);
    if (bad.expect === "bad-datum" || bad.expect === "crash") console.log(`dropped (${bad.expect}): ${d.kind} ${d.expr} ${bad.goError ?? ""}`);
    continue;
  }
  const expect = Object.fromEntries(VERSIONS.map((v) => [v, answers[v][i]!.expect])) as Record<Version, string>;
  kept.push({ family: d.family, expect, draft: d });
}
// Ids in family order.
kept.sort((a, b) => families.indexOf(a.family) - families.indexOf(b.family));
const ranges: string[] = [];
for (const [n, k] of kept.entries()) {
  const i = unique.indexOf(k.draft);
  const goError: Partial<Record<Version, string>> = {};
  for (const v of VERSIONS) {
    const a = answers[v][i]!;
    if (a.goError !== undefined && (a.expect === "parse-error" || a.expect === "eval-error")) goError[v] = cutError(a.goError);
  }
  const row: Record<string, unknown> = { id: `v-${n}`, kind: k.draft.kind, expr: k.draft.expr, datum: k.draft.datum, expect: k.expect };
  if (Object.keys(goError).length > 0) row.goError = goError;
  lines.push(JSON.stringify(row));
  if (n === 0 || kept[n - 1]!.family !== k.family) ranges.push(`${k.family} from v-${n}`);
}
const out = fileURLToPath(new URL("../../test/fixtures/targets/version-cases.jsonl", import.meta.url));
mkdirSync(fileURLToPath(new URL("../../test/fixtures/targets/", import.meta.url)), { recursive: true });
writeFileSync(out, lines.join("\n") + "\n");

console.log(`${kept.length} cases kept (${((Date.now() - started) / 1000).toFixed(0)} s), ${(lines.join("\n").length / 1e6).toFixed(2)} MB; ${ranges.join(", ")}`);
console.log(`dropped: ${[...dropped].map(([k, n]) => `${k} ${n}`).join(", ") || "none"}`);
for (const f of families) {
  const rows = kept.filter((k) => k.family === f).map((k) => k.expect);
  console.log(`\n${f} (${rows.length} cases)`);
  console.log(summarise(rows));
}
const panics = VERSIONS.map((v) => `${v} ${kept.filter((k) => answers[v][unique.indexOf(k.draft)]!.goError?.startsWith("panic: ")).length}`);
console.log(`\neval-errors that are recovered panics: ${panics.join(", ")}`);
console.log(`\nall (${kept.length} cases)`);
console.log(summarise(kept.map((k) => k.expect)));

// The library's replay of the parse budget against what 0.1.15 and 0.1.16 answered, on every case.
let agree = 0;
const disagree: string[] = [];
for (const k of kept) {
  const i = unique.indexOf(k.draft);
  for (const v of BUDGETED) {
    const d = replayDisagreement(k.draft.expr, v, answers[v][i]!.goError);
    if (d === undefined) agree++;
    else disagree.push(`${k.draft.expr.slice(0, 80)}: ${d}`);
  }
}
console.log(`\nbudget replay vs oracles (0.1.15, 0.1.16; every case): ${agree} agree, ${disagree.length} disagree`);
for (const d of disagree) console.log("  " + d);
const split = kept.filter((k) => k.draft.family === "budget" && k.expect["0.1.15"] !== k.expect["0.1.16"]).length;
console.log(`budget cases where 0.1.15 and 0.1.16 differ: ${split}; over 0.1.16's budget: ${kept.filter((k) => k.draft.family === "budget" && (predicted.get(k.draft.expr)?.["0.1.16"] ?? 0) > BUDGET).length}`);
