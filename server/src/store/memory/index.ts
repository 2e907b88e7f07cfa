/** The embedded store: the in-memory state (optionally persisted to a data directory) behind the store interface. */
import type { Filter } from "filter-expr";
import { BlockAnswers } from "./block-answers.js";
import { checksOf, planWalk } from "../../lists/paginate.js";
import type { JobRecord, Table } from "../../lists/records.js";
import { jobsEndpoint } from "../../lists/endpoints.js";
import { planRegistration, type JobSpec, type RegisterResponse } from "../../lists/register.js";
import type { Commit, ListRead, SchedulerStore, StorePage } from "../types.js";
import { readIndexPage } from "./pages.js";
import { rowEvaluator } from "../../lists/filters.js";
import type { SchedulerState } from "./state.js";

export class MemoryStore implements SchedulerStore {
  readonly kind = "memory";

  constructor(readonly state: SchedulerState) {}

  indexOf(table: Table): number {
    return this.state.indexOf(table);
  }

  async readPage<T>(read: ListRead<T>): Promise<StorePage<T>> {
    const index = this.state.indexOf(read.endpoint.table);
    const walk = planWalk(read.endpoint, read.query, (order) => this.state.orderIndex(order).partitions);
    const orderIndex = this.state.orderIndex(walk.order);
    // A filter whose work per item is bounded reads the index's columns (it needs no budget).
    const filter = read.filter;
    const columnar = filter !== undefined && !filter.facts.growsWithItems ? (filter as unknown as Filter<T>) : undefined;
    const atRow = columnar && rowEvaluator(orderIndex.table.matcher(columnar), read.failed);
    const checks = {
      check: checksOf(read),
      atRow: atRow && checksOf({ ...read, matches: (_item: T, row: number) => atRow(row) }),
      // Without an ACL check, a row the filter rejects needs nothing else (with one, the ACL goes first).
      rejections: columnar !== undefined && read.allowed === undefined ? new BlockAnswers(orderIndex.table, columnar) : undefined,
    };
    const page = await readIndexPage(orderIndex, walk, read.query.perPage, checks, read.pause, read.turn);
    return { ...page, index, walk };
  }

  async readJob(namespace: string, id: string): Promise<{ record: JobRecord | undefined; index: number }> {
    return { record: this.state.job(namespace, id), index: this.state.indexOf("jobs") };
  }

  async namespaces(): Promise<{ names: string[]; index: number }> {
    return { names: [...this.state.orderIndex(jobsEndpoint.order).partitions], index: this.state.indexOf("jobs") };
  }

  register(spec: JobSpec, nowMs: number): Promise<RegisterResponse> {
    return this.state.write((index) => planRegistration(this.state, spec, index, nowMs));
  }

  waitForChange(table: Table, minIndex: number, timeoutMs: number): { done: Promise<void>; cancel(): void } {
    return this.state.waitForChange(table, minIndex, timeoutMs);
  }

  get waiting(): number {
    return this.state.waiting;
  }

  /** Every write of this process; the embedded store keeps them all, so `onGap` is never called. */
  onCommit(listener: (commit: Commit) => void, onGap?: (after: number, upTo: number) => void): () => void {
    return this.state.onCommit(listener, onGap);
  }

  get feedIndex(): number {
    return this.state.index;
  }

  releaseWaiters(): void {
    this.state.releaseWaiters();
  }

  async summary(): Promise<{ jobs: number; deployments: number; index: number }> {
    return { jobs: this.state.jobCount, deployments: this.state.deploymentCount, index: this.state.index };
  }

  close(): Promise<void> {
    return this.state.close();
  }
}
