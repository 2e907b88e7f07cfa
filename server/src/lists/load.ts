import { RECORD_LISTS, zeroOf, type Snapshot } from "./records.js";
import type { Deployment, DeploymentState, JobListEntry, JobRecord, JobSummary, TaskGroupSummary } from "./records.js";
import { sortedBy } from "./orders.js";
import { endpointOf, jobsEndpoint, type ListEndpoint } from "./endpoints.js";
import { schemas, type RecordType, type Type } from "filter-expr";
import { isObj, plainMap, type Obj } from "../object.js";
import { splitArrayMember } from "./json-spans.js";
import { literalOf, parseJson, sourceOf, textLiterals, textLiteralsWithin, writtenAsFraction, type TextLiterals } from "./json-literals.js";
import { makeStorable, utf8Bytes } from "./decode.js";
import { MAX_JOB_DEPTH } from "./register.js";
import { JOB_LIMITS, MAX_INTEGER, NAMESPACE_NAME } from "./job-limits.js";

/** A --data file that does not hold what it should. */
export class DataFileError extends Error {}

/**
 * One copy of each short string a load reads (statuses, types, namespaces, datacenters repeat in every
 * record): less memory, and a scan that compares them reads fewer places. Bounded: past `capacity`
 * distinct strings, new ones are kept as they are.
 */
export class Interner {
  private readonly seen = new Map<string, string>();

  constructor(
    private readonly capacity = 65_536,
    private readonly maxLength = 64,
  ) {}

  get(s: string): string {
    if (s.length > this.maxLength) return s;
    const held = this.seen.get(s);
    if (held !== undefined) return held;
    if (this.seen.size < this.capacity) this.seen.set(s, s);
    return s;
  }
}

/**
 * The values an integer field may hold: Go's int64 for the scheduler's counts, priorities and times;
 * a JavaScript safe integer for an index the server counts on from there (`index + 1` must be exact);
 * what the PostgreSQL store's `integer` column holds for a job's version.
 */
interface IntRange {
  /** "an integer", "an unsigned integer": what a value of another type is told it should be. */
  readonly kind: string;
  readonly min: bigint;
  readonly max: bigint;
  /** The same bounds as numbers (exact for a safe integer's comparison). */
  readonly minNumber: number;
  readonly maxNumber: number;
  /** Doubles surely within the range, whatever literal they were read from (none for a range within the safe integers). */
  readonly surely: (v: number) => boolean;
}

/** Doubles this far inside int64's bounds are in it whatever they were written as (their spacing there is 2,048). */
const INT64_MARGIN = 2 ** 63 - 4096;

function intRange(kind: string, min: bigint, max: bigint, surely: (v: number) => boolean): IntRange {
  return { kind, min, max, minNumber: Number(min), maxNumber: Number(max), surely };
}

const INT64 = intRange("an integer", -(2n ** 63n), 2n ** 63n - 1n, (v) => Math.abs(v) <= INT64_MARGIN);
const INDEX = intRange("an unsigned integer", 0n, BigInt(MAX_INTEGER), () => false);
const VERSION = intRange("an unsigned integer", 0n, 2n ** 31n - 1n, () => false);

/** Whether `v` (an integer) lies in `range`: as a number when it is a safe integer, else exactly. */
function within(v: number | bigint, range: IntRange): boolean {
  if (typeof v === "number" && Number.isSafeInteger(v)) return v >= range.minNumber && v <= range.maxNumber;
  const exact = BigInt(v);
  return exact >= range.min && exact <= range.max;
}

/** How a string field is bounded: its longest length in UTF-8 bytes (a PostgreSQL index entry holds about 2.7 kB). */
interface TextBound {
  /** an ID: no other record shares it, so it is not interned */
  readonly unique?: boolean;
  readonly maxBytes?: number;
}

/** The job's and deployment's identifiers (indexed by the PostgreSQL store): registration's bound. */
const ID: TextBound = { unique: true, maxBytes: JOB_LIMITS.idBytes };
/** Names, statuses and types the PostgreSQL store indexes: registration's bound for names. */
const INDEXED: TextBound = { maxBytes: JOB_LIMITS.nameBytes };

class Reader {
  /** `literals`: the number literals of `o` as written (json-literals.ts), when its text is known. */
  constructor(
    private readonly o: Obj,
    private readonly where: string,
    readonly interner: Interner,
    private readonly literals?: TextLiterals,
  ) {}

