/** The embedded store: the in-memory state (optionally persisted to a data directory) behind the store interface. */
import type { Filter, FilterTable } from "filter-expr";
import { checksOf, planWalk } from "../../lists/paginate.js";
import type { Table } from "../../lists/records.js";
import { planRegistration, type JobSpec, type RegisterResponse } from "../../lists/register.js";
import type { ListRead, SchedulerStore, StorePage } from "../types.js";
import { readIndexPage } from "./pages.js";
import { workGrowsWithItems, rowEvaluator } from "../../lists/filters.js";
import type { SchedulerState } from "./state.js";

/** Rows whose answers are computed together (`FilterTable.answers`), where a scan rejects rows by number. */
const BLOCK = 4096;

/**
 * Whether the filter answers false for a row (an error is left for the page's checks to raise in
 * order), from the answers of the row's block, computed together when the scan first reaches it.
 */
function rejecter<T>(table: FilterTable<T>, filter: Filter<T>): (row: number) => boolean {
  let start = 0;
  let answers: Uint8Array = new Uint8Array(0);
  return (row) => {
    const at = row - start;
    if (at < 0 || at >= answers.length) {
      start = row - (row % BLOCK);
      answers = table.answers(filter, start, Math.min(start + BLOCK, table.length));
      return answers[row - start] === 0;
    }
    return answers[at] === 0;
  };
}

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
    const columnar = filter !== undefined && !workGrowsWithItems(filter) ? (filter as unknown as Filter<T>) : undefined;
    const atRow = columnar && rowEvaluator(orderIndex.table.matcher(columnar));
    const checks = {
      check: checksOf(read),
      atRow: atRow && checksOf({ ...read, matches: (_item: T, row: number) => atRow(row) }),
      // Without an ACL check, a row the filter rejects needs nothing else (with one, the ACL goes first).
      rejects: columnar !== undefined && read.allowed === undefined ? rejecter(orderIndex.table, columnar) : undefined,
    };
    const page = await readIndexPage(orderIndex, walk, read.query.perPage, checks, read.pause);
    return { ...page, index };
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
