import { randomUUID } from "node:crypto";

/** The scheduler kinds a server can run; `_core` is the internal one and is always required. */
export const BUILTIN_SCHEDULERS = ["service", "batch", "system", "sysbatch"] as const;
export const CORE_SCHEDULER = "_core";
export const DEFAULT_ENABLED = [...BUILTIN_SCHEDULERS, CORE_SCHEDULER];

export interface SchedulerConfig {
  enabled_schedulers: string[];
  num_schedulers: number;
}

interface Worker {
  id: string;
  started: Date;
  enabled: string[];
}

export interface WorkerView {
  enabled_schedulers: string[];
  id: string;
  started: string;
  status: "Paused" | "Started";
  workload_status: "Paused" | "WaitingToDequeue";
}

/** Whether a requested configuration is acceptable: 0..cpuCount workers, `_core` plus builtin kinds only. */
export function validConfig(config: SchedulerConfig, cpuCount: number): boolean {
  if (!Number.isInteger(config.num_schedulers) || config.num_schedulers < 0 || config.num_schedulers > cpuCount) return false;
  if (!config.enabled_schedulers.includes(CORE_SCHEDULER)) return false;
  const known: readonly string[] = BUILTIN_SCHEDULERS;
  return config.enabled_schedulers.every((kind) => kind === CORE_SCHEDULER || known.includes(kind));
}

function sameConfig(a: SchedulerConfig, b: SchedulerConfig): boolean {
  if (a.num_schedulers !== b.num_schedulers) return false;
  const x = [...a.enabled_schedulers].sort();
  const y = [...b.enabled_schedulers].sort();
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

/**
 * The scheduler workers of a server agent. The running configuration lasts until the next update or a
 * restart (it lives in this process only). As the leader of its own cluster, the server pauses three
 * quarters of its workers to leave room for the plan queue, like the scheduler does.
 */
export class SchedulerPool {
  private config: SchedulerConfig;
  private workers: Worker[] = [];

  constructor(readonly cpuCount: number) {
    this.config = { enabled_schedulers: [...DEFAULT_ENABLED], num_schedulers: cpuCount };
    this.spawn();
  }

  current(): SchedulerConfig {
    return { enabled_schedulers: [...this.config.enabled_schedulers], num_schedulers: this.config.num_schedulers };
  }

  /** Applies a valid configuration; workers are replaced only when it differs from the running one. */
  apply(next: SchedulerConfig): void {
    if (sameConfig(next, this.config)) return;
    this.config = { enabled_schedulers: [...next.enabled_schedulers], num_schedulers: next.num_schedulers };
    this.spawn();
  }

  view(): WorkerView[] {
    const paused = Math.floor((3 * this.workers.length) / 4);
    return this.workers.map((w, i) => ({
      enabled_schedulers: [...w.enabled],
      id: w.id,
      started: w.started.toISOString(),
      status: i < paused ? "Paused" : "Started",
      workload_status: i < paused ? "Paused" : "WaitingToDequeue",
    }));
  }

  private spawn(): void {
    this.workers = Array.from({ length: this.config.num_schedulers }, () => ({
      id: randomUUID(),
      started: new Date(),
      enabled: [...this.config.enabled_schedulers],
    }));
  }
}