  fail(key: string, what: string): never {
    throw new DataFileError(`${this.where}.${key}: expected ${what}`);
  }

  /** A reader of the object at `key` (which `obj` read), at `where`. */
  reader(o: Obj, key: string, where: string): Reader {
    return new Reader(o, where, this.interner, textLiteralsWithin(this.literals, key));
  }

  /** The value at `key` as parsed. */
  raw(key: string): unknown {
    return this.o[key];
  }

  /** The literals of the member `key`, for a reader of what it holds. */
  literalsOf(key: string): TextLiterals | undefined {
    return textLiteralsWithin(this.literals, key);
  }

  /** The string at `key`, within `bound`; interned unless it is unique. */
  str(key: string, bound: TextBound = {}): string {
    const v = this.o[key];
    if (v === undefined || v === null) return "";
    if (typeof v !== "string") this.fail(key, "a string");
    if (bound.maxBytes !== undefined && v.length > bound.maxBytes / 3) {
      const bytes = utf8Bytes(v);
      if (bytes > bound.maxBytes) this.fail(key, `a string of at most ${bound.maxBytes} bytes, not ${bytes}`);
    }
    return bound.unique === true ? v : this.interner.get(v);
  }

  /**
   * The integer at `key`, within `range`: written as Go's decoder reads an integer (no fraction, no
   * exponent: `1.0` is refused), its value judged exactly (a long literal is read as written, not as
   * the double it parses to).
   */
  int(key: string, range: IntRange = INT64): number {
    const v = this.o[key];
    if (v === undefined || v === null) return 0;
    if (typeof v !== "number") this.fail(key, range.kind);
    // The common case, at once: a safe integer within the range, written as one.
    const written = this.literals?.written;
    if (Number.isSafeInteger(v) && v >= range.minNumber && v <= range.maxNumber && (written === undefined || literalOf(written, key) === undefined)) return v;
    return this.unusualInt(key, v, range);
  }

  /** `int` of any other number `v`. */
  private unusualInt(key: string, v: number, range: IntRange): number {
    let literal = literalOf(this.literals?.written, key);
    if (literal === undefined && Number.isInteger(v)) {
      if (range.surely(v)) return v;
      // Past the safe integers a double may not be what was written: near a bound, the literal decides.
      if (!Number.isSafeInteger(v)) literal = literalOf(this.literals?.all(), key);
    }
    const shown = literal ?? String(v);
    const fraction = literal !== undefined && writtenAsFraction(literal);
    if (!Number.isInteger(v)) this.fail(key, `${range.kind}, not ${shown}`);
    if (!within(literal === undefined || fraction ? v : BigInt(literal), range)) {
      this.fail(key, `${range.kind} ${range.min === 0n ? `up to ${range.max}` : `between ${range.min} and ${range.max}`}, not ${shown}`);
    }
    if (fraction) this.fail(key, `${range.kind}, not ${shown}`);
    // The value is held (and answered) as a double: one rounded past the range would be out of it.
    if (!within(BigInt(v), range)) this.fail(key, `${range.kind} up to ${range.max} as a double holds it, not ${shown} (held as ${BigInt(v)})`);
    return v;
  }

  /** The namespace at `key` ("" or absent: "default"), which must be one the scheduler could create. */
  namespace(key: string): string {
    const namespace = this.str(key) || "default";
    if (!NAMESPACE_NAME.test(namespace)) this.fail(key, `a namespace name matching ${NAMESPACE_NAME.source}, not ${JSON.stringify(namespace.slice(0, 140))}${namespace.length > 140 ? "…" : ""}`);
    return namespace;
  }

  bool(key: string): boolean {
    const v = this.o[key];
    if (v === undefined || v === null) return false;
    return typeof v === "boolean" ? v : this.fail(key, "a boolean");
  }

  strings(key: string): string[] | null {
    const v = this.o[key];
    if (v === undefined || v === null) return null;
    if (!Array.isArray(v) || !v.every((s) => typeof s === "string")) this.fail(key, "a list of strings");
    return v.map((s: string) => this.interner.get(s));
  }

  obj(key: string): Obj | null {
    const v = this.o[key];
    if (v === undefined || v === null) return null;
    return isObj(v) ? v : this.fail(key, "an object");
  }

