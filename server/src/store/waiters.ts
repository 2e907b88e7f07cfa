/** Blocking queries waiting for a table's index to pass theirs (both stores'). */
import type { Table } from "../lists/records.js";

/** Blocking queries woken in one turn of the event loop after a write. */
export const WAKE_BATCH = 16;

/**
 * Wakes `due`, `WAKE_BATCH` per event-loop turn: each woken query reads its page (shared with the
 * others asking the same) before the next batch wakes, and other requests (health checks among them)
 * are served in between.
 */
export function wakeInBatches(due: readonly { wake(): void }[]): void {
  const next = (from: number): void => {
    for (let i = from; i < Math.min(from + WAKE_BATCH, due.length); i++) due[i]!.wake();
    if (from + WAKE_BATCH < due.length) setImmediate(() => next(from + WAKE_BATCH));
  };
  next(0);
}

interface Waiter {
  minIndex: number;
  wake(): void;
}

export class Waiters {
  private readonly sets = new Map<Table, Set<Waiter>>();
  private released = false;

  /** Resolves once the table's index (now `current`) passes `minIndex` (see `wake`), after `timeoutMs`, or on `releaseAll`. */
  wait(table: Table, minIndex: number, current: number, timeoutMs: number): { done: Promise<void>; cancel(): void } {
    if (this.released || current > minIndex) return { done: Promise.resolve(), cancel: () => undefined };
    let set = this.sets.get(table);
    if (set === undefined) this.sets.set(table, (set = new Set()));
    let waiter!: Waiter;
    let timer: NodeJS.Timeout | undefined;
    const done = new Promise<void>((resolve) => {
      waiter = {
        minIndex,
        wake: () => {
          clearTimeout(timer);
          set.delete(waiter);
          resolve();
        },
      };
    });
    timer = setTimeout(waiter.wake, timeoutMs);
    set.add(waiter);
    return { done, cancel: waiter.wake };
  }

  /** Wakes the table's waiters that the new index passes (`wakeInBatches`). */
  wake(table: Table, index: number): void {
    wakeInBatches([...(this.sets.get(table) ?? [])].filter((w) => index > w.minIndex));
  }

  get size(): number {
    let n = 0;
    for (const set of this.sets.values()) n += set.size;
    return n;
  }

  releaseAll(): void {
    this.released = true;
    for (const set of this.sets.values()) for (const w of [...set]) w.wake();
  }
}
