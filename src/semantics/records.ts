/**
 * The records of the built-in schemas as TypeScript types: what `GET /v1/jobs` and
 * `GET /v1/deployments` answer, one interface per record of `schemas.job` and `schemas.deployment`
 * (a test keeps both in step). Use them as the item type of a compiled filter:
 * `compile<JobListStub>(text, { schema: schemas.job })`.
 *
 * Integers are `number` as JSON gives them; a filter also reads `bigint` (exact 64-bit values from
 * `parseJson`). A Go nil slice, map or pointer is `null`; a filter reads an absent field as its zero
 * value, so partial records filter as the server's would.
 */

/** Counts of a job's child jobs (periodic and parameterized jobs). */
export interface JobChildrenSummary {
  Pending: number;
  Running: number;
  Dead: number;
}

/** Allocation counts of one task group. */
export interface TaskGroupSummary {
  Queued: number;
  Complete: number;
  Failed: number;
  Running: number;
  Starting: number;
  Lost: number;
}

/** A job's summary: allocation counts per task group. */
export interface JobSummary {
  JobID: string;
  Namespace: string;
  Children: JobChildrenSummary | null;
  /** By task group name. */
  Summary: Record<string, TaskGroupSummary> | null;
  CreateIndex: number;
  ModifyIndex: number;
}

/** A multiregion job's strategy and regions, as free-form JSON. */
export interface Multiregion {
  Strategy: Record<string, unknown> | null;
  Regions: Record<string, unknown>[] | null;
}

/** A job list entry of `GET /v1/jobs` (`schemas.job`). */
export interface JobListStub {
  ID: string;
  ParentID: string;
  Name: string;
  Namespace: string;
  Datacenters: string[] | null;
  Multiregion: Multiregion | null;
  Type: string;
  Priority: number;
  Periodic: boolean;
  ParameterizedJob: boolean;
  Stop: boolean;
  Status: string;
  StatusDescription: string;
  JobSummary: JobSummary | null;
  CreateIndex: number;
  ModifyIndex: number;
  JobModifyIndex: number;
  SubmitTime: number;
}

/** The state of one task group in a deployment. */
export interface DeploymentState {
  AutoRevert: boolean;
  AutoPromote: boolean;
  ProgressDeadline: number;
  Promoted: boolean;
  PlacedCanaries: string[] | null;
  DesiredCanaries: number;
  DesiredTotal: number;
  PlacedAllocs: number;
  HealthyAllocs: number;
  UnhealthyAllocs: number;
  /** An RFC 3339 time, or null. */
  RequireProgressBy: string | null;
}

/** A deployment of `GET /v1/deployments` (`schemas.deployment`). */
export interface Deployment {
  ID: string;
  Namespace: string;
  JobID: string;
  JobVersion: number;
  JobModifyIndex: number;
  JobSpecModifyIndex: number;
  JobCreateIndex: number;
  IsMultiregion: boolean;
  /** By task group name. */
  TaskGroups: Record<string, DeploymentState | null> | null;
  Status: string;
  StatusDescription: string;
  EvalPriority: number;
  CreateIndex: number;
  ModifyIndex: number;
}
