/**
 * The `unknown-value` warning: a string field whose schema lists its values, compared with a text that
 * is none of them. Through the public API: `diagnose` (its warnings and fixes), `compile` (unchanged
 * by the values: a warning never changes an answer) and `quote`.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyFix, compile, diagnose, fixAll, quote, schemas, schemaFromJson, t, type Schema, type Type } from "../../src/index.js";
import { runs } from "../support/runs.js";

const job = { schema: schemas.job };
const deployment = { schema: schemas.deployment };

/** A record of one's own: a list of records with known values (read through a bound name), a list of them. */
const node = t.record("Node", {
  Name: t.string,
  Links: t.list(t.record("Link", { State: t.enumString(["up", "down", "flapping"]) })),
  Roles: t.list(t.enumString(["server", "client"])),
  Zone: t.pointer(t.enumString(["eu-west", "us-east"])),
});

const unknownValues = (text: string, options: { schema?: Schema } = job) => diagnose(text, options).filter((d) => d.code === "unknown-value");

describe("schemas know the values the scheduler defines", () => {
  it("job Status and Type, deployment Status; the other string fields stay open", () => {
    const values = (type: Type | undefined) => (type?.kind === "string" ? type.values : undefined);
    expect(values(schemas.job.fields.Status)).toEqual(["pending", "running", "dead"]);
    expect(values(schemas.job.fields.Type)).toEqual(["service", "batch", "system", "sysbatch"]);
    expect(values(schemas.deployment.fields.Status)).toEqual(["running", "paused", "failed", "successful", "cancelled", "initializing", "pending", "blocked", "unblocking"]);
    for (const name of ["ID", "Name", "Namespace", "ParentID", "StatusDescription"]) expect(values(schemas.job.fields[name]), name).toBeUndefined();
    expect(values(schemas.deployment.fields.StatusDescription)).toBeUndefined();
  });

  it("allocation, node and evaluation: the statuses, eligibility, triggers and types of nomad/structs", () => {
    const values = (type: Type | undefined) => (type?.kind === "string" ? type.values : undefined);
    expect(values(schemas.allocation.fields.ClientStatus)).toEqual(["pending", "running", "complete", "failed", "lost", "unknown"]);
    expect(values(schemas.allocation.fields.DesiredStatus)).toEqual(["run", "stop", "evict"]);
    expect(values(schemas.node.fields.Status)).toEqual(["initializing", "ready", "down", "disconnected"]);
    expect(values(schemas.node.fields.SchedulingEligibility)).toEqual(["eligible", "ineligible"]);
    expect(values(schemas.evaluation.fields.Status)).toEqual(["blocked", "pending", "complete", "failed", "canceled"]);
    expect(values(schemas.evaluation.fields.Type)).toContain("_core");
    expect(values(schemas.evaluation.fields.TriggeredBy)).toHaveLength(18);
    for (const name of ["ID", "NodeID", "TaskGroup", "ClientDescription"]) expect(values(schemas.allocation.fields[name]), name).toBeUndefined();
    expect(unknownValues('ClientStatus == "Running"', { schema: schemas.allocation }).map((d) => d.fixes[0]?.title)).toEqual(['write "running"']);
    expect(unknownValues('Status == "cancelled"', { schema: schemas.evaluation }).map((d) => d.fixes[0]?.title)).toEqual(['write "canceled"']);
    expect(unknownValues('any TaskStates as _, s { s.State == "runing" }', { schema: schemas.allocation })).toHaveLength(1);
    expect(unknownValues("Status == ready and SchedulingEligibility == eligible", { schema: schemas.node })).toEqual([]);
  });

  it("t.enumString wants distinct values, at least one; schemaFromJson reads {\"enum\": [...]} as it", () => {
    expect(() => t.enumString([])).toThrow(RangeError);
    expect(() => t.enumString(["a", "a"])).toThrow(RangeError);
    expect(schemaFromJson({ fields: { S: { enum: ["a", "b"] } } }).fields.S).toEqual(t.enumString(["a", "b"]));
  });
});

