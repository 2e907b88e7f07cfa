/**
 * Generates the conformance cases of the allocation, node and evaluation schemas (issue 44) and
 * records go-bexpr 0.1.16's answers on the scheduler's structs (harness kinds `allocation`, `node`,
 * `evaluation`: structs.AllocListStub, structs.NodeListStub, structs.Evaluation, typed as in
 * nomad/structs) into test/fixtures/schemas44/schema-cases.jsonl. Deterministic for a seed: the same
 * drafts in the same order; the oracle decides every answer.
 *
 *   scripts/oracles/build.sh 0.1.16
 *   npx tsx scripts/oracles/schema-cases.ts [--seed 20260444] [--bin DIR] [--jobs 2] [--timeout 30] [--repeat 256] [--dry-run]
 *
 * Selectors are walked from the library's schemas (src/semantics/schema.ts), so every field of every
 * record is reached: through pointers, map keys (`web`, `db`, and a key no datum has) and list
 * indices. Families:
 *   match    every operator on every leaf (right literals, wrong-typed ones, big integers, enum
 *            values and near misses), on data where the path is present, zero, absent or nil
 *   shape    is nil / is empty / in / == on records, pointers, lists and maps; unknown fields and
 *            unexported ones; missing map keys at the end and in the middle
 *   collect  any/all over the lists and maps, in each binding form
 *   random   and/or/not of two of the above on one datum
 *
 * A draft is dropped when the oracle answers "bad-datum" (a generator bug), "unstable" (the answer
 * depends on the order Go visits a map's keys), "timeout" or "crash"; the run reports how many.
 * `matches` on the `[]uint8` fields of Topology is left out: go-bexpr matches their bytes, which the
 * library does not reproduce (see schema.ts, `topology`).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { schemas, type RecordType, type Type } from "../../src/semantics/schema.js";
import { askOracles, cutError, oracleCommandLine } from "./oracle.js";
import { Rng } from "./rng.js";

const args = oracleCommandLine({ timeout: "30", seed: "20260444" });

const rng = new Rng(args.seed);

type Kind = "allocation" | "node" | "evaluation";
const KINDS: readonly Kind[] = ["allocation", "node", "evaluation"];

// ---------------------------------------------------------------------------------------------------
// Go kinds narrower than 64 bits (the schema says only int/uint): data stays in their range.

/** Field names whose Go type is uint8 / uint16 / int8 (nomad/structs, numalib). */
const SMALL: Record<string, [number, number]> = {
  Nodes: [0, 255],
  Distances: [0, 255],
  BusAssociativity: [0, 255],
  SocketID: [0, 255],
  NodeID: [0, 255],
  TotalCpuCores: [0, 65535],
  ReservableCpuCores: [0, 65535],
  ReservedCores: [0, 65535],
  ReservedCpuCores: [0, 65535],
  Weight: [-128, 127],
};
/** Core.ID is a uint16 (the name ID is a string elsewhere). */
const smallRange = (field: string, type: Type): [number, number] | undefined => (field === "ID" && type.kind === "uint" ? [0, 65535] : SMALL[field]);

/** A number written as it stands in JSON (bigint keeps 64-bit values exact). */
type Num = number | bigint;

const KEYS = ["web", "db"] as const;
const STRINGS = ["", "web", "a", "running", "dc1", "ready", "x y"];

/** The string values a field may hold: its known values (and a near miss) or the common pool. */
function stringPool(type: Type): readonly string[] {
  const values = type.kind === "string" ? type.values : undefined;
  return values ? [...values, values[0]!.toUpperCase() || "X", ""] : STRINGS;
}

function numberFor(field: string, type: Type): Num {
  const small = smallRange(field, type);
  if (small) return rng.pick([small[0], small[1], 0, 1, 2, 7].filter((n) => n >= small[0] && n <= small[1]));
  if (type.kind === "float") return rng.pick([0, 1, 2.5, -0.5, 1e21, 3]);
  if (type.kind === "uint") return rng.pick<Num>([0, 1, 2, 7, 9007199254740993n, 18446744073709551615n]);
  return rng.pick<Num>([0, 1, -1, 2, 7, 9007199254740993n, 9223372036854775807n, -9223372036854775808n]);
}

const isTime = (type: Type) => type.kind === "record" && type.name === "Time";
const TIMES = ["2024-01-02T03:04:05Z", "0001-01-01T00:00:00Z", "2025-06-30T12:00:00.123456789+02:00"];

// ---------------------------------------------------------------------------------------------------
// Data: a random value of a type; `along` forces the steps of a selector to exist.

type Step = { field: string } | { key: string } | { index: number };

