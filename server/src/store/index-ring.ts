/** The latest writes of a feed, kept by index for readers that catch up from an older one. */

/**
 * A bounded buffer of the latest writes (anything with an `index`), oldest first. It holds at most
 * `capacity` units of weight (whole writes: the oldest are dropped until the rest fit, the newest
 * always stays), and knows the index up to which writes are not held (`floor`): the index the feed
 * started at, then the index of the last write it dropped or lost.
 */
export class IndexRing<B extends { readonly index: number }> {
  #items: B[] = [];
  /** Position of the oldest write held in `#items` (dropped ones before it are garbage). */
  #head = 0;
  #weight = 0;
  #floor: number;

  constructor(
    readonly capacity: number,
    startIndex: number,
    private readonly weigh: (write: B) => number,
  ) {
    this.#floor = startIndex;
  }

  /** Writes at or below this index are not held (before the feed started, dropped, or lost). */
  get floor(): number {
    return this.#floor;
  }

  /** The index of the newest write held, or the floor when none is. */
  get latest(): number {
    return this.#items.length > this.#head ? this.#items[this.#items.length - 1]!.index : this.#floor;
  }

  /** The weight held. */
  get size(): number {
    return this.#weight;
  }

  /** Adds a write (its index above every held one), dropping the oldest writes past the capacity. */
  push(write: B): void {
    this.#items.push(write);
    this.#weight += this.weigh(write);
    while (this.#weight > this.capacity && this.#items.length - this.#head > 1) this.#drop();
    this.#compact();
  }

  /** The writes up to `index` can no longer be held (a feed's gap): drops them, and the floor moves to `index`. */
  lose(index: number): void {
    while (this.#items.length > this.#head && this.#items[this.#head]!.index <= index) this.#drop();
    this.#floor = Math.max(this.#floor, index);
    this.#compact();
  }

  /** The oldest held write with an index above `index`, or undefined when none is held. */
  after(index: number): B | undefined {
    let lo = this.#head;
    let hi = this.#items.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#items[mid]!.index <= index) lo = mid + 1;
      else hi = mid;
    }
    return this.#items[lo];
  }

  /** The held writes with an index in (`from`, `to`], oldest first. */
  *between(from: number, to: number): Iterable<B> {
    for (let w = this.after(from); w !== undefined && w.index <= to; w = this.after(w.index)) yield w;
  }

  #drop(): void {
    const oldest = this.#items[this.#head]!;
    this.#head++;
    this.#weight -= this.weigh(oldest);
    this.#floor = oldest.index;
  }

  /** Compacts once the dropped part is the larger one (amortized O(1) per write). */
  #compact(): void {
    if (this.#head > 64 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
  }
}
