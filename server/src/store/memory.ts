/** The embedded store: the in-memory state (optionally persisted to a data directory) behind the store interface. */
import { paginateSliced } from "../scheduler/paginate.js";
import { planRegistration, type JobSpec, type RegisterResponse } from "../scheduler/register.js";
import type { SchedulerState, Table } from "../scheduler/state.js";
import type { ListRead, SchedulerStore, StorePage } from "./types.js";

export class MemoryStore implements SchedulerStore {
  readonly kind = "memory";

  constructor(readonly state: SchedulerState) {}

  indexOf(table: Table): number {
    return this.state.indexOf(table);
  }

  async readPage<T>(read: ListRead<T>): Promise<StorePage<T>> {
    const index = this.state.indexOf(read.endpoint.table);
    const request = { nextToken: read.query.nextToken, perPage: read.query.perPage, matches: read.matches, allowed: read.allowed };
    const page = await paginateSliced(read.endpoint.source(this.state, read.query), request, read.pause);
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
    return { jobs: this.state.jobCount, deployments: this.state.deployments.length, index: this.state.index };
  }

  close(): Promise<void> {
    return this.state.close();
  }
}