  /**
   * Fields not in the seed's list are kept as they are, as own properties of `target` (defined, not
   * assigned: a key `__proto__` stays a key).
   */
  extras<T extends object>(target: T, known: ReadonlySet<string>): T {
    for (const k of Object.keys(this.o)) {
      if (!known.has(k)) Object.defineProperty(target, k, { value: this.o[k], enumerable: true, writable: true, configurable: true });
    }
    return target;
  }
}

const JOB_FIELDS = new Set(["CreateIndex", "Datacenters", "ID", "JobModifyIndex", "JobSummary", "ModifyIndex", "Multiregion", "Name", "Namespace", "ParameterizedJob", "ParentID", "Periodic", "Priority", "Status", "StatusDescription", "Stop", "SubmitTime", "Type"]);
const DEPLOYMENT_FIELDS = new Set(["CreateIndex", "EvalPriority", "ID", "IsMultiregion", "JobCreateIndex", "JobID", "JobModifyIndex", "JobSpecModifyIndex", "JobVersion", "ModifyIndex", "Namespace", "Status", "StatusDescription", "TaskGroups"]);

const UINT64 = intRange("an unsigned integer", 0n, 2n ** 64n - 1n, (v) => v >= 0 && v <= 2 ** 64 - 4096);
/** Go's `time.RFC3339` as `time.Time`'s JSON decoder reads it (an optional fraction of up to 9 digits). */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;

/** Whether the scheduler's client reads `text` as a time: RFC 3339, every field within its range. */
function isRfc3339(text: string): boolean {
  const m = RFC3339.exec(text);
  if (m === null) return false;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = m.slice(1).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number, number, number];
  // The month's last day (setUTCFullYear: years below 100 are not taken for 19xx).
  const last = new Date(0);
  last.setUTCFullYear(year, month, 0);
  return month >= 1 && month <= 12 && day >= 1 && day <= last.getUTCDate() && hour < 24 && minute < 60 && second < 60 && offsetHours < 24 && offsetMinutes < 60;
}

/**
 * The value at `key` of `r`'s object (or array) as a value of `type`, the Go kind the scheduler's
 * struct gives it: absent or null is the kind's zero value (`zeroOf`: `""`, 0, false, null for a nil
 * slice, map or pointer, a struct of zero values, null for the zero time as the scheduler writes it); a
 * value of another kind is the file's mistake.
 */
function typedValue(r: Reader, key: string, type: Type, where: string): unknown {
  const v = r.raw(key);
  if (v === undefined || v === null) return zeroOf(type);
  switch (type.kind) {
    case "string":
      return r.str(key);
    case "int":
      return r.int(key);
    case "uint":
      return r.int(key, UINT64);
    case "float":
      return typeof v === "number" ? v : r.fail(key, "a number");
    case "bool":
      return r.bool(key);
    case "any":
      return v;
    case "pointer":
      return typedValue(r, key, type.target, where);
    case "list": {
      if (!Array.isArray(v)) return r.fail(key, "a list");
      const inner = r.reader(v as unknown as Obj, key, `${where}.${key}`);
      return v.map((_, i) => typedValue(inner, String(i), type.elem, `${where}.${key}`));
    }
    case "map": {
      const o = r.obj(key)!;
      const inner = r.reader(o, key, `${where}.${key}`);
      return plainMap(Object.keys(o).map((k) => [k, typedValue(inner, k, type.value, `${where}.${key}`)] as const));
    }
    case "record":
      // time.Time: no field go-bexpr reads; on the wire an RFC 3339 text.
      if (Object.keys(type.fields).length === 0) {
        return typeof v === "string" && isRfc3339(v) ? v : r.fail(key, `a time (RFC 3339 text)${typeof v === "string" ? `, not ${JSON.stringify(v.slice(0, 40))}` : ""}`);
      }
      return typedRecord(r.reader(r.obj(key)!, key, `${where}.${key}`), type, `${where}.${key}`);
  }
}

/** `r`'s object as a `type` record: each of its fields typed (`typedValue`), in the schema's order, then the fields the schema does not name as they are. */
function typedRecord(r: Reader, type: RecordType, where: string): Obj {
  const out: Obj = {};
  for (const [name, field] of Object.entries(type.fields)) {
    Object.defineProperty(out, name, { value: typedValue(r, name, field, where), enumerable: true, writable: true, configurable: true });
  }
  return r.extras(out, new Set(Object.keys(type.fields)));
}

