/**
 * The PostgreSQL store's feed of committed writes: every server's registrations, read back from the
 * change log (`change-log.ts`) and handed to the listeners in index order, each once. It reads when told
 * up to which index writes are committed (a notification, the indexes re-read after the notification
 * connection came back, this server's own write): one reader at a time, from the last index it
 * delivered, a bounded number of writes per statement, until it has delivered that index; what is
 * announced while it reads only moves where it stops, so a burst of notifications costs a statement per
 * batch, not one each. Writes pruned from the log before it read them are a gap, reported once before
 * the next write. Nothing is read while nobody listens.
 */
import type { Commit } from "../types.js";
import type { LoggedWrite } from "./change-log.js";

/** Writes read per statement (with their changes: the job and a deployment or two each). */
export const FEED_BATCH_WRITES = 200;

/** Reads the held writes above `after`: at most `writes`, oldest first (fewer: nothing more was committed). */
export type ReadWrites = (after: number, writes: number) => Promise<LoggedWrite[]>;

type Log = (msg: string, extra?: object) => void;

interface Subscriber {
  readonly listener: (commit: Commit) => void;
  readonly onGap: ((after: number, upTo: number) => void) | undefined;
}

export interface FeedOptions {
  /** Writes read per statement (default `FEED_BATCH_WRITES`). */
  batchWrites?: number;
  /** Delay before reading again after a failed read (default 1 s). */
  retryMs?: number;
}

export class ChangeFeed {
  #delivered: number;
  readonly #subscribers = new Set<Subscriber>();
  /** The highest index known to be committed (what the reader reads up to). */
  #target: number;
  #running = false;
  /** The reader's run, for `close` to wait on. */
  #run: Promise<void> = Promise.resolve();
  #retry: NodeJS.Timeout | undefined;
  /** The last read failed (logged once until one succeeds). */
  #failing = false;
  #closed = false;
  readonly #batch: number;
  readonly #retryMs: number;

  /** `start`: the index the store saw when it opened; the writes after it are delivered. */
  constructor(
    private readonly read: ReadWrites,
    start: number,
    private readonly log: Log,
    options: FeedOptions = {},
  ) {
    this.#delivered = start;
    this.#target = start;
    this.#batch = Math.max(1, Math.floor(options.batchWrites ?? FEED_BATCH_WRITES));
    this.#retryMs = options.retryMs ?? 1000;
  }

  /** The last index delivered: a listener added now receives the writes after it. */
  get delivered(): number {
    return this.#delivered;
  }

  /** Adds a listener (and its gap handler); returns how to remove it. */
  subscribe(listener: (commit: Commit) => void, onGap?: (after: number, upTo: number) => void): () => void {
    const subscriber: Subscriber = { listener, onGap };
    this.#subscribers.add(subscriber);
    // Writes may have been committed while nobody listened.
    this.kick(this.#target);
    return () => void this.#subscribers.delete(subscriber);
  }

  /** The writes up to `upTo` are committed: read them now, or let the read under way go on to them. */
  kick(upTo: number): void {
    if (upTo > this.#target) this.#target = upTo;
    if (this.#closed || this.#subscribers.size === 0 || this.#delivered >= this.#target) return;
    if (!this.#running) this.#run = this.#drain();
  }

  /** Stops the feed: nothing is delivered after this; resolves once the read under way (if any) is over. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#subscribers.clear();
    await this.#run;
  }

  async #drain(): Promise<void> {
    // Set before the first await, cleared in the same run as the last check of #target: a kick either
    // sees the reader running (which then reads up to the new target) or starts a new one.
    this.#running = true;
    try {
      while (!this.#closed && this.#subscribers.size > 0 && this.#delivered < this.#target) {
        const before = this.#delivered;
        await this.#catchUp();
        // Nothing newer was visible (a target from a database that went back?): no loop on it; the
        // next kick looks again.
        if (this.#delivered === before) return;
      }
    } catch (e) {
      if (this.#closed) return;
      if (!this.#failing) this.log("event feed: reading the change log failed, retrying", { error: e instanceof Error ? e.message : String(e), after: this.#delivered });
      this.#failing = true;
      this.#retry ??= setTimeout(() => {
        this.#retry = undefined;
        this.kick(this.#target);
      }, this.#retryMs);
      this.#retry.unref();
    } finally {
      this.#running = false;
    }
  }

  /** Reads and delivers statement after statement until one returns less than a full batch (all there was). */
  async #catchUp(): Promise<void> {
    for (;;) {
      const writes = await this.read(this.#delivered, this.#batch);
      if (this.#closed) return;
      // Nobody left to deliver to: the next listener starts from what was delivered (and reads again).
      if (this.#subscribers.size === 0) return;
      if (this.#failing) this.log("event feed: reading the change log again", { after: this.#delivered });
      this.#failing = false;
      for (const write of writes) this.#deliver(write);
      if (writes.length < this.#batch) return;
    }
  }

  #deliver(write: LoggedWrite): void {
    if (write.index <= this.#delivered) return;
    if (write.index > this.#delivered + 1) this.#gap(this.#delivered, write.index - 1);
    this.#delivered = write.index;
    const commit = write.commit;
    if (commit === undefined) {
      // A write whose rows do not parse (altered in the database) cannot be delivered: a gap of its own.
      this.log("event feed: a write in the change log cannot be read, reported as a gap", { index: write.index });
      this.#gap(write.index - 1, write.index);
      return;
    }
    for (const s of [...this.#subscribers]) {
      try {
        s.listener(commit);
      } catch (e) {
        // A listener's failure is its own: the other listeners and the next writes still get theirs.
        this.log("event feed: a listener failed", { error: e instanceof Error ? e.message : String(e), index: commit.index });
      }
    }
  }

  #gap(after: number, upTo: number): void {
    for (const s of [...this.#subscribers]) {
      try {
        s.onGap?.(after, upTo);
      } catch (e) {
        this.log("event feed: a gap handler failed", { error: e instanceof Error ? e.message : String(e), after, upTo });
      }
    }
  }
}
