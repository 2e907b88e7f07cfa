/** Records of the scheduler API as the seed document describes them (keys in the server's sorted order). */
import type { AllocationListStub, Evaluation, NodeListStub, RecordType, Type } from "filter-expr";

export type { AllocationListStub, Evaluation, NodeListStub };

export interface TaskGroupSummary {
  Complete: number;
  Failed: number;
  Lost: number;
  Queued: number;
  Running: number;
  Starting: number;
}

export interface JobChildrenSummary {
  Dead: number;
  Pending: number;
  Running: number;
}

export interface JobSummary {
  Children: JobChildrenSummary | null;
  CreateIndex: number;
  JobID: string;
  ModifyIndex: number;
  Namespace: string;
  Summary: Record<string, TaskGroupSummary>;
}

/** Element of GET /v1/jobs. */
export interface JobListEntry {
  CreateIndex: number;
  Datacenters: string[] | null;
  ID: string;
  JobModifyIndex: number;
  JobSummary: JobSummary | null;
  ModifyIndex: number;
  Multiregion: Record<string, unknown> | null;
  Name: string;
  Namespace: string;
  ParameterizedJob: boolean;
  ParentID: string;
  Periodic: boolean;
  Priority: number;
  Status: string;
  StatusDescription: string;
  Stop: boolean;
  SubmitTime: number;
  Type: string;
}

export interface DeploymentState {
  AutoPromote: boolean;
  AutoRevert: boolean;
  DesiredCanaries: number;
  DesiredTotal: number;
  HealthyAllocs: number;
  PlacedAllocs: number;
  PlacedCanaries: string[] | null;
  ProgressDeadline: number;
  Promoted: boolean;
  RequireProgressBy: string | null;
  UnhealthyAllocs: number;
}

/** Element of GET /v1/deployments. */
export interface Deployment {
  CreateIndex: number;
  EvalPriority: number;
  ID: string;
  IsMultiregion: boolean;
  JobCreateIndex: number;
  JobID: string;
  JobModifyIndex: number;
  JobSpecModifyIndex: number;
  JobVersion: number;
  ModifyIndex: number;
  Namespace: string;
  Status: string;
  StatusDescription: string;
  TaskGroups: Record<string, DeploymentState>;
}

/** A stored job: its list entry plus what registration needs to remember. */
export interface JobRecord {
  entry: JobListEntry;
  /** Version of the job definition: 0 on first registration, +1 on each update. */
  version: number;
}

export const JOB_TYPES = ["service", "batch", "system", "sysbatch"] as const;
export const DEPLOYMENT_STATUSES = [
  "running",
  "paused",
  "failed",
  "successful",
  "cancelled",
  "initializing",
  "pending",
  "blocked",
  "unblocking",
] as const;

/** The scheduler's status descriptions, per deployment status. */
export const DEPLOYMENT_DESCRIPTIONS: Record<string, readonly string[]> = {
  running: ["Deployment is running", "Deployment is running but requires manual promotion", "Deployment is running pending automatic promotion"],
  paused: ["Deployment is paused"],
  failed: ["Failed due to progress deadline", "Failed due to unhealthy allocations", "Deployment marked as failed"],
  successful: ["Deployment completed successfully"],
  cancelled: ["Cancelled due to newer version of job", "Cancelled because job is stopped"],
  initializing: ["Deployment is initializing"],
  pending: ["Deployment is pending, waiting for peer region"],
  blocked: ["Deployment is complete but waiting for peer region"],
  unblocking: ["Deployment is unblocking remaining regions"],
};

/** Deployment statuses after which a deployment no longer changes. */
export const TERMINAL_DEPLOYMENT_STATUSES: ReadonlySet<string> = new Set(["successful", "cancelled", "failed"]);

/** The tables of the scheduler's state; each has an index (X-Svc-Index) of its own. */
export type Table = "jobs" | "deployments" | "allocations" | "nodes" | "evaluations";

/**
 * A change to a list whose records the server holds as they are given (a data file's, the demo's, an
 * evaluation a registration creates): the record, and the one it replaces (absent: created).
 */
export type RecordChange =
  | { kind: "allocation"; item: AllocationListStub; previous?: AllocationListStub }
  | { kind: "node"; item: NodeListStub; previous?: NodeListStub }
  | { kind: "evaluation"; item: Evaluation; previous?: Evaluation };

/**
 * One change a write makes: a job (with its version), a deployment or a record of another list, created
 * or replaced; `previous`
 * is the record it replaces (absent: created). Readers of a write's effect on a list (filtered blocking
 * queries) compare the two versions.
 */
export type Change =
  | { kind: "job"; record: JobRecord; previous?: JobListEntry }
  | { kind: "deployment"; deployment: Deployment; previous?: Deployment }
  | RecordChange;

/** The whole state, as a data file, a data directory or a database gives it. */
export interface Snapshot {
  index: number;
  jobs: JobRecord[];
  deployments: Deployment[];
  allocations: AllocationListStub[];
  nodes: NodeListStub[];
  evaluations: Evaluation[];
}

/** A snapshot of `parts`, the lists not given empty, at index 1 when none is given. */
export function snapshotOf(parts: Partial<Snapshot>): Snapshot {
  return { index: 1, jobs: [], deployments: [], allocations: [], nodes: [], evaluations: [], ...parts };
}

/** The snapshot list of each kind of record change. */
export const RECORD_LISTS = { allocation: "allocations", node: "nodes", evaluation: "evaluations" } as const satisfies Record<RecordChange["kind"], keyof Snapshot>;

/** The changes that write a whole snapshot: every record created, jobs first, then deployments and the other lists. */
export function changesOf(snapshot: Snapshot): Change[] {
  return [
    ...snapshot.jobs.map((record): Change => ({ kind: "job", record })),
    ...snapshot.deployments.map((deployment): Change => ({ kind: "deployment", deployment })),
    ...snapshot.allocations.map((item): Change => ({ kind: "allocation", item })),
    ...snapshot.nodes.map((item): Change => ({ kind: "node", item })),
    ...snapshot.evaluations.map((item): Change => ({ kind: "evaluation", item })),
  ];
}

/** Adds the record a change writes to the snapshot's list of its kind (`changesOf` read back). */
export function addToSnapshot(snapshot: Snapshot, change: Change): void {
  if (change.kind === "job") snapshot.jobs.push(change.record);
  else if (change.kind === "deployment") snapshot.deployments.push(change.deployment);
  else (snapshot[RECORD_LISTS[change.kind]] as unknown[]).push(change.item);
}

/** The zero value of a field of `type`, as the scheduler writes it (a zero time is null). */
export function zeroOf(type: Type): unknown {
  switch (type.kind) {
    case "string":
      return "";
    case "int":
    case "uint":
    case "float":
      return 0;
    case "bool":
      return false;
    case "record":
      return Object.keys(type.fields).length === 0 ? null : withZeros(type, {});
    default:
      return null;
  }
}

/**
 * A record of `type` (one of the library's schemas) that holds `fields` and the zero value of every
 * other field, in the schema's order; a nested record given partly is filled alike. For records the
 * server makes (a registration's evaluation, the demo's).
 */
export function withZeros<T>(type: RecordType, fields: Partial<T>): T {
  const given = fields as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(type.fields)) {
    const value = Object.hasOwn(given, name) ? given[name] : undefined;
    const nested = field.kind === "record" && Object.keys(field.fields).length > 0 && typeof value === "object" && value !== null;
    out[name] = value === undefined ? zeroOf(field) : nested ? withZeros(field, value as Record<string, unknown>) : value;
  }
  return out as T;
}