/**
 * A record of a data file's `allocations`, `nodes` or `evaluations`, read against its schema in the
 * library (`typedRecord`: the scheduler's struct, field for field and kind for kind) within the bounds
 * every store holds: a non-empty ID of at most `JOB_LIMITS.idBytes`, the fields the PostgreSQL store
 * indexes (`textIndexed`) of at most `JOB_LIMITS.nameBytes`, indexes a safe integer; an absent
 * `Namespace` is "default", as a job's.
 */
function normalizeListRecord(raw: unknown, where: string, endpoint: ListEndpoint<unknown>, interner: Interner, literals: TextLiterals | undefined): Obj {
  const r = new Reader(storableRecord(raw, where), where, interner, literals);
  const id = r.str("ID", ID);
  if (id === "") throw new DataFileError(`${where}.ID: expected a non-empty string`);
  for (const [field] of endpoint.textIndexed) r.str(field!, INDEXED);
  r.int("CreateIndex", INDEX);
  r.int("ModifyIndex", INDEX);
  const record = typedRecord(r, schemas[endpoint.schema], where);
  if (endpoint.namespaceOf !== undefined && record["Namespace"] === "") record["Namespace"] = "default";
  return record;
}

/** A data file's records of one of the lists beyond jobs and deployments, each ID once. */
function listRecords(data: Obj, literals: TextLiterals | undefined, endpoint: ListEndpoint<unknown>, interner: Interner): Obj[] {
  const name = endpoint.table;
  const raw = data[name] ?? [];
  if (!Array.isArray(raw)) throw new DataFileError(`${name}: expected an array`);
  const within = textLiteralsWithin(literals, name);
  const ids = new Set<string>();
  return raw.map((value: unknown, i) => {
    const record = normalizeListRecord(value, `${name}[${i}]`, endpoint, interner, textLiteralsWithin(within, i));
    const id = record["ID"] as string;
    if (ids.has(id)) throw new DataFileError(`${name}: duplicate ID ${id}`);
    ids.add(id);
    return record;
  });
}

function taskGroupSummary(r: Reader): TaskGroupSummary {
  return { Complete: r.int("Complete"), Failed: r.int("Failed"), Lost: r.int("Lost"), Queued: r.int("Queued"), Running: r.int("Running"), Starting: r.int("Starting") };
}

function jobSummary(job: Reader, o: Obj | null, entry: JobListEntry, where: string): JobSummary {
  if (o === null) {
    return { Children: { Dead: 0, Pending: 0, Running: 0 }, CreateIndex: entry.CreateIndex, JobID: entry.ID, ModifyIndex: entry.ModifyIndex, Namespace: entry.Namespace, Summary: {} };
  }
  const r = job.reader(o, "JobSummary", where);
  const children = r.obj("Children");
  const groups = r.obj("Summary");
  const literals = r.literalsOf("Summary");
  // Keyed by task group names: every name an own key (`__proto__` and `constructor` are groups like any other).
  const summary = plainMap(
    Object.entries(groups ?? {}).map(([group, value]) => {
      if (!isObj(value)) throw new DataFileError(`${where}.Summary.${group}: expected an object`);
      return [group, taskGroupSummary(new Reader(value, `${where}.Summary.${group}`, r.interner, textLiteralsWithin(literals, group)))] as const;
    }),
  );
  const c = children === null ? null : r.reader(children, "Children", `${where}.Children`);
  return {
    Children: c === null ? null : { Dead: c.int("Dead"), Pending: c.int("Pending"), Running: c.int("Running") },
    CreateIndex: r.int("CreateIndex", INDEX),
    JobID: r.str("JobID") || entry.ID,
    ModifyIndex: r.int("ModifyIndex", INDEX),
    Namespace: r.str("Namespace") || entry.Namespace,
    Summary: summary,
  };
}

/** What a record's text tells before the record is read (when its text is known). */
interface RecordText {
  /** Its number literals as written. */
  readonly literals: TextLiterals | undefined;
  /** Whether it is storable as it is: nested no deeper than a registration, without an escape of a NUL or a lone surrogate. */
  readonly storable: boolean;
}

/** An escape that may be a NUL or a surrogate: a record's text without one holds neither (JSON has no other way to write them). */
const ODD_ESCAPE = /\\u(?:0000|[dD][89a-fA-F])/;

