import { randomUUID } from "node:crypto";
import type { Change } from "./records.js";
import { BadRequest } from "./errors.js";
import { JobReader, utf8Bytes, wellFormed, type TextRule } from "./decode.js";
import { JOB_LIMITS, MAX_INTEGER, NAMESPACE_NAME } from "./job-limits.js";
import { literalsWithin, numberLiterals, sourceOf } from "./json-literals.js";
import { JOB_TYPES, TERMINAL_DEPLOYMENT_STATUSES, withZeros } from "./records.js";
import { schemas } from "filter-expr";
import type { Deployment, DeploymentState, Evaluation, JobListEntry, JobRecord, TaskGroupSummary } from "./records.js";
import { dict, isObj, own, type Obj } from "../object.js";

/** The part of a job definition (`PUT /v1/jobs` body `{"Job": {...}}`) the list entry is made of. */
export interface JobSpec {
  ID: string;
  Name: string;
  Namespace: string;
  Type: string;
  Priority: number;
  Datacenters: string[];
  ParentID: string;
  Stop: boolean;
  Periodic: boolean;
  ParameterizedJob: boolean;
  Multiregion: Record<string, unknown> | null;
  TaskGroups: { Name: string; Count: number; Canary: number; AutoPromote: boolean; AutoRevert: boolean; ProgressDeadline: number }[];
}

export interface RegisterResponse {
  EvalCreateIndex: number;
  EvalID: string;
  Index: number;
  JobModifyIndex: number;
  KnownLeader: boolean;
  LastContact: number;
  NextToken: string;
  Warnings: string;
}

const DEFAULT_PROGRESS_DEADLINE_NS = 600_000_000_000;

function multiError(errors: string[]): string {
  const n = errors.length;
  return `Job validation failed: ${n} error${n === 1 ? "" : "s"} occurred:\n${errors.map((e) => `\t* ${e}\n`).join("")}\n`;
}

/** Deepest nesting of objects and arrays a job definition may have (the body's `Job` object is level 1). */
export const MAX_JOB_DEPTH = 64;

