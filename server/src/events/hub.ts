/**
 * The server's event streams: the events of every committed write go into a bounded buffer (for
 * resumption) and to every open stream, through one `FilterSet` over the streams' filters: one
 * `match` per event answers for every stream (each filter indexed by its leading equality).
 */
import { FilterEvaluationError, FilterSet } from "filter-expr";
import { SLICE_MS, type Turns } from "../turns.js";
import type { Commit } from "../store/types.js";
import { eventsOf, type RecordedEvent } from "./records.js";
import { IndexRing } from "../store/index-ring.js";
import type { EventBatch } from "./records.js";
import type { StreamEvent } from "./schema.js";
import { admits } from "./selection.js";
import type { EndReason, EventStream } from "./stream.js";

/** Counts for the metrics (`events/metrics.ts`). */
export interface HubCounts {
  /**
   * Writes published. Not their events: how many events a write makes depends on what it holds (a
   * service job's deployments), in namespaces a reader may not see; the number of writes is what
   * every table's index shows anyway.
   */
  writes: number;
  /** Streams opened. */
  opened: number;
  /** Streams ended, by reason. */
  ended: Record<EndReason, number>;
  /** Streams refused by the bound on open streams. */
  refused: number;
  /** Filter evaluations run on events their stream's token may read (the set's index spares the others). */
  evaluations: number;
  /** The evaluation steps they took (each at most its stream's share of the fan-out budget). */
  steps: number;
  /** Events a stream's filter failed on (not sent to it); one that ran out of its steps ends the stream instead (`ended.expensive`). */
  failed: { evaluation: number };
}

export class EventHub {
  /**
   * The latest writes' events, for streams that resume from an index. Bounded by writes, not events:
   * where it starts (`X-Svc-Event-Gap`, `X-Nomad-Event-Gap`) then depends only on the number of writes, never on what
   * writes a reader may not see hold.
   */
  readonly ring: IndexRing<EventBatch>;
  readonly counts: HubCounts = { writes: 0, opened: 0, ended: { closed: 0, slow: 0, lagged: 0, expensive: 0, shutdown: 0 }, refused: 0, evaluations: 0, steps: 0, failed: { evaluation: 0 } };
  /** Every open stream (replaying or live). */
  readonly #streams = new Set<EventStream>();
  /** Live streams with a filter, under one filter set. */
  readonly #filtered = new FilterSet<EventStream, StreamEvent>();
  /** Live streams without a filter. */
  readonly #plain = new Set<EventStream>();
  #closed = false;
  #index: number;

  /**
   * `capacity`: writes kept for resumption; `startIndex`: where the store's feed starts (events up to it
   * were never made); `turns`: the loop's turns that replays take in slices.
   */
  constructor(
    capacity: number,
    startIndex: number,
    private readonly turns: Turns,
  ) {
    this.ring = new IndexRing<EventBatch>(capacity, startIndex, () => 1);
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
    this.counts.writes++;
    if (this.#filtered.size === 0 && this.#plain.size === 0) return;
    const out = new Map<EventStream, RecordedEvent[]>();
    const add = (stream: EventStream, e: RecordedEvent): void => {
      const list = out.get(stream);
      if (list === undefined) out.set(stream, [e]);
      else list.push(e);
    };
    for (const e of batch.events) {
      if (this.#filtered.size > 0) {
        const { matched, failed } = this.#filtered.match(e.event);
        for (const f of failed) this.#failure(f.key, batch.index, f.error);
        for (const stream of matched) add(stream, e);
      }
      for (const stream of this.#plain) if (admits(stream.admission, e.event)) add(stream, e);
    }
    for (const [stream, events] of out) if (batch.index > stream.cursor && !stream.ended) stream.send(batch.index, events);
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

  /**
   * Sends the buffered writes above the stream's cursor, in slices of `SLICE_MS` that take their
   * turns with other long work (its client's share), then makes it live. The last slice reads the
   * buffer to its end and switches in the same turn, so no write is missed or sent twice.
   */
  #replay(stream: EventStream): void {
    const started = performance.now();
    for (;;) {
      if (stream.ended) return;
      // Writes after the cursor were dropped from the buffer before this stream read them.
      if (stream.cursor < this.ring.floor) return stream.cut("lagged");
      const batch = this.ring.after(stream.cursor);
      if (batch === undefined) break;
      if (performance.now() - started >= SLICE_MS) {
        this.turns.next(stream.client).then(() => this.#replay(stream), () => undefined);
        return;
      }
      stream.cursor = batch.index;
      const events = batch.events.filter((e) => this.#selects(stream, batch.index, e.event));
      if (stream.ended) return;
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
  #selects(stream: EventStream, index: number, event: StreamEvent): boolean {
    if (stream.ended) return false;
    if (stream.filter === undefined) return admits(stream.admission, event);
    // As in the set's `match`: the guarded filter checks the admission before the filter.
    try {
      return stream.filter.evaluate(event);
    } catch (e) {
      if (!(e instanceof FilterEvaluationError)) throw e;
      this.#failure(stream, index, e);
      return false;
    }
  }

  /**
   * A stream's filter failed on the event of write `index`: the event is skipped, or, when the filter
   * ran out of its steps, the stream ends with an error frame saying so (it would cost its share of
   * every write's fan-out again).
   */
  #failure(stream: EventStream, index: number, e: FilterEvaluationError): void {
    if (e.code !== "too-expensive") {
      this.counts.failed.evaluation++;
      return;
    }
    const steps = stream.filter?.steps ?? 0;
    stream.fail(`event stream ended at index ${index}: ${e.summary} (${steps} steps per event, this stream's share of the fan-out budget) at ${e.line}:${e.column}`);
  }
}