/** What a record's `text`, nested `depth` levels deep, tells. */
function recordText(text: string, depth: number): RecordText {
  return { literals: textLiterals(text), storable: depth <= MAX_JOB_DEPTH && !ODD_ESCAPE.test(text) };
}

/**
 * A record of a data file as every store can hold it (`makeStorable`: no NUL, no nesting deeper than a
 * registration's, lone surrogates made U+FFFD), or its first problem as a DataFileError; `storable`:
 * its text told it is already.
 */
function storableRecord(raw: unknown, where: string, storable = false): Obj {
  if (!isObj(raw)) throw new DataFileError(`${where}: expected an object`);
  const problem = storable ? undefined : makeStorable(raw, where, MAX_JOB_DEPTH);
  if (problem !== undefined) throw new DataFileError(problem);
  return raw;
}

/**
 * A job list entry of a data file, with every field of the seed (absent ones take their zero value),
 * within the bounds that let every store hold it (see `storableRecord`, `ID`, `INDEXED` and the
 * integer ranges); `text`: what its text tells, when it is known.
 */
function normalizeJob(raw: unknown, where: string, interner: Interner, text: RecordText | undefined): JobListEntry {
  const r = new Reader(storableRecord(raw, where, text?.storable), where, interner, text?.literals);
  const id = r.str("ID", ID);
  if (id === "") throw new DataFileError(`${where}.ID: expected a non-empty string`);
  const entry: JobListEntry = {
    CreateIndex: r.int("CreateIndex", INDEX),
    Datacenters: r.strings("Datacenters"),
    ID: id,
    JobModifyIndex: r.int("JobModifyIndex", INDEX),
    JobSummary: null,
    ModifyIndex: r.int("ModifyIndex", INDEX),
    Multiregion: r.obj("Multiregion"),
    Name: r.str("Name", INDEXED) || id,
    Namespace: r.namespace("Namespace"),
    ParameterizedJob: r.bool("ParameterizedJob"),
    ParentID: r.str("ParentID"),
    Periodic: r.bool("Periodic"),
    Priority: r.int("Priority"),
    Status: r.str("Status", INDEXED),
    StatusDescription: r.str("StatusDescription"),
    Stop: r.bool("Stop"),
    SubmitTime: r.int("SubmitTime"),
    Type: r.str("Type", INDEXED),
  };
  entry.JobSummary = jobSummary(r, r.obj("JobSummary"), entry, `${where}.JobSummary`);
  return r.extras(entry, JOB_FIELDS);
}

function deploymentState(o: unknown, where: string, literals: TextLiterals | undefined, interner: Interner): DeploymentState {
  if (!isObj(o)) throw new DataFileError(`${where}: expected an object`);
  const r = new Reader(o, where, interner, literals);
  const require = o["RequireProgressBy"];
  if (require !== undefined && require !== null && typeof require !== "string") throw new DataFileError(`${where}.RequireProgressBy: expected a string or null`);
  return {
    AutoPromote: r.bool("AutoPromote"),
    AutoRevert: r.bool("AutoRevert"),
    DesiredCanaries: r.int("DesiredCanaries"),
    DesiredTotal: r.int("DesiredTotal"),
    HealthyAllocs: r.int("HealthyAllocs"),
    PlacedAllocs: r.int("PlacedAllocs"),
    PlacedCanaries: r.strings("PlacedCanaries"),
    ProgressDeadline: r.int("ProgressDeadline"),
    Promoted: r.bool("Promoted"),
    RequireProgressBy: typeof require === "string" ? require : null,
    UnhealthyAllocs: r.int("UnhealthyAllocs"),
  };
}