function value(type: Type, field: string, depth: number, along: readonly Step[] = []): unknown {
  const [step, ...rest] = along;
  switch (type.kind) {
    case "string":
      return rng.pick(stringPool(type));
    case "int":
    case "uint":
    case "float":
      return numberFor(field, type);
    case "bool":
      return rng.chance(0.5);
    case "any":
      return null;
    case "pointer":
      if (!step && rng.chance(0.3)) return null;
      return value(type.target, field, depth, along);
    case "list": {
      if (!step && rng.chance(0.2)) return rng.chance(0.5) ? null : [];
      const want = step && "index" in step ? step.index + 1 : 0;
      const n = Math.max(want, depth > 4 ? rng.int(2) : rng.int(3));
      return Array.from({ length: n }, (_, i) => value(type.elem, field, depth + 1, step && "index" in step && i === step.index ? rest : []));
    }
    case "map": {
      if (!step && rng.chance(0.2)) return rng.chance(0.5) ? null : {};
      const out: Record<string, unknown> = {};
      const forced = step && "key" in step ? step.key : undefined;
      for (const k of KEYS) if (k === forced || rng.chance(depth > 4 ? 0.3 : 0.5)) out[k] = value(type.value, field, depth + 1, k === forced ? rest : []);
      return out;
    }
    case "record": {
      if (isTime(type)) return rng.pick(TIMES);
      const out: Record<string, unknown> = {};
      const forced = step && "field" in step ? step.field : undefined;
      for (const [name, t] of Object.entries(type.fields)) {
        if (name === forced) out[name] = value(t, name, depth + 1, rest);
        else if (rng.chance(depth > 3 ? 0.25 : depth > 1 ? 0.4 : 0.6)) out[name] = value(t, name, depth + 1);
      }
      return out;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Selectors: every path of a schema, through pointers, map keys and list indices.

interface Path {
  readonly sel: string;
  readonly steps: readonly Step[];
  readonly type: Type; // pointers followed
  readonly field: string; // the last field name (for number ranges)
  readonly nilable: boolean; // behind a pointer at its end
}

const deref = (t: Type): Type => (t.kind === "pointer" ? deref(t.target) : t);

function paths(schema: RecordType): Path[] {
  const out: Path[] = [];
  const walk = (type: Type, sel: string, steps: Step[], field: string, depth: number, seen: ReadonlySet<string>) => {
    const t = deref(type);
    if (sel) out.push({ sel, steps, type: t, field, nilable: type.kind === "pointer" });
    if (depth > 8) return;
    if (t.kind === "record" && !isTime(t)) {
      if (seen.has(t.name) && t.name !== "NetworkResource") return; // PreemptedAllocs: one level of AllocListStub
      const inner = new Set(seen).add(t.name);
      for (const [name, f] of Object.entries(t.fields)) walk(f, sel ? `${sel}.${name}` : name, [...steps, { field: name }], name, depth + 1, inner);
    } else if (t.kind === "map") {
      const key = KEYS[depth % 2]!;
      walk(t.value, rng.chance(0.3) ? `${sel}["${key}"]` : `${sel}.${key}`, [...steps, { key }], field, depth + 1, seen);
    } else if (t.kind === "list") {
      walk(t.elem, `${sel}.0`, [...steps, { index: 0 }], field, depth + 1, seen);
    }
  };
  walk(schema, "", [], "", 0, new Set());
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Expressions

const quote = (s: string) => JSON.stringify(s);

/** Number literals: right, wrong-typed, out of range, other bases. */
const NUMBER_LITERALS = ["0", "1", "-1", "7", "2.5", "9007199254740993", "18446744073709551615", "9223372036854775807", "-9223372036854775808", "18446744073709551616", '"0x10"', '"1_0"', "abc", '"true"', "255", "256", "-129"];

function leafMatches(p: Path): string[] {
  const s = p.sel;
  const t = p.type;
  switch (t.kind) {
    case "string": {
      const pool = stringPool(t);
      const v = rng.pick(pool);
      return [
        `${s} == ${quote(v)}`,
        `${s} != ${quote(rng.pick(pool))}`,
        `${s} == ${rng.pick(["running", "web", "1", "true"])}`,
        `${s} contains ${quote(rng.pick(["", "a", "un", "web"]))}`,
        `${quote(rng.pick(["e", "b", ""]))} in ${s}`,
        `${s} not contains "z"`,
        `${s} matches ${quote(rng.pick(["^r", "^$", "(?i)WEB", "[", "a|b"]))}`,
        `${s} not matches "^w"`,
        `${s} is empty`,
        `${s} is not empty`,
        `${s} is nil`,
        `${s} == 1`,
      ];
    }
    case "int":
    case "uint":
    case "float":
      return [
        `${s} == ${rng.pick(NUMBER_LITERALS)}`,
        `${s} != ${rng.pick(NUMBER_LITERALS)}`,
        `${s} == ${rng.pick(NUMBER_LITERALS)}`,
        `${s} == 0`,
        `${s} is empty`,
        `${s} is nil`,
        `${s} matches "1"`,
        `1 in ${s}`,
      ];
    case "bool":
      return [`${s} == true`, `${s} != false`, `${s} == ${rng.pick(["1", "T", "FALSE", "yes", '"t"', "0"])}`, `${s} is nil`, `${s} is empty`, `${s} contains true`];
    case "list": {
      const e = deref(t.elem);
      const lit = e.kind === "string" ? quote(rng.pick(stringPool(e))) : e.kind === "bool" ? "true" : rng.pick(["0", "1", "7", "255", "abc", "-1"]);
      const out = [`${lit} in ${s}`, `${lit} not in ${s}`, `${s} contains ${lit}`, `${s} is empty`, `${s} is not empty`, `${s} is nil`, `${s} is not nil`, `${s} == 1`];
      if (e.kind === "string" && !s.includes("Topology")) out.push(`${s} matches "a"`);
      return out;
    }
    case "map":
      return [`"web" in ${s}`, `"nope" not in ${s}`, `${s} contains "db"`, `${s} is empty`, `${s} is not empty`, `${s} is nil`, `${s} is not nil`, `${s} == web`, `${s}.nope == 1`, `${s}.nope is nil`, `${s}.nope.X == 1`];
    case "record":
      return [`${s} is nil`, `${s} is not nil`, `${s} is empty`, `${s} == x`, `"a" in ${s}`, `${s}.Nope == 1`, `${s}.nope is nil`, `${s} matches "a"`];
    default:
      return [];
  }
}

/** any/all over a list or map path, in each binding form. */
function collections(p: Path): string[] {
  const s = p.sel;
  const t = p.type;
  if (t.kind !== "list" && t.kind !== "map") return [`any ${s} as v { v == 1 }`];
  const elem = deref(t.kind === "list" ? t.elem : t.value);
  const inner = (v: string): string => {
    switch (elem.kind) {
      case "string":
        return `${v} == ${quote(rng.pick(stringPool(elem)))}`;
      case "int":
      case "uint":
      case "float":
        return `${v} == ${rng.pick(["0", "1", "7", "2.5", "abc"])}`;
      case "bool":
        return `${v} == true`;
      case "record": {
        const fields = Object.keys(elem.fields);
        return fields.length ? `${v}.${rng.pick(fields)} is ${rng.pick(["empty", "nil", "not nil"])}` : `${v} is nil`;
      }
      default:
        return `${v} is empty`;
    }
  };
  const out = [`any ${s} as v { ${t.kind === "list" ? inner("v") : 'v == "web"'} }`, `all ${s} as _, v { ${inner("v")} }`, `all ${s} as k, v { ${inner("v")} or k == "db" }`, `any ${s} as i, _ { i == ${t.kind === "list" ? "0" : "web"} }`];
  if (rng.chance(0.3)) out.push(`any ${s} as v, v { v == 1 }`);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Drafts

interface Draft {
  readonly family: string;
  readonly kind: Kind;
  readonly expr: string;
  readonly datum: unknown;
}
const drafts: Draft[] = [];

/** A datum for a path: present (forced), or left to chance (often absent, zero or nil). */
const datumFor = (kind: Kind, p: Path | undefined) => value(schemas[kind], "", 0, p && rng.chance(0.75) ? p.steps : []);

for (const kind of KINDS) {
  const all = paths(schemas[kind]);
  for (const p of all) {
    if (isTime(p.type)) {
      for (const e of [`${p.sel} is nil`, `${p.sel} is not nil`, `${p.sel} == ${quote(TIMES[0]!)}`, `${p.sel} is empty`, `"2024" in ${p.sel}`, `${p.sel}.wall == 1`, `${p.sel} matches "2024"`])
        drafts.push({ family: "shape", kind, expr: e, datum: datumFor(kind, p) });
      continue;
    }
    const ms = leafMatches(p);
    // The deeper a path, the fewer of its matches (the leaves of the nested records are many).
    const keep = p.steps.length <= 2 ? ms.length : p.steps.length <= 4 ? 4 : 2;
    for (let i = 0; i < keep && ms.length; i++) {
      const m = ms.splice(p.steps.length <= 2 ? 0 : rng.int(ms.length), 1)[0]!;
      drafts.push({ family: p.type.kind === "record" || p.type.kind === "map" || p.type.kind === "list" ? "shape" : "match", kind, expr: m, datum: datumFor(kind, p) });
    }
    if (p.type.kind === "list" || p.type.kind === "map") {
      const cs = collections(p);
      for (const c of p.steps.length <= 3 ? cs : [rng.pick(cs)]) drafts.push({ family: "collect", kind, expr: c, datum: datumFor(kind, p) });
    }
  }
  // Unknown and unexported top-level fields, the api package's names, a field of the other schemas.
  for (const e of ["Nope == 1", "_struct == true", '"/_struct" == true', 'ID["x"] == 1', "id == x", "JobSummary is nil", "Job.Name == x", "nodeScoreMeta is nil", "ID.0 == a", '"/ID" == ""'])
    drafts.push({ family: "shape", kind, expr: e, datum: datumFor(kind, undefined) });
  // Random combinations of two matches on one datum.
  for (let n = 0; n < 120; n++) {
    const a = rng.pick(all);
    const b = rng.pick(all);
    const ea = rng.pick(isTime(a.type) ? [`${a.sel} is nil`] : leafMatches(a));
    const eb = rng.pick(isTime(b.type) ? [`${b.sel} is not nil`] : leafMatches(b));
    if (!ea || !eb) continue;
    const op = rng.pick(["and", "or"]);
    const expr = rng.chance(0.3) ? `not (${ea}) ${op} ${eb}` : rng.chance(0.5) ? `(${ea}) ${op} not ${eb}` : `${ea} ${op} ${eb}`;
    drafts.push({ family: "random", kind, expr, datum: value(schemas[kind], "", 0, rng.chance(0.5) ? a.steps : b.steps) });
  }
}

// ---------------------------------------------------------------------------------------------------
// JSON with exact big integers

function toJson(v: unknown): string {
  if (typeof v === "bigint") return v.toString();
  if (Array.isArray(v)) return `[${v.map(toJson).join(",")}]`;
  if (v !== null && typeof v === "object") return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(",")}}`;
  return JSON.stringify(v);
}

const seen = new Set<string>();
const unique = drafts.filter((d) => {
  if (/Topology\.(Nodes|Distances)/.test(d.expr) && /matches/.test(d.expr)) return false;
  const key = `${d.kind}\u0000${d.expr}\u0000${toJson(d.datum)}`;
  if (seen.has(key)) return false;
  seen.add(key);
  return true;
});

if (args.dryRun) {
  for (const k of KINDS) console.log(k, unique.filter((d) => d.kind === k).length);
  for (const f of ["match", "shape", "collect", "random"]) console.log(f, unique.filter((d) => d.family === f).length);
  console.log("drafts", unique.length, "bytes", unique.reduce((s, d) => s + d.expr.length + toJson(d.datum).length, 0));
  process.exit(0);
}

const answers = await askOracles(
  unique.map((d, i) => `{"id":${i},"kind":${JSON.stringify(d.kind)},"expr":${JSON.stringify(d.expr)},"datum":${toJson(d.datum)}}`),
  args.oracle,
  ["0.1.16"],
);
process.stderr.write("\n");

const dropped: Record<string, number> = {};
const lines: string[] = [];
unique.forEach((d, i) => {
  const a = answers["0.1.16"][i]!;
  if (!["true", "false", "parse-error", "eval-error"].includes(a.expect)) {
    dropped[a.expect] = (dropped[a.expect] ?? 0) + 1;
    if (a.expect === "bad-datum") console.error("bad datum:", d.expr, a.goError);
    return;
  }
  const id = `s44-${lines.length}`;
  const goError = a.goError === undefined ? "" : `,"goError":${JSON.stringify(cutError(a.goError))}`;
  lines.push(`{"id":${JSON.stringify(id)},"kind":${JSON.stringify(d.kind)},"family":${JSON.stringify(d.family)},"expr":${JSON.stringify(d.expr)},"datum":${toJson(d.datum)},"expect":${JSON.stringify(a.expect)}${goError}}`);
});

const out = fileURLToPath(new URL("../../test/fixtures/schemas44/schema-cases.jsonl", import.meta.url));
mkdirSync(fileURLToPath(new URL("../../test/fixtures/schemas44/", import.meta.url)), { recursive: true });
writeFileSync(out, lines.join("\n") + "\n");
const count = (pred: (l: string) => boolean) => lines.filter(pred).length;
console.log(`wrote ${lines.length} cases to ${out}; dropped ${JSON.stringify(dropped)}`);
for (const k of KINDS) console.log(k, count((l) => l.includes(`"kind":"${k}"`)));
for (const e of ["true", "false", "parse-error", "eval-error"]) console.log(e, count((l) => l.includes(`"expect":"${e}"`)));
