import { randomUUID } from "node:crypto";
import type { Change, SchedulerState } from "./state.js";
import { BadRequest } from "./query.js";
import { JOB_TYPES, TERMINAL_DEPLOYMENT_STATUSES } from "./types.js";
import type { Deployment, DeploymentState, JobListEntry, JobRecord, TaskGroupSummary } from "./types.js";
import { isObj, type Obj } from "../object.js";

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

/**
 * `o[key]` when it passes `is`; an absent or null value, or one that fails `is` (recorded in `errors`
 * as "<key> must be <what>"), gives `fallback`.
 */
function field<T>(o: Obj, key: string, errors: string[], is: (v: unknown) => v is T, what: string, fallback: T): T {
  const v = o[key];
  if (v === undefined || v === null) return fallback;
  if (!is(v)) {
    errors.push(`${key} must be ${what}`);
    return fallback;
  }
  return v;
}

const str = (o: Obj, key: string, errors: string[], fallback = ""): string =>
  field(o, key, errors, (v): v is string => typeof v === "string", "a string", fallback);
const int = (o: Obj, key: string, errors: string[], fallback: number): number =>
  field(o, key, errors, (v): v is number => typeof v === "number" && Number.isInteger(v), "an integer", fallback);
const bool = (o: Obj, key: string, errors: string[]): boolean => field(o, key, errors, (v): v is boolean => typeof v === "boolean", "a boolean", false);

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

/** Validates the body of a registration and fills the defaults the scheduler's client would. */
export function parseJobSpec(body: unknown, queryNamespace: string | undefined): JobSpec {
  if (!isObj(body) || !isObj(body["Job"])) throw new BadRequest("Job must be specified");
  // Deeper definitions could be stored but not encoded again (every page holding the job would fail).
  if (nestsDeeper(body["Job"], MAX_JOB_DEPTH)) throw new BadRequest(`Job nests objects and arrays more than ${MAX_JOB_DEPTH} levels deep`);
  const job = body["Job"];
  const errors: string[] = [];
  const id = str(job, "ID", errors);
  if (id === "") errors.push("Missing job ID");
  else if (id.includes(" ")) errors.push("Job ID contains a space");
  else if (id.includes("\u0000")) errors.push("Job ID contains a null character");
  const type = str(job, "Type", errors, "service") || "service";
  if (!(JOB_TYPES as readonly string[]).includes(type)) errors.push(`Invalid job type: "${type}"`);
  const priority = int(job, "Priority", errors, 50);
  if (priority < 1 || priority > 100) errors.push("Job priority must be between [1, 100]");
  let datacenters = ["*"];
  const dcs = job["Datacenters"];
  if (dcs !== undefined && dcs !== null) {
    if (!Array.isArray(dcs) || !dcs.every((d): d is string => typeof d === "string" && d !== "")) errors.push("Datacenters must be a list of names");
    else if (dcs.length > 0) datacenters = dcs;
  }
  const update = isObj(job["Update"]) ? job["Update"] : {};
  const groups: JobSpec["TaskGroups"] = [];
  const rawGroups = job["TaskGroups"];
  if (!Array.isArray(rawGroups) || rawGroups.length === 0) errors.push("Missing job task groups");
  else {
    const seen = new Set<string>();
    rawGroups.forEach((g: unknown, i) => {
      if (!isObj(g)) return void errors.push(`Task group ${i + 1} must be an object`);
      const name = str(g, "Name", errors);
      if (name === "") errors.push(`Task group ${i + 1} missing name`);
      else if (seen.has(name)) errors.push(`Job task group ${i + 1} redefines '${name}' from group ${[...seen].indexOf(name) + 1}`);
      seen.add(name);
      const count = int(g, "Count", errors, 1);
      if (count < 0) errors.push(`Task group ${name} count can't be negative`);
      const groupUpdate = isObj(g["Update"]) ? g["Update"] : update;
      groups.push({
        Name: name,
        Count: count,
        Canary: int(groupUpdate, "Canary", errors, 0),
        AutoPromote: bool(groupUpdate, "AutoPromote", errors),
        AutoRevert: bool(groupUpdate, "AutoRevert", errors),
        ProgressDeadline: int(groupUpdate, "ProgressDeadline", errors, DEFAULT_PROGRESS_DEADLINE_NS),
      });
    });
  }
  const namespace = str(job, "Namespace", errors) || queryNamespace || "default";
  const multiregion = job["Multiregion"];
  const spec: JobSpec = {
    ID: id,
    Name: str(job, "Name", errors) || id,
    Namespace: namespace,
    Type: type,
    Priority: priority,
    Datacenters: datacenters,
    ParentID: str(job, "ParentID", errors),
    Stop: bool(job, "Stop", errors),
    Periodic: isObj(job["Periodic"]),
    ParameterizedJob: isObj(job["ParameterizedJob"]) && job["Dispatched"] !== true,
    Multiregion: isObj(multiregion) ? multiregion : null,
    TaskGroups: groups,
  };
  if (errors.length > 0) throw new BadRequest(multiError(errors));
  return spec;
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
export function planRegistration(state: Pick<SchedulerState, "job" | "deployments">, spec: JobSpec, index: number, nowMs: number): { changes: Change[]; result: RegisterResponse } {
  const previous = state.job(spec.Namespace, spec.ID);
  const version = previous === undefined ? 0 : previous.version + 1;
  const createIndex = previous?.entry.CreateIndex ?? index;
  const oldSummary = previous?.entry.JobSummary;
  const summary: Record<string, TaskGroupSummary> = {};
  for (const group of spec.TaskGroups) {
    const old = oldSummary?.Summary[group.Name];
    summary[group.Name] = old !== undefined && previous?.entry.Status === "running" ? { ...old } : freshSummary(group.Count);
  }
  const launches = spec.Periodic || spec.ParameterizedJob;
  const status = spec.Stop ? "dead" : launches ? "running" : previous?.entry.Status === "running" ? "running" : "pending";
  const entry: JobListEntry = {
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
  const record: JobRecord = { entry, version };
  const changes: Change[] = [{ kind: "job", record }];

  if (spec.Stop) {
    // Stopping a job cancels its running deployment, as the scheduler does.
    for (const d of state.deployments) {
      if (d.Namespace === spec.Namespace && d.JobID === spec.ID && ACTIVE(d)) {
        changes.push({ kind: "deployment", deployment: { ...d, ModifyIndex: index, Status: "cancelled", StatusDescription: STOPPED_JOB } });
      }
    }
  }

  if (spec.Type === "service" && !spec.Stop && !launches) {
    for (const d of state.deployments) {
      if (d.Namespace === spec.Namespace && d.JobID === spec.ID && ACTIVE(d)) {
        changes.push({
          kind: "deployment",
          deployment: { ...d, ModifyIndex: index, Status: "cancelled", StatusDescription: "Cancelled due to newer version of job" },
        });
      }
    }
    const taskGroups: Record<string, DeploymentState> = {};
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
  const evaluates = !launches;
  return {
    changes,
    result: {
      EvalCreateIndex: evaluates ? index : 0,
      EvalID: evaluates ? randomUUID() : "",
      Index: index,
      JobModifyIndex: index,
      KnownLeader: false,
      LastContact: 0,
      NextToken: "",
      Warnings: "",
    },
  };
}