/** A deployment of a data file, with every field of the seed, within the bounds every store holds (as `normalizeJob`). */
function normalizeDeployment(raw: unknown, where: string, interner: Interner, literals: TextLiterals | undefined): Deployment {
  const r = new Reader(storableRecord(raw, where), where, interner, literals);
  const id = r.str("ID", ID);
  if (id === "") throw new DataFileError(`${where}.ID: expected a non-empty string`);
  const groupLiterals = r.literalsOf("TaskGroups");
  const groups = plainMap(
    Object.entries(r.obj("TaskGroups") ?? {}).map(([name, value]) => [name, deploymentState(value, `${where}.TaskGroups.${name}`, textLiteralsWithin(groupLiterals, name), interner)] as const),
  );
  const deployment: Deployment = {
    CreateIndex: r.int("CreateIndex", INDEX),
    EvalPriority: r.int("EvalPriority"),
    ID: id,
    IsMultiregion: r.bool("IsMultiregion"),
    JobCreateIndex: r.int("JobCreateIndex", INDEX),
    JobID: r.str("JobID", ID),
    JobModifyIndex: r.int("JobModifyIndex", INDEX),
    JobSpecModifyIndex: r.int("JobSpecModifyIndex", INDEX),
    JobVersion: r.int("JobVersion", VERSION),
    ModifyIndex: r.int("ModifyIndex", INDEX),
    Namespace: r.namespace("Namespace"),
    Status: r.str("Status", INDEXED),
    StatusDescription: r.str("StatusDescription"),
    TaskGroups: groups,
  };
  return r.extras(deployment, DEPLOYMENT_FIELDS);
}

/** A data file's jobs, one at a time: how many, each one raw, and what the list's order reads of each. */
interface JobSource {
  readonly length: number;
  /** The job as parsed, and what its text tells when it is known. */
  raw(i: number): { value: unknown; text: RecordText | undefined };
  /** The job's namespace and ID as the raw record gives them when they are strings. */
  namespace(i: number): string | undefined;
  id(i: number): string | undefined;
}

/** The jobs of a parsed array; `literals`: the array's number literals as written, when known. */
function arraySource(jobs: readonly unknown[], literals: TextLiterals | undefined): JobSource {
  const text = (i: number, field: string): string | undefined => {
    const raw = jobs[i];
    const v = isObj(raw) ? raw[field] : undefined;
    return typeof v === "string" ? v : undefined;
  };
  return { length: jobs.length, raw: (i) => ({ value: jobs[i], text: literals === undefined ? undefined : { literals: textLiteralsWithin(literals, i), storable: false } }), namespace: (i) => text(i, "Namespace"), id: (i) => text(i, "ID") };
}

/**
 * The positions of a data file's jobs in the jobs list's order (as far as the raw records tell it).
 * Normalizing them in that order allocates each entry's objects where a scan reads them next: over a
 * million jobs in a random file order, a full filtered scan reads memory 4× faster than it would
 * (`bench/scan.ts`), and the index's sort finds them sorted.
 */
function inListOrder(jobs: JobSource): number[] {
  // What the order reads of an entry, as normalization will make it.
  const probe = (i: number) => ({ Namespace: jobs.namespace(i) || "default", ID: jobs.id(i) ?? "" }) as JobListEntry;
  return sortedBy(jobsEndpoint.order, Array.from({ length: jobs.length }, (_, i) => i), probe).map((x) => x.item);
}

/**
 * The state described by a parsed --data file: `{"jobs": [...], "deployments": [...], "allocations":
 * [...], "nodes": [...], "evaluations": [...]}` (each optional; other keys belong to other services),
 * or a bare array of jobs, as `GET /v1/jobs` answers. A file parsed by
 * `parseJson` has its integers' literals checked too (`1.0` is not an integer to Go).
 */
export function snapshotFromData(data: unknown): Snapshot {
  const source = sourceOf(data);
  const literals = source === undefined ? undefined : textLiterals(source);
  if (Array.isArray(data)) return snapshotOf({}, undefined, arraySource(data, literals), "");
  if (!isObj(data)) throw new DataFileError('expected a JSON object with "jobs" and "deployments", or an array of jobs');
  const jobs = data["jobs"] ?? [];
  if (!Array.isArray(jobs)) throw new DataFileError("jobs: expected an array");
  return snapshotOf(data, literals, arraySource(jobs, textLiteralsWithin(literals, "jobs")), "jobs");
}

/** A parsed --data file without the scheduler's lists ("jobs", "deployments", "allocations", "nodes", "evaluations"): what the other services read. */
export function otherServicesData(data: unknown): unknown {
  if (Array.isArray(data)) return {};
  if (!isObj(data)) return data;
  const { jobs: _jobs, deployments: _deployments, allocations: _allocations, nodes: _nodes, evaluations: _evaluations, ...rest } = data;
  return rest;
}

/**
 * A --data file's contents from its bytes: the state it describes and what the other services read, as
 * `JSON.parse`, `snapshotFromData` and `otherServicesData` give them, errors included. The jobs are
 * read one by one: no parse of the whole file lives beside the state (a million jobs' raw objects take
 * a gigabyte). Anything out of the ordinary, and any error, has the file read whole.
 */
