/** The apply resource of the infrastructure run service, as the store keeps it. */

/** Every status of the seed's status table, in lifecycle order. */
export const APPLY_STATUSES = [
  "pending",
  "managed_queued",
  "queued",
  "running",
  "errored",
  "canceled",
  "finished",
  "unreachable",
] as const;

export type ApplyStatus = (typeof APPLY_STATUSES)[number];

/** Statuses after which an apply never changes again. */
export const FINAL_STATUSES: ReadonlySet<ApplyStatus> = new Set(["errored", "canceled", "finished", "unreachable"]);

export function isApplyStatus(value: unknown): value is ApplyStatus {
  return typeof value === "string" && (APPLY_STATUSES as readonly string[]).includes(value);
}

export type ExecutionMode = "remote" | "agent";

export type ExecutionDetails =
  | { mode: "remote" }
  | { mode: "agent"; agentId: string; agentName: string; agentPoolId: string; agentPoolName: string };

/** ISO 8601 timestamps with offset; a key is absent when the apply never reached that point. */
export interface StatusTimestamps {
  queuedAt?: string;
  startedAt?: string;
  finishedAt?: string;
}

export interface ResourceCounts {
  additions: number;
  changes: number;
  destructions: number;
  imports: number;
}

export interface Apply {
  /** `apply-<id>` */
  id: string;
  status: ApplyStatus;
  execution: ExecutionDetails;
  timestamps: StatusTimestamps;
  resources: ResourceCounts;
  /** ids of the state versions the apply produced (`sv-…`) */
  stateVersionIds: string[];
  /** the apply's log, served at its log read URL */
  log: string;
  /** raw content of the state uploaded by the fallback after a failed state upload; null when none */
  erroredState: string | null;
}

/** Ids are `apply-` then URL-safe characters, so they go into paths and signatures unescaped. */
export const APPLY_ID_PATTERN = /^apply-[A-Za-z0-9._~-]{1,96}$/;