/** True when `value` nests objects or arrays more than `limit` levels deep. Iterative: any depth is safe. */
export function nestsDeeper(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

const NAME: TextRule = { maxBytes: JOB_LIMITS.nameBytes };
const UNBOUNDED = Number.POSITIVE_INFINITY;
/** A string checked for NULs (and made well-formed) whose length another rule bounds. */
const ANY_LENGTH: TextRule = { maxBytes: UNBOUNDED };

/** The fields of an `UpdateStrategy` a deployment reads (absent: not set, so a job's value may fill it). */
interface UpdateFields {
  Canary?: number;
  AutoPromote?: boolean;
  AutoRevert?: boolean;
  ProgressDeadline?: number;
}

/** An `UpdateStrategy` (every field type-checked, as decoded; the deployment's four kept). */
function readUpdate(r: JobReader, v: unknown, path: string): UpdateFields {
  const o = r.object(v, path, "an UpdateStrategy");
  if (o === undefined) return {};
  for (const key of ["Stagger", "MaxParallel", "MinHealthyTime", "HealthyDeadline"]) r.integer(o[key], `${path}.${key}`);
  r.string(o["HealthCheck"], `${path}.HealthCheck`);
  const fields: UpdateFields = {};
  const canary = r.integer(o["Canary"], `${path}.Canary`);
  if (canary !== undefined) fields.Canary = canary;
  const autoPromote = r.boolean(o["AutoPromote"], `${path}.AutoPromote`);
  if (autoPromote !== undefined) fields.AutoPromote = autoPromote;
  const autoRevert = r.boolean(o["AutoRevert"], `${path}.AutoRevert`);
  if (autoRevert !== undefined) fields.AutoRevert = autoRevert;
  const deadline = r.integer(o["ProgressDeadline"], `${path}.ProgressDeadline`);
  if (deadline !== undefined) fields.ProgressDeadline = deadline;
  return fields;
}

/** A `PeriodicConfig`: true when the job has one (its fields are type-checked, not kept). */
function readPeriodic(r: JobReader, v: unknown): boolean {
  const o = r.object(v, "Periodic", "a PeriodicConfig");
  if (o === undefined) return false;
  r.boolean(o["Enabled"], "Periodic.Enabled");
  r.boolean(o["ProhibitOverlap"], "Periodic.ProhibitOverlap");
  for (const key of ["Spec", "SpecType", "TimeZone"]) r.string(o[key], `Periodic.${key}`);
  r.strings(o["Specs"], "Periodic.Specs", UNBOUNDED);
  return true;
}

/** A `ParameterizedJobConfig`: true when the job has one (its fields are type-checked, not kept). */
function readParameterized(r: JobReader, v: unknown): boolean {
  const o = r.object(v, "ParameterizedJob", "a ParameterizedJobConfig");
  if (o === undefined) return false;
  r.string(o["Payload"], "ParameterizedJob.Payload");
  r.strings(o["MetaRequired"], "ParameterizedJob.MetaRequired", UNBOUNDED);
  r.strings(o["MetaOptional"], "ParameterizedJob.MetaOptional", UNBOUNDED);
  return true;
}

/**
 * A `Multiregion` as the scheduler stores it after decoding and canonicalizing (api.Multiregion,
 * then structs.Multiregion): `Strategy` and `Regions` with their fields and defaults, nothing else.
 */
function readMultiregion(r: JobReader, v: unknown): Obj | null {
  const o = r.object(v, "Multiregion", "a Multiregion");
  if (o === undefined) return null;
  const strategy = r.object(o["Strategy"], "Multiregion.Strategy", "a MultiregionStrategy") ?? {};
  const regions = r.list(o["Regions"], "Multiregion.Regions", JOB_LIMITS.regions, "of MultiregionRegion objects") ?? [];
  return {
    Strategy: {
      MaxParallel: r.integer(strategy["MaxParallel"], "Multiregion.Strategy.MaxParallel") ?? 0,
      OnFailure: r.string(strategy["OnFailure"], "Multiregion.Strategy.OnFailure", NAME) ?? "",
    },
    Regions: regions.map((raw, i) => {
      const path = `Multiregion.Regions[${i}]`;
      const region = r.object(raw, path, "a MultiregionRegion") ?? {};
      if (raw === null) r.fail(`${path} must be an object (a MultiregionRegion), not null`);
      return {
        Name: r.string(region["Name"], `${path}.Name`, NAME) ?? "",
        Count: r.integer(region["Count"], `${path}.Count`) ?? 1,
        Datacenters: r.strings(region["Datacenters"], `${path}.Datacenters`, JOB_LIMITS.datacenters, NAME) ?? [],
        NodePool: r.string(region["NodePool"], `${path}.NodePool`, NAME) ?? "",
        Meta: r.stringMap(region["Meta"], `${path}.Meta`, JOB_LIMITS.metaEntries, NAME) ?? dict<string>(),
      };
    }),
  };
}

/**
 * Validates the body of a registration and fills the defaults the scheduler's client would: every
 * field read is decoded as the scheduler decodes it (see decode.ts) and bounded (job-limits.ts), then
 * checked as the scheduler's `Job.Validate` checks it; when the body came from `parseJson`, its integers'
 * literals too (`1.0` is not an int to Go). The namespace's name is checked by
 * `planRegistration`, after the caller's right to write in it.
 */
export function parseJobSpec(body: unknown, queryNamespace: string | undefined): JobSpec {
  if (!isObj(body) || body["Job"] === undefined || body["Job"] === null) throw new BadRequest("Job must be specified");
  // Deeper definitions could be stored but not encoded again (every page holding the job would fail).
  if (nestsDeeper(body["Job"], MAX_JOB_DEPTH)) throw new BadRequest(`Job nests objects and arrays more than ${MAX_JOB_DEPTH} levels deep`);
  const source = sourceOf(body);
  const r = new JobReader(source === undefined ? undefined : literalsWithin(numberLiterals(source), "Job"));
  const job = r.object(body["Job"], "Job", "a Job");
  if (job === undefined) throw new BadRequest(multiError(r.errors));

  const id = r.string(job["ID"], "ID", { maxBytes: JOB_LIMITS.idBytes, nul: "Job ID contains a null character" }) ?? "";
  if (id === "") r.fail("Missing job ID");
  else if (id.includes(" ")) r.fail("Job ID contains a space");
  const name = r.string(job["Name"], "Name", { maxBytes: JOB_LIMITS.nameBytes, nul: "Job Name contains a null character" }) || id;
  const type = r.string(job["Type"], "Type") || "service";
  if (!(JOB_TYPES as readonly string[]).includes(type)) r.fail(`Invalid job type: ${JSON.stringify(type.slice(0, 64))}`);
  const priority = r.integer(job["Priority"], "Priority") ?? 50;
  if (priority < 1 || priority > 100) r.fail("Job priority must be between [1, 100]");
  const dcs = r.strings(job["Datacenters"], "Datacenters", JOB_LIMITS.datacenters, NAME) ?? [];
  if (dcs.includes("")) r.fail("Job datacenter must be non-empty string");
  const datacenters = dcs.length > 0 ? dcs : ["*"];
  const parentId = r.string(job["ParentID"], "ParentID", { maxBytes: JOB_LIMITS.idBytes }) ?? "";
  const stop = r.boolean(job["Stop"], "Stop") ?? false;
  const periodic = readPeriodic(r, job["Periodic"]);
  const parameterized = readParameterized(r, job["ParameterizedJob"]);
  const dispatched = r.boolean(job["Dispatched"], "Dispatched") ?? false;
  const multiregion = readMultiregion(r, job["Multiregion"]);
  // The name itself is judged by checkNamespace, after the caller's right to write there; a NUL,
  // which no store could even look up, is refused here with the other strings' NULs.
  const namespace = r.string(job["Namespace"], "Namespace", ANY_LENGTH) || r.text(queryNamespace ?? "", "namespace", ANY_LENGTH) || "default";
  const update = readUpdate(r, job["Update"], "Update");

  const groups: JobSpec["TaskGroups"] = [];
  const given = job["TaskGroups"];
  if (given === undefined || given === null || (Array.isArray(given) && given.length === 0)) r.fail("Missing job task groups");
  const rawGroups = r.list(given, "TaskGroups", JOB_LIMITS.taskGroups, "of TaskGroup objects");
  const seen = new Map<string, number>();
  rawGroups?.forEach((raw: unknown, i) => {
    const path = `TaskGroups[${i}]`;
    const g = r.object(raw, path, "a TaskGroup");
    if (g === undefined) {
      if (raw === null) r.fail(`${path} must be an object (a TaskGroup), not null`);
      return;
    }
    const groupName = r.string(g["Name"], `${path}.Name`, { maxBytes: JOB_LIMITS.nameBytes, nul: "Task group name contains null character" }) ?? "";
    if (groupName === "") r.fail(`Job task group ${i + 1} missing name`);
    else if (seen.has(groupName)) r.fail(`Job task group ${i + 1} redefines '${groupName}' from group ${seen.get(groupName)! + 1}`);
    else seen.set(groupName, i);
    const count = r.integer(g["Count"], `${path}.Count`) ?? 1;
    if (count < 0) r.fail(`Task group ${groupName} count can't be negative`);
    // The group's update strategy over the job's, field by field (the scheduler's api.UpdateStrategy.Merge).
    const merged = { ...update, ...readUpdate(r, g["Update"], `${path}.Update`) };
    groups.push({
      Name: groupName,
      Count: count,
      Canary: merged.Canary ?? 0,
      AutoPromote: merged.AutoPromote ?? false,
      AutoRevert: merged.AutoRevert ?? false,
      ProgressDeadline: merged.ProgressDeadline ?? DEFAULT_PROGRESS_DEADLINE_NS,
    });
  });

  const spec: JobSpec = {
    ID: id,
    Name: name,
    Namespace: namespace,
    Type: type,
    Priority: priority,
    Datacenters: datacenters,
    ParentID: parentId,
    Stop: stop,
    Periodic: periodic,
    ParameterizedJob: parameterized && !dispatched,
    Multiregion: multiregion,
    TaskGroups: groups,
  };
  if (r.errors.length === 0) {
    const bytes = utf8Bytes(JSON.stringify(listEntry(spec, undefined, MAX_INTEGER, Date.now())));
    if (bytes > JOB_LIMITS.entryBytes) r.fail(`the job's list entry would be ${bytes} bytes of JSON, more than the ${JOB_LIMITS.entryBytes} this server accepts`);
  }
  if (r.errors.length > 0) throw new BadRequest(multiError(r.errors));
  return spec;
}

/**
 * Refuses a namespace the scheduler would not have (`^[a-zA-Z0-9-]{1,128}$`: it cannot create
 * another, so it refuses a job in one), as a 400. Checked when the registration is planned, after the
 * handler checked the caller's right to write in that namespace: a caller without it is refused
 * (403) without learning anything about the name.
 */
export function checkNamespace(namespace: string): void {
  if (!NAMESPACE_NAME.test(namespace)) {
    const shown = JSON.stringify(wellFormed(namespace.slice(0, 140)));
    throw new BadRequest(multiError([`Job namespace ${shown}${namespace.length > 140 ? "…" : ""} is invalid: a namespace name must match ${NAMESPACE_NAME.source}`]));
  }
}

function freshSummary(count: number): TaskGroupSummary {
  return { Complete: 0, Failed: 0, Lost: 0, Queued: count, Running: 0, Starting: 0 };
}

/** The scheduler's description of a deployment cancelled because its job was stopped. */
export const STOPPED_JOB = "Cancelled because job is stopped";

const ACTIVE = (d: Deployment): boolean => !TERMINAL_DEPLOYMENT_STATUSES.has(d.Status);

/**
 * The changes of one registration at `index`: the list entry and its summary (created or updated), and
 * for a service job a new deployment, cancelling the job's previous active one.
 */
/**
 * The list entry of `spec` registered at `index`: created, or updated from `previous` (CreateIndex
 * and, while the job runs, the groups' summaries kept).
 */
function listEntry(spec: JobSpec, previous: JobRecord | undefined, index: number, nowMs: number): JobListEntry {
  const createIndex = previous?.entry.CreateIndex ?? index;
  const oldSummary = previous?.entry.JobSummary;
  // Keyed by group names a client chooses: no prototype, and only own keys read back.
  const summary = dict<TaskGroupSummary>();
  for (const group of spec.TaskGroups) {
    const old = own(oldSummary?.Summary, group.Name);
    summary[group.Name] = old !== undefined && previous?.entry.Status === "running" ? { ...old } : freshSummary(group.Count);
  }
  const launches = spec.Periodic || spec.ParameterizedJob;
  const status = spec.Stop ? "dead" : launches ? "running" : previous?.entry.Status === "running" ? "running" : "pending";
  return {
    CreateIndex: createIndex,
    Datacenters: spec.Datacenters,
    ID: spec.ID,
    JobModifyIndex: index,
    JobSummary: {
      Children: oldSummary?.Children ?? { Dead: 0, Pending: 0, Running: 0 },
      CreateIndex: oldSummary?.CreateIndex ?? createIndex,
      JobID: spec.ID,
      ModifyIndex: index,
      Namespace: spec.Namespace,
      Summary: summary,
    },
    ModifyIndex: index,
    Multiregion: spec.Multiregion,
    Name: spec.Name,
    Namespace: spec.Namespace,
    ParameterizedJob: spec.ParameterizedJob,
    ParentID: spec.ParentID,
    Periodic: spec.Periodic,
    Priority: spec.Priority,
    Status: status,
    StatusDescription: "",
    Stop: spec.Stop,
    SubmitTime: nowMs * 1_000_000,
    Type: spec.Type,
  };
}

/**
 * The changes of one registration at `index`: the list entry and its summary (created or updated), and
 * for a service job a new deployment, cancelling the job's previous active one. A namespace the
 * scheduler would refuse is a BadRequest (see `checkNamespace`).
 */
/**
 * The evaluation a registration at `index` creates (`TriggeredBy` `job-register`, `job-deregister` for a
 * stop), as the scheduler leaves it once its scheduler has run: complete, every task group's
 * allocations queued (this server places none; the job's summary queues them too).
 */
function registrationEvaluation(spec: JobSpec, index: number, nowMs: number): Evaluation {
  const nanos = nowMs * 1e6;
  return withZeros<Evaluation>(schemas.evaluation, {
    ID: randomUUID(),
    Namespace: spec.Namespace,
    Priority: spec.Priority,
    Type: spec.Type,
    TriggeredBy: spec.Stop ? "job-deregister" : "job-register",
    JobID: spec.ID,
    JobModifyIndex: index,
    Status: "complete",
    QueuedAllocations: spec.Stop ? null : Object.fromEntries(spec.TaskGroups.map((g) => [g.Name, g.Count])),
    SnapshotIndex: index,
    CreateIndex: index,
    ModifyIndex: index,
    CreateTime: nanos,
    ModifyTime: nanos,
  });
}

/** What planning a registration reads of the state: the job as it is, and its deployments. */
export interface RegistrationView {
  job(namespace: string, id: string): JobRecord | undefined;
  /** The job's deployments (at least every active one), by create index. */
  deploymentsOf(namespace: string, jobId: string): Iterable<Deployment>;
}

export function planRegistration(state: RegistrationView, spec: JobSpec, index: number, nowMs: number): { changes: Change[]; result: RegisterResponse } {
  checkNamespace(spec.Namespace);
  const previous = state.job(spec.Namespace, spec.ID);
  const version = previous === undefined ? 0 : previous.version + 1;
  const entry = listEntry(spec, previous, index, nowMs);
  const createIndex = entry.CreateIndex;
  const launches = spec.Periodic || spec.ParameterizedJob;
  const record: JobRecord = { entry, version };
  const changes: Change[] = [previous === undefined ? { kind: "job", record } : { kind: "job", record, previous: previous.entry }];

  if (spec.Stop) {
    // Stopping a job cancels its running deployment, as the scheduler does.
    for (const d of state.deploymentsOf(spec.Namespace, spec.ID)) {
      if (ACTIVE(d)) {
        changes.push({ kind: "deployment", deployment: { ...d, ModifyIndex: index, Status: "cancelled", StatusDescription: STOPPED_JOB }, previous: d });
      }
    }
  }

  if (spec.Type === "service" && !spec.Stop && !launches) {
    for (const d of state.deploymentsOf(spec.Namespace, spec.ID)) {
      if (ACTIVE(d)) {
        changes.push({
          kind: "deployment",
          deployment: { ...d, ModifyIndex: index, Status: "cancelled", StatusDescription: "Cancelled due to newer version of job" },
          previous: d,
        });
      }
    }
    const taskGroups = dict<DeploymentState>();
    for (const g of spec.TaskGroups) {
      taskGroups[g.Name] = {
        AutoPromote: g.AutoPromote,
        AutoRevert: g.AutoRevert,
        DesiredCanaries: g.Canary,
        DesiredTotal: g.Count,
        HealthyAllocs: 0,
        PlacedAllocs: 0,
        PlacedCanaries: null,
        ProgressDeadline: g.ProgressDeadline,
        Promoted: false,
        RequireProgressBy: null,
        UnhealthyAllocs: 0,
      };
    }
    const needsPromotion = spec.TaskGroups.some((g) => g.Canary > 0 && !g.AutoPromote);
    changes.push({
      kind: "deployment",
      deployment: {
        CreateIndex: index,
        EvalPriority: spec.Priority,
        ID: randomUUID(),
        IsMultiregion: spec.Multiregion !== null,
        JobCreateIndex: createIndex,
        JobID: spec.ID,
        JobModifyIndex: index,
        JobSpecModifyIndex: index,
        JobVersion: version,
        ModifyIndex: index,
        Namespace: spec.Namespace,
        Status: "running",
        StatusDescription: needsPromotion ? "Deployment is running but requires manual promotion" : "Deployment is running",
        TaskGroups: taskGroups,
      },
    });
  }
  // A periodic or parameterized job is only launched later; any other registration is evaluated.
  const evaluation = launches ? undefined : registrationEvaluation(spec, index, nowMs);
  if (evaluation !== undefined) changes.push({ kind: "evaluation", item: evaluation });
  return {
    changes,
    result: {
      EvalCreateIndex: evaluation === undefined ? 0 : index,
      EvalID: evaluation?.ID ?? "",
      Index: index,
      JobModifyIndex: index,
      KnownLeader: false,
      LastContact: 0,
      NextToken: "",
      Warnings: "",
    },
  };
}