export function loadDataFile(bytes: Buffer): { snapshot: Snapshot; rest: unknown } {
  const whole = () => {
    const data = parseJson(bytes.toString("utf8"));
    return { snapshot: snapshotFromData(data), rest: otherServicesData(data) };
  };
  const split = splitArrayMember(bytes, "jobs", ["Namespace", "ID"]);
  if (split === undefined) return whole();
  const { starts, ends, fields, depths } = split.array;
  const [namespaces, ids] = fields as [readonly (string | undefined)[], readonly (string | undefined)[]];
  const source: JobSource = {
    length: starts.length,
    raw: (i) => {
      const text = bytes.toString("utf8", starts[i], ends[i]);
      return { value: JSON.parse(text) as unknown, text: recordText(text, depths[i]!) };
    },
    namespace: (i) => namespaces[i],
    id: (i) => ids[i],
  };
  try {
    const data: unknown = JSON.parse(split.rest);
    if (Array.isArray(data)) return { snapshot: snapshotOf({}, undefined, source, ""), rest: otherServicesData(data) };
    return isObj(data) ? { snapshot: snapshotOf(data, textLiterals(split.rest), source, "jobs"), rest: otherServicesData(data) } : whole();
  } catch {
    // The error of the file read whole: a syntax error anywhere comes before a job's mistake.
    return whole();
  }
}

/**
 * The state of a data file's object (`data`, with its number literals `literals` when known, whose
 * "jobs" are read from `jobs`, at `path` in the file: "jobs", or "" for a bare array): deployments
 * first, then the jobs in list order.
 */
function snapshotOf(data: Obj, literals: TextLiterals | undefined, jobs: JobSource, path: string): Snapshot {
  const deployments = data["deployments"] ?? [];
  if (!Array.isArray(deployments)) throw new DataFileError("deployments: expected an array");
  const records: JobRecord[] = [];
  const seen = new Set<string>();
  const latestVersion = new Map<string, number>();
  const interner = new Interner();
  const deploymentLiterals = textLiteralsWithin(literals, "deployments");
  const normalizedDeployments = deployments.map((d: unknown, i) => normalizeDeployment(d, `deployments[${i}]`, interner, textLiteralsWithin(deploymentLiterals, i)));
  const ids = new Set<string>();
  for (const d of normalizedDeployments) {
    if (ids.has(d.ID)) throw new DataFileError(`deployments: duplicate ID ${d.ID}`);
    ids.add(d.ID);
    const key = `${d.Namespace}\u0000${d.JobID}`;
    latestVersion.set(key, Math.max(latestVersion.get(key) ?? 0, d.JobVersion));
  }
  let index = 1;
  const normalize = (i: number): void => {
    const { value, text } = jobs.raw(i);
    const entry = normalizeJob(value, `${path}[${i}]`, interner, text);
    const key = `${entry.Namespace}\u0000${entry.ID}`;
    if (seen.has(key)) throw new DataFileError(`${path}[${i}]: duplicate job ${entry.ID} in namespace ${entry.Namespace}`);
    seen.add(key);
    index = Math.max(index, entry.CreateIndex, entry.ModifyIndex, entry.JobModifyIndex, entry.JobSummary?.ModifyIndex ?? 0);
    records.push({ entry, version: latestVersion.get(key) ?? 0 });
  };
  try {
    for (const i of inListOrder(jobs)) normalize(i);
  } catch (e) {
    if (!(e instanceof DataFileError)) throw e;
    // Report the file's first mistake, as reading it in file order would.
    seen.clear();
    for (let i = 0; i < jobs.length; i++) normalize(i);
    throw e;
  }
  for (const d of normalizedDeployments) index = Math.max(index, d.CreateIndex, d.ModifyIndex);
  const snapshot: Snapshot = { index, jobs: records, deployments: normalizedDeployments, allocations: [], nodes: [], evaluations: [] };
  for (const table of Object.values(RECORD_LISTS)) {
    const list = listRecords(data, literals, endpointOf(table), interner);
    for (const item of list) snapshot.index = Math.max(snapshot.index, item["CreateIndex"] as number, item["ModifyIndex"] as number);
    (snapshot[table] as unknown[]) = list;
  }
  return snapshot;
}