describe("diagnose: unknown-value", () => {
  it.each([
    ['Status == "RUNNING"', 'Status == "running"'],
    ["Status == RUNNING", "Status == running"],
    ["Status != `Dead`", "Status != `dead`"],
    ['Type == "SysBatch"', 'Type == "sysbatch"'],
    ['Status == "runing"', 'Status == "running"'],
    ['Status == "/RUNNING"', 'Status == "running"'],
    ['"RUN" in Status', '"run" in Status'],
    ['Status not contains "Pend"', 'Status not contains "pend"'],
  ])("job: %s → %s", (text, expected) => {
    const [w] = unknownValues(text);
    expect(w, text).toMatchObject({ severity: "warning" });
    expect(applyFix(text, w!.fixes[0]!)).toBe(expected);
    expect(diagnose(expected, job)).toEqual([]);
  });

  it.each([
    ['any Links as l { l.State == "UP" }', 'any Links as l { l.State == "up" }'],
    ['all Links as i, l { l.State != Down }', "all Links as i, l { l.State != down }"],
    ['"Server" in Roles', '"server" in Roles'],
    ["Roles not contains CLIENT", "Roles not contains client"],
    ['Zone == "EU-West"', 'Zone == "eu-west"'],
  ])("a schema of one's own, through bound names, lists and pointers: %s → %s", (text, expected) => {
    const [w] = unknownValues(text, { schema: node });
    expect(w, text).toBeDefined();
    expect(applyFix(text, w!.fixes[0]!)).toBe(expected);
    expect(diagnose(expected, { schema: node })).toEqual([]);
  });

  it("the deployment's Status", () => {
    expect(fixAll('Status == "Failed" or Status == "canceled"', deployment).text).toBe('Status == "failed" or Status == "cancelled"');
  });

  it("names the values when no fix is near, and says what the comparison does", () => {
    const [eq] = unknownValues('Status == "stopped"');
    expect(eq).toMatchObject({ severity: "warning", span: { start: 10, end: 19 }, fixes: [] });
    expect(eq!.message).toBe('"stopped" is not one of the values Status takes ("pending", "running", "dead"): this matches no record whose Status is one of them');
    expect(unknownValues('Status != "stopped"')[0]!.message).toContain("this holds for every record whose Status is one of them");
    expect(unknownValues('"xyz" in Status')[0]!.message).toBe('no value Status takes ("pending", "running", "dead") contains "xyz": this matches no record whose Status is one of them');
    expect(unknownValues('"gone" not in Roles', { schema: node })[0]!.message).toContain("this holds for every record whose Roles holds only them");
  });

  it("keeps the literal's form: a bare word stays bare only where it reads as plain text; quote writes the rest", () => {
    const s = t.record("S", { Kind: t.enumString(["a b", "Kind", "x`y"]), Other: t.string });
    const fix = (text: string) => applyFix(text, unknownValues(text, { schema: s })[0]!.fixes[0]!);
    expect(fix("Kind == A_b")).toBe('Kind == "a b"');
    expect(fix("Kind == kind")).toBe('Kind == "Kind"'); // the bare word Kind would be the field's name
    expect(fix('Kind == "X`Y"')).toBe(`Kind == ${quote("x`y")}`);
  });

  it("is silent for a listed value, an open field, no schema, matches, the empty text and warnings: false", () => {
    const quiet = [
      ...statusValues(schemas.job).map((v) => `Status == "${v}"`),
      'Type == "batch" and "run" in Status and Status contains "ead"',
      'Name == "RUNNING" and Namespace != "X" and "DC1" in Datacenters and ParentID contains "Q"',
      'Status matches "RUNNING" and Status not matches "^x$"',
      "Status is empty and Status == ``",
    ];
    for (const text of quiet) expect(diagnose(text, job), text).toEqual([]);
    for (const v of statusValues(schemas.deployment)) expect(diagnose(`Status == ${v} or "${v}" in Status`, deployment), v).toEqual([]);
    expect(diagnose('Status == "RUNNING"')).toEqual([]);
    expect(diagnose('Status == "RUNNING"', { ...job, warnings: false })).toEqual([]);
  });

  it("leaves a bare word that names a field to word-is-selector", () => {
    expect(diagnose("Status == Name", job).map((d) => d.code)).toEqual(["word-is-selector"]);
  });
});

/** The schema with every string's values dropped: what compile answered before schemas knew values. */
function open<T extends Type>(type: T): T {
  switch (type.kind) {
    case "string":
      return t.string as T;
    case "list":
      return t.list(open(type.elem)) as T;
    case "map":
      return t.map(open(type.value)) as T;
    case "pointer":
      return t.pointer(open(type.target)) as T;
    case "record":
      return t.record(type.name, Object.fromEntries(Object.entries(type.fields).map(([k, v]) => [k, open(v)]))) as T;
    default:
      return type;
  }
}

/** Where a known value is compared: the filter around a literal, and the texts a datum puts there. */
interface Site {
  readonly schema: Schema;
  readonly values: readonly string[];
  readonly ops: readonly string[];
  readonly filter: (op: string, literal: string) => string;
  readonly datum: (texts: readonly string[]) => unknown;
  /** The texts of `datum(texts)` the filter compares with the literal. */
  readonly reads: (texts: readonly string[]) => readonly string[];
}

const statusValues = (schema: Schema) => (schema.fields.Status as { values: readonly string[] }).values;
const SITES: readonly Site[] = [
  { schema: schemas.job, values: statusValues(schemas.job), ops: ["==", "!="], filter: (op, l) => `Status ${op} ${l}`, datum: ([s]) => ({ Status: s }), reads: ([s]) => [s!] },
  { schema: schemas.job, values: ["service", "batch", "system", "sysbatch"], ops: ["==", "!="], filter: (op, l) => `Priority == 50 or Type ${op} ${l}`, datum: ([s]) => ({ Type: s, Priority: 1 }), reads: ([s]) => [s!] },
  { schema: schemas.deployment, values: statusValues(schemas.deployment), ops: ["==", "!="], filter: (op, l) => `not (Status ${op} ${l})`, datum: ([s]) => ({ Status: s }), reads: ([s]) => [s!] },
  { schema: node, values: ["up", "down", "flapping"], ops: ["==", "!="], filter: (op, l) => `any Links as l { l.State ${op} ${l} }`, datum: (ss) => ({ Links: ss.map((s) => ({ State: s })) }), reads: (ss) => ss },
  { schema: node, values: ["server", "client"], ops: ["in", "not in"], filter: (op, l) => `${l} ${op} Roles`, datum: (ss) => ({ Roles: ss }), reads: (ss) => ss },
];

/** A case variant of `v` that differs from it. */
const variantOf = (v: string) =>
  fc
    .array(fc.boolean(), { minLength: v.length, maxLength: v.length })
    .map((flips) => [...v].map((c, i) => (flips[i] ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join(""))
    .filter((x) => x !== v);

/** The literal of `text` in a form: a bare word, backticks or double quotes. */
const write = (form: "word" | "backticks" | "quoted", text: string) => (form === "word" ? text : form === "backticks" ? `\`${text}\`` : quote(text));

describe("the unknown-value fix, for every known value and every case variant of it", () => {
  it("removes the warning; the fixed filter answers as the value written with quote; the original differs from it only where a text equals the value up to case, and answers on the known values as if none matched", () => {
    const scenario = fc
      .record({ site: fc.constantFrom(...SITES), form: fc.constantFrom("word" as const, "backticks" as const, "quoted" as const), i: fc.nat(), o: fc.nat() })
      .chain(({ site, form, i, o }) => {
        const v = site.values[i % site.values.length]!;
        const op = site.ops[o % site.ops.length]!;
        const text = fc.oneof(fc.constantFrom(...site.values), variantOf(v), fc.constantFrom(v.toUpperCase(), ""), fc.string({ maxLength: 6 }));
        return fc.record({ site: fc.constant(site), form: fc.constant(form), v: fc.constant(v), op: fc.constant(op), variant: variantOf(v), data: fc.array(fc.array(text, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }) });
      });
    fc.assert(
      fc.property(scenario, ({ site, form, v, op, variant, data }) => {
        const options = { schema: site.schema };
        const original = site.filter(op, write(form, variant));
        const found = diagnose(original, options);
        expect(found.map((d) => d.code), original).toEqual(["unknown-value"]);
        const fix = found[0]!.fixes[0];
        expect(fix, original).toBeDefined();
        const fixedText = applyFix(original, fix!);
        expect(fixedText).toBe(site.filter(op, write(form, v)));
        expect(diagnose(fixedText, options)).toEqual([]);

        const fixed = compile(fixedText, options);
        const quoted = compile(site.filter(op, quote(v)), options);
        const before = compile(original, options);
        const unchanged = compile(original, { schema: open(site.schema) });
        const none = compile(site.filter(op, quote("\u0001none")), options);
        for (const texts of data) {
          const d = site.datum(texts);
          const reads = site.reads(texts);
          expect(fixed.evaluate(d)).toBe(quoted.evaluate(d));
          expect(before.evaluate(d)).toBe(unchanged.evaluate(d));
          if (!reads.some((s) => s.toLowerCase() === v.toLowerCase())) expect(before.evaluate(d), `${original} on ${JSON.stringify(d)}`).toBe(fixed.evaluate(d));
          if (reads.every((s) => site.values.includes(s))) expect(before.evaluate(d)).toBe(none.evaluate(d));
        }
      }),
      { numRuns: runs(300) },
    );
  });
});
