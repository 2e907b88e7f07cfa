/** The last events of the server, kept for streams that resume from an index. */
import type { EventBatch } from "./records.js";

/**
 * A bounded buffer of the latest writes' events, oldest first. It holds at most `capacity` events
 * (whole writes: the oldest writes are dropped until the rest fit, the newest write always stays), and
 * knows the index up to which events are not held (`floor`): the index the server started at, then the
 * index of the last write it dropped.
 */
export class EventRing {
  #batches: EventBatch[] = [];
  /** Position of the oldest batch held in `#batches` (dropped ones before it are garbage). */
  #head = 0;
  #events = 0;
  #floor: number;

  constructor(
    readonly capacity: number,
    startIndex: number,
  ) {
    this.#floor = startIndex;
  }

  /** Events at or below this index are not held (before the server started, or dropped). */
  get floor(): number {
    return this.#floor;
  }

  /** Events held. */
  get size(): number {
    return this.#events;
  }

  /** Adds a write's events (its index above every held one), dropping the oldest writes past the capacity. */
  push(batch: EventBatch): void {
    this.#batches.push(batch);
    this.#events += batch.events.length;
    while (this.#events > this.capacity && this.#batches.length - this.#head > 1) {
      const oldest = this.#batches[this.#head]!;
      this.#head++;
      this.#events -= oldest.events.length;
      this.#floor = oldest.index;
    }
    // Compact once the dropped part is the larger one (amortized O(1) per write).
    if (this.#head > 64 && this.#head * 2 > this.#batches.length) {
      this.#batches = this.#batches.slice(this.#head);
      this.#head = 0;
    }
  }

  /** The oldest held write with an index above `index`, or undefined when none is held. */
  after(index: number): EventBatch | undefined {
    let lo = this.#head;
    let hi = this.#batches.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#batches[mid]!.index <= index) lo = mid + 1;
      else hi = mid;
    }
    return this.#batches[lo];
  }
}
