/**
 * The scheduler's store: where jobs (with their summaries), deployments and the index live. The list
 * endpoints, registration and blocking queries go through this interface only, so that the embedded
 * store (memory, optionally mirrored to a data directory) and the PostgreSQL store answer alike.
 */
import type { ItemFilter } from "../scheduler/filters.js";
import type { ListEndpoint } from "../scheduler/list.js";
import type { Page } from "../scheduler/paginate.js";
import type { ListQuery } from "../scheduler/query.js";
import type { JobSpec, RegisterResponse } from "../scheduler/register.js";
import type { Table } from "../scheduler/state.js";

/** What decides one page of a list request. */
export interface ListRead<T> {
  endpoint: ListEndpoint<T>;
  query: ListQuery;
  /** The compiled filter (for the SQL pushdown); undefined without `filter`. */
  filter: ItemFilter | undefined;
  /** The filter with the request's budget; throws the 400 that ends the page. */
  matches: ((item: T) => boolean) | undefined;
  /** The ACL namespace check (after the filter), undefined when every namespace is readable. */
  allowed: ((item: T) => boolean) | undefined;
  /** Namespaces the token may read; null: all. */
  readable: ReadonlySet<string> | null;
  /** Checked before each item a scan in this process reads: true yields to the event loop. */
  pause: () => boolean;
  /** Aborted when the request's client goes away: a store may stop the read (and its statement) then. */
  signal?: AbortSignal;
}

/** A page and the index of the state it was read at. */
export interface StorePage<T> extends Page<T> {
  index: number;
}

export interface SchedulerStore {
  readonly kind: "memory" | "postgres";
  /** X-Svc-Index of a table as this server knows it (never decreases). */
  indexOf(table: Table): number;
  /** One page of a list request, as a full scan of the list in its order would give it. */
  readPage<T>(read: ListRead<T>): Promise<StorePage<T>>;
  /** PUT /v1/jobs: the job, its summary, its deployment (and the cancelled previous one) and the index, together. */
  register(spec: JobSpec, nowMs: number): Promise<RegisterResponse>;
  /** Resolves when the table's index passes `minIndex`, after `timeoutMs`, or at shutdown. */
  waitForChange(table: Table, minIndex: number, timeoutMs: number): { done: Promise<void>; cancel(): void };
  /** Blocking queries waiting. */
  readonly waiting: number;
  /** Answers every waiting blocking query now and every later one at once (shutdown). */
  releaseWaiters(): void;
  /** Counts for the start-up log line. */
  summary(): Promise<{ jobs: number; deployments: number; index: number }>;
  close(): Promise<void>;
}
