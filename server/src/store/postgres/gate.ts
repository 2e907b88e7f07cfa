/**
 * Admission to the connection pool: a bounded first-come queue in front of it. A request waits for a
 * connection at most `maxWaitMs`, behind at most `maxWaiting` others; past either bound it is answered
 * `503` with `Retry-After` at once (`StoreBusy`) instead of piling up until the driver's connect
 * timeout. Reads with a filter (whose statements may run up to the statement timeout) hold at most
 * `slots - reserved` connections, so plain lists and registrations always find one.
 */
import { ClientGone } from "../../lists/errors.js";
import { StoreBusy } from "./errors.js";

export interface GateLimits {
  /** Connections (the pool's size). */
  slots: number;
  /** Connections that filtered reads leave to the rest. */
  reserved: number;
  /** Requests waiting at most. */
  maxWaiting: number;
  /** Longest wait for a connection, in milliseconds. */
  maxWaitMs: number;
}

/** The bounds of a pool of `size` connections. */
export function gateLimits(size: number): GateLimits {
  return { slots: size, reserved: size > 2 ? 2 : 0, maxWaiting: 20 * size, maxWaitMs: 5_000 };
}

interface Waiter {
  filtered: boolean;
  grant(): void;
}

export class ConnectionGate {
  private inUse = 0;
  private filteredInUse = 0;
  private readonly queue: Waiter[] = [];

  constructor(readonly limits: GateLimits) {}

  /** Requests waiting for a connection. */
  get waiting(): number {
    return this.queue.length;
  }

  private fits(filtered: boolean): boolean {
    if (this.inUse >= this.limits.slots) return false;
    return !filtered || this.filteredInUse < Math.max(1, this.limits.slots - this.limits.reserved);
  }

  private take(filtered: boolean): () => void {
    this.inUse++;
    if (filtered) this.filteredInUse++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inUse--;
      if (filtered) this.filteredInUse--;
      this.next();
    };
  }

  /** Grants freed places to the first waiters that fit, in order. */
  private next(): void {
    for (let i = 0; i < this.queue.length && this.inUse < this.limits.slots; ) {
      const w = this.queue[i]!;
      if (!this.fits(w.filtered)) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      w.grant();
    }
  }

  /**
   * A place to hold one connection; resolves to its release. Rejects with `StoreBusy` when the queue
   * is full or the wait too long, with `ClientGone` when `signal` aborts first.
   */
  acquire(filtered: boolean, signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new ClientGone());
    // Every waiter that fits was granted at the last release: one that fits now passes nobody.
    if (this.fits(filtered)) return Promise.resolve(this.take(filtered));
    if (this.queue.length >= this.limits.maxWaiting) {
      return Promise.reject(new StoreBusy(`database busy: ${this.queue.length} requests already wait for a connection; retry later`));
    }
    return new Promise((resolve, reject) => {
      const leave = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
      };
      const waiter: Waiter = {
        filtered,
        grant: () => {
          leave();
          resolve(this.take(filtered));
        },
      };
      const onAbort = (): void => {
        leave();
        reject(new ClientGone());
      };
      const timer = setTimeout(() => {
        leave();
        reject(new StoreBusy(`database busy: no connection free within ${this.limits.maxWaitMs / 1000} s; retry later`));
      }, this.limits.maxWaitMs);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
    });
  }
}
