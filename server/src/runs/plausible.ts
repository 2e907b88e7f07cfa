import { createHash } from "node:crypto";
import type { ApplyStatus, ExecutionDetails, ResourceCounts, StatusTimestamps } from "./model.js";

type AgentDetails = Extract<ExecutionDetails, { mode: "agent" }>;

/**
 * Plausible values for the attributes an apply was not given. They are derived from the apply id, so
 * the same data file always yields the same documents.
 */
export class Plausible {
  private readonly bytes: Buffer;
  private cursor = 0;

  constructor(readonly applyId: string) {
    this.bytes = createHash("sha256").update(applyId).digest();
  }

  /** an integer in [min, max], from the next byte of the id's hash */
  int(min: number, max: number): number {
    const byte = this.bytes[this.cursor++ % this.bytes.length] ?? 0;
    return min + (byte % (max - min + 1));
  }

  /** a number in [0, 2^32) stable for (apply id, label) */
  labelled(label: string): number {
    return createHash("sha256").update(`${this.applyId}/${label}`).digest().readUInt32BE(0);
  }

  /** `prefix-` then 16 base62 characters, stable for (apply id, label) */
  id(prefix: string, label: string): string {
    return stableId(prefix, `${this.applyId}/${label}`);
  }

  /** a UUID-shaped string, stable for (apply id, label) */
  uuid(label: string): string {
    const hex = createHash("sha256").update(`${this.applyId}/${label}`).digest("hex");
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  }

  /** Agent details completing `given`: ids follow the names, so one agent or pool has one id. */
  agent(given: Partial<AgentDetails> = {}): AgentDetails {
    const pools = ["prod-pool", "staging-pool", "ci-pool"];
    const agentPoolName = given.agentPoolName ?? pools[this.labelled("pool-name") % pools.length] ?? "default-pool";
    const number = this.int(1, 9);
    const agentName = given.agentName ?? `${agentPoolName.replace(/-pool$/, "")}-agent-${number}`;
    return {
      mode: "agent",
      agentId: given.agentId ?? stableId("agent", agentName),
      agentName,
      agentPoolId: given.agentPoolId ?? stableId("apool", agentPoolName),
      agentPoolName,
    };
  }

  /** The timestamps an apply in `status` has reached, ending before `baseMs`. */
  timestamps(status: ApplyStatus, baseMs: number): StatusTimestamps {
    const queued = baseMs - this.int(10, 240) * 60_000 - this.int(0, 59) * 1000;
    const started = queued + this.int(2, 90) * 1000;
    const finished = started + this.int(15, 240) * 1000;
    switch (status) {
      case "pending":
      case "unreachable":
        return {};
      case "managed_queued":
      case "queued":
        return { queuedAt: formatTimestamp(queued) };
      case "running":
        return { queuedAt: formatTimestamp(queued), startedAt: formatTimestamp(started) };
      case "errored":
      case "canceled":
      case "finished":
        return {
          queuedAt: formatTimestamp(queued),
          startedAt: formatTimestamp(started),
          finishedAt: formatTimestamp(finished),
        };
    }
  }

  /** Counts of changed resources: none before the apply starts, some once it has run. */
  resources(status: ApplyStatus): ResourceCounts {
    switch (status) {
      case "pending":
      case "managed_queued":
      case "queued":
      case "unreachable":
        return { additions: 0, changes: 0, destructions: 0, imports: 0 };
      default:
        return {
          additions: this.int(0, 6),
          changes: this.int(0, 3),
          destructions: this.int(0, 2),
          imports: this.int(0, 1),
        };
    }
  }

  /**
   * A run that got far enough saves a state version, unless saving the state failed, which is exactly
   * when an errored state exists.
   */
  stateVersionIds(status: ApplyStatus, hasErroredState: boolean): string[] {
    if (hasErroredState) return [];
    return status === "finished" || status === "errored" || status === "canceled" ? [this.id("sv", "state")] : [];
  }
}

/** ISO 8601 in UTC with an explicit offset, e.g. `2024-05-01T12:00:00+00:00`. */
export function formatTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
}

/** `prefix-` then 16 base62 characters derived from `key`. */
function stableId(prefix: string, key: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const digest = createHash("sha256").update(key).digest();
  let out = "";
  for (let i = 0; i < 16; i++) out += alphabet[(digest[i] ?? 0) % alphabet.length];
  return `${prefix}-${out}`;
}
