/**
 * What request heads that arrive in pieces (`head-gate.ts`) may take, per client (an IPv4 address, or
 * an IPv6 address's /64) and across the process: the bytes they hold while unfinished (memory), and
 * the time of the event loop that parsing them takes (Node's parser reads about a megabyte a
 * millisecond, a query string of many pairs costs more; and the listener accepts one connection per
 * turn of the loop, so a client whose big heads were all parsed would keep every other client's
 * connections waiting in the accept queue). A head that arrives in one read (every ordinary request)
 * takes nothing.
 */

/** Bytes of unfinished request heads one client may have the server hold at once: 8 heads of the longest. */
export const HEAD_BYTES_PER_CLIENT = 8 * 1024 * 1024;
/** Bytes of unfinished request heads the server holds at once, all clients and both listeners together. */
export const HEAD_BYTES_IN_TOTAL = 64 * 1024 * 1024;
/**
 * Milliseconds a second of the event loop that parsing one client's heads may take on average (5 %),
 * after a burst of `HEAD_LOOP_BURST_MS`: about 20 heads of a megabyte a second.
 */
export const HEAD_LOOP_MS_PER_CLIENT = 50;
/** Milliseconds a second of the event loop that parsing all clients' heads may take on average (25 %). */
export const HEAD_LOOP_MS_IN_TOTAL = 250;
/** The burst of the loop's time a client (four times as much for all of them) may take first. */
export const HEAD_LOOP_BURST_MS = 250;

/** A token bucket of milliseconds: `rate` a second, holding at most `burst`; full at first; may go below zero. */
class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  /** What it holds at `now` (ms). */
  fill(now: number): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    return this.tokens;
  }

  spend(ms: number): void {
    this.tokens -= ms;
  }
}

/** The bounds of a `HeadBudget`. */
export interface HeadBounds {
  /** Bytes one client's unfinished heads may hold. */
  readonly bytesPerClient: number;
  /** Bytes all unfinished heads may hold. */
  readonly bytesInTotal: number;
  /** Milliseconds a second of the loop parsing one client's heads may take (after `burstMs`). */
  readonly loopMsPerClient: number;
  /** Milliseconds a second of the loop parsing all heads may take (after four times `burstMs`). */
  readonly loopMsInTotal: number;
  /** The burst of the loop's time a client may take first. */
  readonly burstMs: number;
}

export const DEFAULT_HEAD_BOUNDS: HeadBounds = {
  bytesPerClient: HEAD_BYTES_PER_CLIENT,
  bytesInTotal: HEAD_BYTES_IN_TOTAL,
  loopMsPerClient: HEAD_LOOP_MS_PER_CLIENT,
  loopMsInTotal: HEAD_LOOP_MS_IN_TOTAL,
  burstMs: HEAD_LOOP_BURST_MS,
};

/**
 * What heads arriving in pieces take, per client (`clientOfAddress` in turns.ts) and in total: the bytes they hold while
 * unfinished (`take`, `give`), and the loop's time their parsing took (`charge`). A client that has
 * used up its share of the loop's time, or all clients theirs, may start no new head in pieces until
 * the share has grown back.
 */
export class HeadBudget {
  private readonly held = new Map<string, number>();
  private sum = 0;
  private readonly buckets = new Map<string, Bucket>();
  /** The number of buckets past which the full ones of clients holding nothing are forgotten. */
  private sweepAt = 64;
  private readonly all: Bucket;

  constructor(
    readonly bounds: HeadBounds = DEFAULT_HEAD_BOUNDS,
    /** The clock, in milliseconds. */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.all = new Bucket(bounds.loopMsInTotal, 4 * bounds.burstMs, now());
  }

  /**
   * Takes a piece of `bytes` of `client`'s head (its first piece: `starts`) when the bounds allow it
   * (true): the bytes held stay within theirs, and a new head needs some of the loop's time left.
   * Else takes nothing (false).
   */
  take(client: string, bytes: number, starts: boolean): boolean {
    const mine = this.held.get(client) ?? 0;
    if (mine + bytes > this.bounds.bytesPerClient || this.sum + bytes > this.bounds.bytesInTotal) return false;
    if (starts) {
      const now = this.now();
      if ((this.buckets.get(client)?.fill(now) ?? this.bounds.burstMs) <= 0 || this.all.fill(now) <= 0) return false;
    }
    this.held.set(client, mine + bytes);
    this.sum += bytes;
    return true;
  }

  /** Gives back `bytes` that `client`'s head held (the parser has them, or the head was dropped). */
  give(client: string, bytes: number): void {
    if (bytes === 0) return;
    const left = (this.held.get(client) ?? 0) - bytes;
    if (left > 0) this.held.set(client, left);
    else this.held.delete(client);
    this.sum -= bytes;
  }

  /** Counts `ms` of the loop's time that parsing a head of `client` took. */
  charge(client: string, ms: number): void {
    const now = this.now();
    let bucket = this.buckets.get(client);
    if (bucket === undefined) {
      if (this.buckets.size >= this.sweepAt) this.sweep(now);
      bucket = new Bucket(this.bounds.loopMsPerClient, this.bounds.burstMs, now);
      this.buckets.set(client, bucket);
    }
    bucket.fill(now);
    bucket.spend(ms);
    this.all.fill(now);
    this.all.spend(ms);
  }

  /**
   * Forgets the buckets that are full again (as a new client's would be): the map holds the clients
   * of the last few seconds, not every client seen.
   */
  private sweep(now: number): void {
    for (const [client, bucket] of this.buckets) if (bucket.fill(now) >= this.bounds.burstMs) this.buckets.delete(client);
    this.sweepAt = Math.max(64, 2 * this.buckets.size);
  }

  /** Bytes held for `client`, or in total. */
  bytes(client?: string): number {
    return client === undefined ? this.sum : (this.held.get(client) ?? 0);
  }

  /** Clients whose share of the loop's time is tracked (those that used some of it lately). */
  get trackedClients(): number {
    return this.buckets.size;
  }
}

/** The process's budget: both listeners of every server in the process take their heads' pieces from it. */
export const HEADS_IN_PROGRESS = new HeadBudget();
