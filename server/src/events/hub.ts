/**
 * The server's event streams: the events of every committed write go into a bounded buffer (for
 * resumption) and to every open stream, through one `FilterSet` over the streams' filters: one
 * `match` per event answers for every stream (each filter indexed by its leading equality).
 */
import { FilterEvaluationError, FilterSet } from "filter-expr";
import type { Commit } from "../store/types.js";
import { eventsOf, type RecordedEvent } from "./records.js";
import { IndexRing } from "../store/index-ring.js";
import type { EventBatch } from "./records.js";
import type { StreamEvent } from "./schema.js";
import { admits } from "./selection.js";
import type { EndReason, EventStream } from "./stream.js";

/** Counts for the metrics (`events/metrics.ts`). */
export interface HubCounts {
  /** Events made by writes. */
  published: number;
  /** Streams opened. */
  opened: number;
  /** Streams ended, by reason. */
  ended: Record<EndReason, number>;
  /** Streams refused by the bound on open streams. */
  refused: number;
  /** Filter evaluations run (the set's index spares the others). */
  evaluations: number;
  /** Events a stream's filter failed on (not sent to it), by reason. */
  failed: { evaluation: number; budget: number };
}

export class EventHub {
  /** The latest writes' events (weighed by events), for streams that resume from an index. */
  readonly ring: IndexRing<EventBatch>;
  readonly counts: HubCounts = { published: 0, opened: 0, ended: { closed: 0, slow: 0, lagged: 0, shutdown: 0 }, refused: 0, evaluations: 0, failed: { evaluation: 0, budget: 0 } };
  /** Every open stream (replaying or live). */
  readonly #streams = new Set<EventStream>();
  /** Live streams with a filter, under one filter set. */
  readonly #filtered = new FilterSet<EventStream, StreamEvent>();
  /** Live streams without a filter. */
  readonly #plain = new Set<EventStream>();
  #closed = false;
  #index: number;

  /** `startIndex`: where the store's feed starts (events up to it were never made). */
  constructor(capacity: number, startIndex: number) {
    this.ring = new IndexRing<EventBatch>(capacity, startIndex, (batch) => batch.events.length);
    this.#index = startIndex;
  }

  /** The index of the last write published (the store's index when the server started, before any). */
  get index(): number {
    return this.#index;
  }

  /** Open streams. */
  get size(): number {
    return this.#streams.size;
  }

  /** True once the server is shutting down: no new streams. */
  get closed(): boolean {
    return this.#closed;
  }

  /** The events of a committed write: buffered, then sent to the live streams they are for. */
  publish(commit: Commit): void {
    const batch = eventsOf(commit);
    this.ring.push(batch);
    this.#index = batch.index;
    this.counts.published += batch.events.length;
    if (this.#filtered.size === 0 && this.#plain.size === 0) return;
    const out = new Map<EventStream, RecordedEvent[]>();
    const add = (stream: EventStream, e: RecordedEvent): void => {
      const list = out.get(stream);
      if (list === undefined) out.set(stream, [e]);
      else list.push(e);
    };
    for (const e of batch.events) {
      if (this.#filtered.size > 0) {
        const { matched, failed, evaluated } = this.#filtered.match(e.event);
        this.counts.evaluations += evaluated;
        for (const f of failed) this.#failure(f.error);
        for (const stream of matched) add(stream, e);
      }
      for (const stream of this.#plain) if (admits(stream.admission, e.event)) add(stream, e);
    }
    for (const [stream, events] of out) if (batch.index > stream.cursor) stream.send(batch.index, events);
  }

  /**
   * Starts a stream: the buffered events above its cursor first (as fast as its client reads them),
   * then live. Replay and the switch to live run without yielding between the last buffered write and
   * the switch, so that no write is missed or sent twice.
   */
  open(stream: EventStream): void {
    this.#streams.add(stream);
    this.counts.opened++;
    this.#replay(stream);
  }

  /** Counts a stream refused by the bound on open streams. */
  refuse(): void {
    this.counts.refused++;
  }

  /** Forgets an ended stream. */
  ended(stream: EventStream, reason: EndReason): void {
    if (!this.#streams.delete(stream)) return;
    this.counts.ended[reason]++;
    this.#filtered.delete(stream);
    this.#plain.delete(stream);
  }

  /**
   * The store's feed lost the writes up to `upTo` (on PostgreSQL: pruned from the change log before this
   * server read them). Every open stream is cut as lagged, as one the buffer overtook: its client
   * resumes with `index` and is told the gap (`X-Svc-Event-Gap`), the buffer starting over above it.
   */
  gap(upTo: number): void {
    this.ring.lose(upTo);
    this.#index = Math.max(this.#index, upTo);
    for (const stream of [...this.#streams]) stream.cut("lagged");
  }

  /** Shutdown: every stream ends cleanly, and no new one opens. */
  close(): void {
    this.#closed = true;
    for (const stream of [...this.#streams]) stream.end();
  }

  #replay(stream: EventStream): void {
    for (;;) {
      if (stream.ended) return;
      // Writes after the cursor were dropped from the buffer before this stream read them.
      if (stream.cursor < this.ring.floor) return stream.cut("lagged");
      const batch = this.ring.after(stream.cursor);
      if (batch === undefined) break;
      stream.cursor = batch.index;
      const events = batch.events.filter((e) => this.#selects(stream, e.event));
      if (events.length > 0 && !stream.send(batch.index, events)) {
        stream.onDrain(() => this.#replay(stream));
        return;
      }
    }
    stream.live = true;
    if (stream.filter !== undefined) this.#filtered.add(stream, stream.filter.compiled, stream.filter.evaluate, stream.filter.steps);
    else this.#plain.add(stream);
  }

  /** The stream's answer on one event outside the set (replay): its failure is no match. */
  #selects(stream: EventStream, event: StreamEvent): boolean {
    if (stream.filter === undefined) return admits(stream.admission, event);
    // As in the set's `match`: the guarded filter checks the admission before the filter.
    this.counts.evaluations++;
    try {
      return stream.filter.evaluate(event);
    } catch (e) {
      if (!(e instanceof FilterEvaluationError)) throw e;
      this.#failure(e);
      return false;
    }
  }

  #failure(e: FilterEvaluationError): void {
    this.counts.failed[e.code === "too-expensive" ? "budget" : "evaluation"]++;
  }
}
