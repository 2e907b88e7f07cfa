/**
 * The scheduler's store: where jobs (with their summaries), deployments and the index live. The list
 * endpoints, registration and blocking queries go through this interface only, so that the embedded
 * store (memory, optionally mirrored to a data directory) and the PostgreSQL store answer alike.
 */
import type { ListEndpoint } from "../lists/endpoints.js";
import type { ItemFilter } from "../lists/filters.js";
import type { CheckOrder, Page, PageQuery, Walk } from "../lists/paginate.js";
import type { JobSpec, RegisterResponse } from "../lists/register.js";
import type { Change, JobRecord, Table } from "../lists/records.js";

/** A committed write: its index and its changes, in the order the write made them. */
export interface Commit {
  readonly index: number;
  readonly changes: readonly Change[];
}

/** What decides one page of a list request. */
export interface ListRead<T> {
  endpoint: ListEndpoint<T>;
  query: PageQuery;
  /** The compiled filter (for the SQL pushdown); undefined without `filter`. */
  filter: ItemFilter | undefined;
  /** The filter with the request's budget; throws the 400 that ends the page. */
  matches: ((item: T) => boolean) | undefined;
  /** Where a store that evaluates the filter itself counts the pages it ends with a 400 (the metrics). */
  failed?: { evaluation: number; budget: number };
  /** The ACL namespace check, undefined when every namespace is readable. */
  allowed: ((item: T) => boolean) | undefined;
  /** Namespaces the token may read; null: all. */
  readable: ReadonlySet<string> | null;
  /** Whether the ACL check comes before the filter (the default) or after it (the scheduler's order). */
  order: CheckOrder;
  /** Checked before each item a scan in this process reads (every 16 rows where a table's columns decide the filter): true yields to the event loop (`turn`). */
  pause: () => boolean;
  /**
   * Waits for the read's next turn of the event loop (its client's share of the loop, shared fairly
   * with the other clients' long work); rejects with `ClientGone` once nobody waits for the page.
   */
  turn: () => Promise<void>;
  /** Aborted when nobody waits for the page any more (its clients left): a store stops what it runs for it. */
  signal?: AbortSignal;
}

/** A page, the index of the state it was read at, and the walk that read it. */
export interface StorePage<T> extends Page<T> {
  index: number;
  walk: Walk<T>;
}

export interface SchedulerStore {
  readonly kind: "memory" | "postgres";
  /** X-Svc-Index of a table as this server knows it (never decreases). */
  indexOf(table: Table): number;
  /** One page of a list request, as a full scan of the list in its order would give it. */
  readPage<T>(read: ListRead<T>): Promise<StorePage<T>>;
  /** A job by namespace and ID (undefined: none), and the jobs table's index it was read at. */
  readJob(namespace: string, id: string, signal?: AbortSignal): Promise<{ record: JobRecord | undefined; index: number }>;
  /** The namespaces that hold jobs, by name (bytewise), and the jobs table's index they were read at. */
  namespaces(signal?: AbortSignal): Promise<{ names: string[]; index: number }>;
  /** PUT /v1/jobs: the job, its summary, its deployment (and the cancelled previous one) and the index, together. */
  register(spec: JobSpec, nowMs: number): Promise<RegisterResponse>;
  /** Resolves when the table's index passes `minIndex`, after `timeoutMs`, or at shutdown. */
  waitForChange(table: Table, minIndex: number, timeoutMs: number): { done: Promise<void>; cancel(): void };
  /** Blocking queries waiting. */
  readonly waiting: number;
  /** Answers every waiting blocking query now and every later one at once (shutdown). */
  releaseWaiters(): void;
  /**
   * Calls `listener` after each write this store commits (durable and visible), in index order, each
   * write once; returns how to stop. On PostgreSQL these are the writes of every server sharing the
   * database. `onGap(after, upTo)` is called, before the next commit, when the writes in (after, upTo]
   * can no longer be delivered (a feed that fell behind what the store keeps of them).
   */
  onCommit(listener: (commit: Commit) => void, onGap?: (after: number, upTo: number) => void): () => void;
  /** The index after which a listener added now receives the writes (the last one `onCommit` delivered). */
  readonly feedIndex: number;
  /** Counts for the start-up log line. */
  summary(): Promise<{ jobs: number; deployments: number; index: number }>;
  close(): Promise<void>;
}
