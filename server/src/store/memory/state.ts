import { endpointOf, itemsOf, jobsEndpoint, listChange, perTable, type ListEndpoint } from "../../lists/endpoints.js";
import type { ListOrder } from "../../lists/orders.js";
import type { RegistrationView } from "../../lists/register.js";
import type { Change, Deployment, JobListEntry, JobRecord, Snapshot, Table } from "../../lists/records.js";
import { Waiters } from "../waiters.js";
import type { Commit } from "../types.js";
import { OrderIndex } from "./order-index.js";

/** Durable storage of the state: `save` resolves only once the changes survive a kill. */
export interface StatePersistence {
  save(changes: readonly Change[], index: number): Promise<void>;
  close(): Promise<void>;
}

export { WAKE_BATCH } from "../waiters.js";

export const jobKey = (namespace: string, id: string): string => `${namespace}\u0000${id}`;

/**
 * The scheduler's state: each list in an index per order its endpoint declares (jobs by namespace and
 * ID; deployments by create index and ID, and by ID), the raft index and per-table indexes, and the
 * waiters of blocking queries. Writes are serialized; each is made durable (when persistence is on)
 * before it becomes visible and before it is acknowledged.
 */
export class SchedulerState implements RegistrationView {
  private raftIndex: number;
  private readonly tableIndex: Record<Table, number> = perTable(() => 1);
  /**
   * The jobs' definition versions that are not 0, by `jobKey` (most jobs of a data file have none: a
   * record per job would cost a million jobs about 100 MB; the jobs themselves are in `jobs`).
   */
  private readonly versions = new Map<string, number>();
  /** Each table's indexes: one per order its endpoint declares (its list's, then its prefix's when that differs). */
  private readonly lists: Record<Table, OrderIndex<unknown>[]> = perTable((table) => indexesOf(endpointOf(table)));
  private readonly jobs = this.lists.jobs[0] as OrderIndex<JobListEntry>;
  /** Deployments by create index and ID, and by ID (`deploymentsEndpoint`'s orders). */
  private readonly deployments = this.lists.deployments as [OrderIndex<Deployment>, OrderIndex<Deployment>];
  private readonly waiters = new Waiters();
  private readonly commitListeners = new Set<(commit: Commit) => void>();
  private writeChain: Promise<unknown> = Promise.resolve();

  constructor(
    snapshot: Snapshot,
    private readonly persistence?: StatePersistence,
  ) {
    this.raftIndex = Math.max(1, snapshot.index);
    for (const record of snapshot.jobs) this.setVersion(record);
    for (const [table, indexes] of Object.entries(this.lists) as [Table, OrderIndex<unknown>[]][]) {
      const items = itemsOf(snapshot, table);
      for (const index of indexes) index.load(items);
      for (const item of indexes[0]!.all) this.tableIndex[table] = Math.max(this.tableIndex[table], modifyIndexOf(item));
      this.raftIndex = Math.max(this.raftIndex, this.tableIndex[table]);
    }
  }

  /** Latest raft index (1 on a new state). */
  get index(): number {
    return this.raftIndex;
  }

  /** X-Svc-Index of a table's list: the highest index that touched the table, at least 1. */
  indexOf(table: Table): number {
    return this.tableIndex[table];
  }

  /** The index of a list order an endpoint declares (jobs: by namespace and ID; deployments: by create index, by ID). */
  orderIndex<T>(order: ListOrder<T>): OrderIndex<T> {
    const index = Object.values(this.lists)
      .flat()
      .find((i) => i.order === (order as ListOrder<unknown>));
    if (index === undefined) throw new Error("no index of that order");
    return index as unknown as OrderIndex<T>;
  }

  get jobCount(): number {
    return this.jobs.size;
  }

  get deploymentCount(): number {
    return this.deployments[1].size;
  }

  job(namespace: string, id: string): JobRecord | undefined {
    const entry = this.jobs.find({ Namespace: namespace, ID: id } as JobListEntry);
    return entry === undefined ? undefined : this.recordOf(entry);
  }

  private recordOf(entry: JobListEntry): JobRecord {
    return { entry, version: this.versions.get(jobKey(entry.Namespace, entry.ID)) ?? 0 };
  }

  private setVersion(record: JobRecord): void {
    const key = jobKey(record.entry.Namespace, record.entry.ID);
    if (record.version === 0) this.versions.delete(key);
    else this.versions.set(key, record.version);
  }

  /** The job's deployments, by create index (registration cancels the active ones). */
  *deploymentsOf(namespace: string, jobId: string): Iterable<Deployment> {
    for (const d of this.deployments[0].all) if (d.Namespace === namespace && d.JobID === jobId) yield d;
  }

  deployment(id: string): Deployment | undefined {
    return this.deployments[1].find({ ID: id } as Deployment);
  }

  /** Every job record (for snapshots). */
  allJobRecords(): JobRecord[] {
    return this.jobs.all.map((entry) => this.recordOf(entry));
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
    for (const change of changes) {
      if (change.kind === "job") this.setVersion(change.record);
      const { table, after } = listChange(change);
      for (const index of this.lists[table]) index.upsert(after);
      touched.add(table);
    }
    for (const table of touched) {
      this.tableIndex[table] = index;
      this.waiters.wake(table, index);
    }
    for (const listener of this.commitListeners) listener({ index, changes });
  }

  /**
   * Calls `listener` after each write is applied (persisted first when persistence is on), in index
   * order; returns how to stop. Every write reaches the listeners, so `_onGap` (the store interface's)
   * is never called.
   */
  onCommit(listener: (commit: Commit) => void, _onGap?: (after: number, upTo: number) => void): () => void {
    this.commitListeners.add(listener);
    return () => void this.commitListeners.delete(listener);
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

/** A table's indexes: one per distinct order its endpoint declares. */
function indexesOf(endpoint: ListEndpoint<unknown>): OrderIndex<unknown>[] {
  const orders = [...new Set([endpoint.order, endpoint.prefix.order])];
  return orders.map((order) => new OrderIndex(order, endpoint.columns));
}

/** The highest index that wrote an item (a job's summary has its own). */
function modifyIndexOf(item: unknown): number {
  const { ModifyIndex, JobSummary } = item as { ModifyIndex?: number; JobSummary?: { ModifyIndex?: number } | null };
  return Math.max(ModifyIndex ?? 0, JobSummary?.ModifyIndex ?? 0);
}
