import type { Deployment, JobListEntry, JobRecord } from "./types.js";
import { Waiters } from "../store/waiters.js";

export type Table = "jobs" | "deployments";

export type Change = { kind: "job"; record: JobRecord } | { kind: "deployment"; deployment: Deployment };

export interface Snapshot {
  index: number;
  jobs: JobRecord[];
  deployments: Deployment[];
}

/** Durable storage of the state: `save` resolves only once the changes survive a kill. */
export interface StatePersistence {
  save(changes: readonly Change[], index: number): Promise<void>;
  close(): Promise<void>;
}

export { WAKE_BATCH } from "../store/waiters.js";

export const jobKey = (namespace: string, id: string): string => `${namespace}\u0000${id}`;

function compareJobs(a: JobListEntry, b: JobListEntry): number {
  if (a.Namespace !== b.Namespace) return a.Namespace < b.Namespace ? -1 : 1;
  return a.ID < b.ID ? -1 : a.ID > b.ID ? 1 : 0;
}

function compareDeployments(a: Deployment, b: Deployment): number {
  if (a.CreateIndex !== b.CreateIndex) return a.CreateIndex - b.CreateIndex;
  return a.ID < b.ID ? -1 : a.ID > b.ID ? 1 : 0;
}

/** First position in a sorted array whose element is not less than the probe. */
export function lowerBound<T>(items: readonly T[], lessThanProbe: (item: T) => boolean, lo = 0, hi = items.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lessThanProbe(items[mid] as T)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upsertSorted<T>(items: T[], item: T, compare: (a: T, b: T) => number): void {
  const at = lowerBound(items, (x) => compare(x, item) < 0);
  const here = items[at];
  if (here !== undefined && compare(here, item) === 0) items[at] = item;
  else items.splice(at, 0, item);
}

/**
 * The scheduler's state: jobs in (Namespace, ID) order, deployments in (CreateIndex, ID) order, the raft
 * index and per-table indexes, and the waiters of blocking queries. Writes are serialized; each is made
 * durable (when persistence is on) before it becomes visible and before it is acknowledged.
 */
export class SchedulerState {
  private raftIndex: number;
  private readonly tableIndex: Record<Table, number> = { jobs: 1, deployments: 1 };
  private readonly jobList: JobListEntry[] = [];
  private readonly records = new Map<string, JobRecord>();
  private readonly deploymentList: Deployment[] = [];
  private readonly deploymentsById = new Map<string, Deployment>();
  private namespaces: string[] = [];
  private tokensMonotonic = true;
  private readonly waiters = new Waiters();
  private writeChain: Promise<unknown> = Promise.resolve();

  constructor(
    snapshot: Snapshot,
    private readonly persistence?: StatePersistence,
  ) {
    this.raftIndex = Math.max(1, snapshot.index);
    for (const record of snapshot.jobs) this.records.set(jobKey(record.entry.Namespace, record.entry.ID), record);
    for (const deployment of snapshot.deployments) this.deploymentsById.set(deployment.ID, deployment);
    for (const record of this.records.values()) this.jobList.push(record.entry);
    for (const deployment of this.deploymentsById.values()) this.deploymentList.push(deployment);
    this.jobList.sort(compareJobs);
    this.deploymentList.sort(compareDeployments);
    this.refreshNamespaces();
    for (const job of this.jobList) {
      this.tableIndex.jobs = Math.max(this.tableIndex.jobs, job.ModifyIndex, job.JobSummary?.ModifyIndex ?? 0);
    }
    for (const d of this.deploymentList) this.tableIndex.deployments = Math.max(this.tableIndex.deployments, d.ModifyIndex);
    this.raftIndex = Math.max(this.raftIndex, this.tableIndex.jobs, this.tableIndex.deployments);
  }

  /** Latest raft index (1 on a new state). */
  get index(): number {
    return this.raftIndex;
  }

  /** X-Svc-Index of a table's list: the highest index that touched the table, at least 1. */
  indexOf(table: Table): number {
    return this.tableIndex[table];
  }

  get jobs(): readonly JobListEntry[] {
    return this.jobList;
  }

  get deployments(): readonly Deployment[] {
    return this.deploymentList;
  }

  get jobCount(): number {
    return this.jobList.length;
  }

  /** True when "Namespace.ID" tokens sort like the (Namespace, ID) order of the job list. */
  get jobTokensMonotonic(): boolean {
    return this.tokensMonotonic;
  }

  job(namespace: string, id: string): JobRecord | undefined {
    return this.records.get(jobKey(namespace, id));
  }

  deployment(id: string): Deployment | undefined {
    return this.deploymentsById.get(id);
  }

  /** Positions [lo, hi) of a namespace's jobs, optionally only IDs starting with a prefix. */
  jobRange(namespace: string, idPrefix = ""): [number, number] {
    const list = this.jobList;
    const lo = lowerBound(list, (j) => j.Namespace < namespace || (j.Namespace === namespace && j.ID < idPrefix));
    const hi = lowerBound(list, (j) => j.Namespace < namespace || (j.Namespace === namespace && (j.ID < idPrefix || j.ID.startsWith(idPrefix))), lo);
    return [lo, hi];
  }

  /** Every job record (for snapshots). */
  allJobRecords(): JobRecord[] {
    return this.jobList.map((e) => this.records.get(jobKey(e.Namespace, e.ID)) as JobRecord);
  }

  /**
   * Runs `plan` against the current state with the next index, persists its changes, then applies them
   * and wakes the blocking queries of the tables they touch. Writes run one at a time.
   */
  write<R>(plan: (nextIndex: number) => { changes: Change[]; result: R }): Promise<R> {
    const run = async (): Promise<R> => {
      const next = this.raftIndex + 1;
      const { changes, result } = plan(next);
      if (changes.length === 0) return result;
      await this.persistence?.save(changes, next);
      this.apply(changes, next);
      return result;
    };
    const done = this.writeChain.then(run, run);
    this.writeChain = done.catch(() => undefined);
    return done;
  }

  private apply(changes: readonly Change[], index: number): void {
    this.raftIndex = index;
    const touched = new Set<Table>();
    let newNamespace = false;
    for (const change of changes) {
      if (change.kind === "job") {
        const existed = this.records.has(jobKey(change.record.entry.Namespace, change.record.entry.ID));
        this.records.set(jobKey(change.record.entry.Namespace, change.record.entry.ID), change.record);
        upsertSorted(this.jobList, change.record.entry, compareJobs);
        if (!existed && !this.namespaces.includes(change.record.entry.Namespace)) newNamespace = true;
        touched.add("jobs");
      } else {
        this.deploymentsById.set(change.deployment.ID, change.deployment);
        upsertSorted(this.deploymentList, change.deployment, compareDeployments);
        touched.add("deployments");
      }
    }
    if (newNamespace) this.refreshNamespaces();
    for (const table of touched) {
      this.tableIndex[table] = index;
      this.waiters.wake(table, index);
    }
  }

  private refreshNamespaces(): void {
    this.namespaces = [...new Set(this.jobList.map((j) => j.Namespace))].sort();
    this.tokensMonotonic = this.namespaces.every((a, i) => {
      const b = this.namespaces[i + 1];
      if (b === undefined || !b.startsWith(a)) return true;
      return (b[a.length] ?? "") > ".";
    });
  }

  /**
   * Resolves when the table's index passes `minIndex`, after `timeoutMs`, or when the server releases
   * all waiters for shutdown. `cancel` drops a waiter whose client went away.
   */
  waitForChange(table: Table, minIndex: number, timeoutMs: number): { done: Promise<void>; cancel(): void } {
    return this.waiters.wait(table, minIndex, this.tableIndex[table], timeoutMs);
  }

  /** Number of blocking queries currently waiting. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** Answers every waiting blocking query now and every later one at once (shutdown). */
  releaseWaiters(): void {
    this.waiters.releaseAll();
  }

  /** Waits for pending writes, then closes the persistence. */
  async close(): Promise<void> {
    this.releaseWaiters();
    await this.writeChain;
    await this.persistence?.close();
  }
}
