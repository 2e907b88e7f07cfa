import type { Snapshot } from "./records.js";
import type { Deployment, DeploymentState, JobListEntry, JobRecord, JobSummary, TaskGroupSummary } from "./records.js";
import { sortedBy } from "./orders.js";
import { jobsEndpoint } from "./endpoints.js";
import { isObj, plainMap, type Obj } from "../object.js";
import { splitArrayMember } from "./json-spans.js";

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

class Reader {
  constructor(
    private readonly o: Obj,
    private readonly where: string,
    private readonly interner: Interner,
  ) {}

  private fail(key: string, what: string): never {
    throw new DataFileError(`${this.where}.${key}: expected ${what}`);
  }

  /** The string at `key`; interned unless it is `unique` (an ID: no other record shares it). */
  str(key: string, unique = false): string {
    const v = this.o[key];
    if (v === undefined || v === null) return "";
    if (typeof v !== "string") this.fail(key, "a string");
    return unique ? v : this.interner.get(v);
  }

  int(key: string, unsigned = false): number {
    const v = this.o[key];
    if (v === undefined || v === null) return 0;
    if (typeof v !== "number" || !Number.isInteger(v) || (unsigned && v < 0)) this.fail(key, unsigned ? "an unsigned integer" : "an integer");
    return v;
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

function taskGroupSummary(o: Obj, where: string, interner: Interner): TaskGroupSummary {
  const r = new Reader(o, where, interner);
  return { Complete: r.int("Complete"), Failed: r.int("Failed"), Lost: r.int("Lost"), Queued: r.int("Queued"), Running: r.int("Running"), Starting: r.int("Starting") };
}

function jobSummary(o: Obj | null, job: JobListEntry, where: string, interner: Interner): JobSummary {
  if (o === null) {
    return { Children: { Dead: 0, Pending: 0, Running: 0 }, CreateIndex: job.CreateIndex, JobID: job.ID, ModifyIndex: job.ModifyIndex, Namespace: job.Namespace, Summary: {} };
  }
  const r = new Reader(o, where, interner);
  const children = r.obj("Children");
  // Keyed by task group names: every name an own key (`__proto__` and `constructor` are groups like any other).
  const summary = plainMap(
    Object.entries(r.obj("Summary") ?? {}).map(([group, value]) => {
      if (!isObj(value)) throw new DataFileError(`${where}.Summary.${group}: expected an object`);
      return [group, taskGroupSummary(value, `${where}.Summary.${group}`, interner)] as const;
    }),
  );
  const c = children === null ? null : new Reader(children, `${where}.Children`, interner);
  return {
    Children: c === null ? null : { Dead: c.int("Dead"), Pending: c.int("Pending"), Running: c.int("Running") },
    CreateIndex: r.int("CreateIndex", true),
    JobID: r.str("JobID") || job.ID,
    ModifyIndex: r.int("ModifyIndex", true),
    Namespace: r.str("Namespace") || job.Namespace,
    Summary: summary,
  };
}

/** A job list entry of a data file, with every field of the seed (absent ones take their zero value). */
export function normalizeJob(raw: unknown, where: string, interner = new Interner()): JobListEntry {
  if (!isObj(raw)) throw new DataFileError(`${where}: expected an object`);
  const r = new Reader(raw, where, interner);
  const id = r.str("ID", true);
  if (id === "") throw new DataFileError(`${where}.ID: expected a non-empty string`);
  const entry: JobListEntry = {
    CreateIndex: r.int("CreateIndex", true),
    Datacenters: r.strings("Datacenters"),
    ID: id,
    JobModifyIndex: r.int("JobModifyIndex", true),
    JobSummary: null,
    ModifyIndex: r.int("ModifyIndex", true),
    Multiregion: r.obj("Multiregion"),
    Name: r.str("Name") || id,
    Namespace: r.str("Namespace") || "default",
    ParameterizedJob: r.bool("ParameterizedJob"),
    ParentID: r.str("ParentID"),
    Periodic: r.bool("Periodic"),
    Priority: r.int("Priority"),
    Status: r.str("Status"),
    StatusDescription: r.str("StatusDescription"),
    Stop: r.bool("Stop"),
    SubmitTime: r.int("SubmitTime"),
    Type: r.str("Type"),
  };
  entry.JobSummary = jobSummary(r.obj("JobSummary"), entry, `${where}.JobSummary`, interner);
  return r.extras(entry, JOB_FIELDS);
}

function deploymentState(o: unknown, where: string, interner: Interner): DeploymentState {
  if (!isObj(o)) throw new DataFileError(`${where}: expected an object`);
  const r = new Reader(o, where, interner);
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

/** A deployment of a data file, with every field of the seed. */
export function normalizeDeployment(raw: unknown, where: string, interner = new Interner()): Deployment {
  if (!isObj(raw)) throw new DataFileError(`${where}: expected an object`);
  const r = new Reader(raw, where, interner);
  const id = r.str("ID", true);
  if (id === "") throw new DataFileError(`${where}.ID: expected a non-empty string`);
  const groups = plainMap(Object.entries(r.obj("TaskGroups") ?? {}).map(([name, value]) => [name, deploymentState(value, `${where}.TaskGroups.${name}`, interner)] as const));
  const deployment: Deployment = {
    CreateIndex: r.int("CreateIndex", true),
    EvalPriority: r.int("EvalPriority"),
    ID: id,
    IsMultiregion: r.bool("IsMultiregion"),
    JobCreateIndex: r.int("JobCreateIndex", true),
    JobID: r.str("JobID"),
    JobModifyIndex: r.int("JobModifyIndex", true),
    JobSpecModifyIndex: r.int("JobSpecModifyIndex", true),
    JobVersion: r.int("JobVersion", true),
    ModifyIndex: r.int("ModifyIndex", true),
    Namespace: r.str("Namespace") || "default",
    Status: r.str("Status"),
    StatusDescription: r.str("StatusDescription"),
    TaskGroups: groups,
  };
  return r.extras(deployment, DEPLOYMENT_FIELDS);
}

/** A data file's jobs, one at a time: how many, each one raw, and what the list's order reads of each. */
interface JobSource {
  readonly length: number;
  raw(i: number): unknown;
  /** The job's namespace and ID as the raw record gives them when they are strings. */
  namespace(i: number): string | undefined;
  id(i: number): string | undefined;
}

function arraySource(jobs: readonly unknown[]): JobSource {
  const text = (i: number, field: string): string | undefined => {
    const raw = jobs[i];
    const v = isObj(raw) ? raw[field] : undefined;
    return typeof v === "string" ? v : undefined;
  };
  return { length: jobs.length, raw: (i) => jobs[i], namespace: (i) => text(i, "Namespace"), id: (i) => text(i, "ID") };
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
 * The state described by a parsed --data file: `{"jobs": [...], "deployments": [...]}` (other keys
 * belong to other services), or a bare array of jobs, as `GET /v1/jobs` answers.
 */
export function snapshotFromData(data: unknown): Snapshot {
  if (Array.isArray(data)) return snapshotOf({}, arraySource(data), "");
  if (!isObj(data)) throw new DataFileError('expected a JSON object with "jobs" and "deployments", or an array of jobs');
  const jobs = data["jobs"] ?? [];
  if (!Array.isArray(jobs)) throw new DataFileError("jobs: expected an array");
  return snapshotOf(data, arraySource(jobs), "jobs");
}

/** A parsed --data file without the scheduler's "jobs" and "deployments": what the other services read. */
export function otherServicesData(data: unknown): unknown {
  if (Array.isArray(data)) return {};
  if (!isObj(data)) return data;
  const { jobs: _jobs, deployments: _deployments, ...rest } = data;
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
    const data: unknown = JSON.parse(bytes.toString("utf8"));
    return { snapshot: snapshotFromData(data), rest: otherServicesData(data) };
  };
  const split = splitArrayMember(bytes, "jobs", ["Namespace", "ID"]);
  if (split === undefined) return whole();
  const { starts, ends, fields } = split.array;
  const [namespaces, ids] = fields as [readonly (string | undefined)[], readonly (string | undefined)[]];
  const source: JobSource = {
    length: starts.length,
    raw: (i) => JSON.parse(bytes.toString("utf8", starts[i], ends[i])),
    namespace: (i) => namespaces[i],
    id: (i) => ids[i],
  };
  try {
    const data: unknown = JSON.parse(split.rest);
    if (Array.isArray(data)) return { snapshot: snapshotOf({}, source, ""), rest: otherServicesData(data) };
    return isObj(data) ? { snapshot: snapshotOf(data, source, "jobs"), rest: otherServicesData(data) } : whole();
  } catch {
    // The error of the file read whole: a syntax error anywhere comes before a job's mistake.
    return whole();
  }
}

/**
 * The state of a data file's object (`data`, whose "jobs" are read from `jobs`, at `path` in the file:
 * "jobs", or "" for a bare array): deployments first, then the jobs in list order.
 */
function snapshotOf(data: Obj, jobs: JobSource, path: string): Snapshot {
  const deployments = data["deployments"] ?? [];
  if (!Array.isArray(deployments)) throw new DataFileError("deployments: expected an array");
  const records: JobRecord[] = [];
  const seen = new Set<string>();
  const latestVersion = new Map<string, number>();
  const interner = new Interner();
  const normalizedDeployments = deployments.map((d: unknown, i) => normalizeDeployment(d, `deployments[${i}]`, interner));
  const ids = new Set<string>();
  for (const d of normalizedDeployments) {
    if (ids.has(d.ID)) throw new DataFileError(`deployments: duplicate ID ${d.ID}`);
    ids.add(d.ID);
    const key = `${d.Namespace}\u0000${d.JobID}`;
    latestVersion.set(key, Math.max(latestVersion.get(key) ?? 0, d.JobVersion));
  }
  let index = 1;
  const normalize = (i: number): void => {
    const entry = normalizeJob(jobs.raw(i), `${path}[${i}]`, interner);
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
  return { index, jobs: records, deployments: normalizedDeployments };
}
