/**
 * Blocking queries that wake only when their page changes (`--blocking-queries page`, an extension:
 * server/docs/server.md#blocking-queries). The scheduler wakes every blocking query of a list on any
 * write to its table; a filtered list's client then reads the same page again. Here a waiting query
 * keeps its page's region (`PageRegion`) and each committed write's changes are tested against the
 * waiters they may concern, found through one `FilterSet` per table over the waiters' filters (an
 * item whose two versions both fail a waiter's key leaf cannot change its page). Per write the cost is
 * O(changed items × candidate waiters); a waiter is woken only by a write that changes its page.
 */
import { FilterSet, type FilterEvaluationError } from "filter-expr";
import type { Registry } from "prom-client";
import { collectedMetrics } from "../ops/metrics.js";
import type { ItemFilter } from "../lists/filters.js";
import type { PageRegion, Verdict } from "../lists/page-region.js";
import type { Change, Table } from "../lists/records.js";
import { IndexRing } from "../store/index-ring.js";
import type { Commit, SchedulerStore } from "../store/types.js";
import { wakeInBatches } from "../store/waiters.js";

/** What a waiting query watches: its page's region, and how its request checks an item. */
export interface PageWatch<T> {
  readonly table: Table;
  readonly region: PageRegion<T>;
  /**
   * The request's checks on one item (ACL and filter, in the request's order, each call with its own
   * budget), throwing `FilterEvaluationError` where the read would end with a 400; undefined: every item
   * passes.
   */
  readonly check: ((item: T) => boolean) | undefined;
  /** The request's filter (the watch is indexed by its key leaf); undefined without one. */
  readonly filter: ItemFilter | undefined;
  /** The steps of the budget `check` gives the filter on each call. */
  readonly steps: number;
}

/** Why a wait ended. */
export type WaitEnd = "changed" | "timeout" | "released";

/** Writes kept for the queries that arrive with an older index (their changes are tested against the page). */
export const PAGE_WAIT_HISTORY = 4096;

interface Waiter {
  readonly watch: PageWatch<unknown>;
  /** Writes at or below this index are in the page the region was taken from. */
  readonly since: number;
  /** The client's index: the answer is due once a change was seen and the table's index passed it. */
  readonly after: number;
  changed: boolean;
  wake(end: WaitEnd): void;
}

/** The waiters of one table: all, those with a filter (indexed), those without, and those changed but not yet past their client's index. */
interface TableWaiters {
  readonly all: Set<Waiter>;
  readonly filtered: FilterSet<Waiter, unknown>;
  readonly plain: Set<Waiter>;
  readonly pending: Set<Waiter>;
}

/** Where the store's feed stood when the waits began: its last write, and each table's index then. */
export interface FeedStart {
  readonly index: number;
  readonly tables: Readonly<Record<Table, number>>;
}

/** Counts for the metrics. */
export interface PageWaitCounts {
  /** Waits ended by a change of their page. */
  changed: number;
  /** Waits answered at once: a write since the client's index changed the page, or the writes since are no longer known. */
  atOnce: number;
  /** Waits ended by their timeout. */
  timedOut: number;
  /** Verdicts computed on changed items (the filter sets' index spares the others). */
  evaluations: number;
}

const tableOf = (change: Change): Table => (change.kind === "job" ? "jobs" : "deployments");

/** The item a change replaces (undefined: created) and the one it writes. */
function versionsOf(change: Change): [unknown, unknown] {
  return change.kind === "job" ? [change.previous, change.record.entry] : [change.previous, change.deployment];
}

export class PageWaits {
  readonly counts: PageWaitCounts = { changed: 0, atOnce: 0, timedOut: 0, evaluations: 0 };
  readonly #tables = new Map<Table, TableWaiters>();
  /** The writes since the start, as far as `history` weighs (changes). */
  readonly #history: IndexRing<Commit>;
  readonly #start: FeedStart;
  /** Each table's index as the writes handed here have moved it. */
  readonly #indexOf: Record<Table, number>;
  #waiting = 0;
  #released = false;

  /** How to stop following the store (`follow`). */
  #unfollow: () => void = () => undefined;

  /** `start`: the store's feed now (the writes up to it are not known here). */
  constructor(start: FeedStart, history = PAGE_WAIT_HISTORY) {
    this.#start = start;
    this.#indexOf = { ...start.tables };
    this.#history = new IndexRing<Commit>(history, 0, (c) => c.changes.length);
  }

  /**
   * Page waits fed by the store's committed writes from now on (`stop` ends that): the feed's start
   * and the tables' indexes are read in the same turn as the subscription, so no write falls between.
   */
  static follow(store: SchedulerStore, history = PAGE_WAIT_HISTORY): PageWaits {
    const waits = new PageWaits({ index: store.feedIndex, tables: { jobs: store.indexOf("jobs"), deployments: store.indexOf("deployments") } }, history);
    waits.#unfollow = store.onCommit(
      (commit) => waits.commit(commit),
      (_after, upTo) => waits.gap(upTo),
    );
    return waits;
  }

  /** Stops following the store. */
  stop(): void {
    this.#unfollow();
  }

  /** Blocking queries waiting. */
  get size(): number {
    return this.#waiting;
  }

  /**
   * Writes to `table` at or below this index may be missing from the history: those before the start
   * (the table's index then: no later write before the start touched it) and those dropped since.
   */
  #floorOf(table: Table): number {
    return Math.max(this.#start.tables[table], this.#history.floor);
  }

  /** The index of the newest write known here. */
  get #latest(): number {
    return Math.max(this.#start.index, this.#history.latest);
  }

  /** A committed write: kept for later arrivals, and tested against the waiters of the tables it changes. */
  commit(commit: Commit): void {
    this.#history.push(commit);
    const due: Waiter[] = [];
    const touched = new Set<Table>();
    for (const change of commit.changes) {
      const table = tableOf(change);
      touched.add(table);
      this.#indexOf[table] = Math.max(this.#indexOf[table], commit.index);
      const waiters = this.#tables.get(table);
      if (waiters === undefined) continue;
      const [before, after] = versionsOf(change);
      for (const [w, verdicts] of this.#candidates(waiters, before, after)) {
        if (commit.index > w.since && !w.changed && w.watch.region.changedBy(after, verdicts[0], verdicts[1])) {
          w.changed = true;
          waiters.pending.add(w);
        }
      }
    }
    for (const table of touched) {
      const pending = this.#tables.get(table)?.pending;
      if (pending !== undefined) for (const w of pending) if (commit.index > w.after) due.push(w);
    }
    wakeInBatches(due.map((w) => ({ wake: () => w.wake("changed") })));
  }

  /** The feed lost the writes up to `upTo`: every waiter may have missed a change of its page. */
  gap(upTo: number): void {
    this.#history.lose(upTo);
    const due: Waiter[] = [];
    for (const waiters of this.#tables.values()) due.push(...waiters.all);
    wakeInBatches(due.map((w) => ({ wake: () => w.wake("changed") })));
  }

  /**
   * Waits until a write changes the page of `watch` (read at index `since`) and the table's index
   * passes the client's (`after`), until `timeoutMs`, or until `releaseAll`. When the page was read
   * after the client's index (`since > after`), the writes in between are tested first: if one changed
   * the page, or they are no longer known, the wait ends at once.
   */
  wait<T>(watch: PageWatch<T>, since: number, after: number, timeoutMs: number): { done: Promise<WaitEnd>; cancel(): void } {
    if (this.#released) return { done: Promise.resolve("released"), cancel: () => undefined };
    const w = watch as PageWatch<unknown>;
    const floor = this.#floorOf(w.table);
    const atOnce = (): { done: Promise<WaitEnd>; cancel(): void } => {
      this.counts.atOnce++;
      return { done: Promise.resolve("changed"), cancel: () => undefined };
    };
    // Writes the client has not seen that the page already holds: unknown ones, or one that changed it.
    if (since > after && (floor > after || this.#latest < since || this.#replay(w, after, since, "since"))) return atOnce();
    // Writes after the read that came before this wait (none held after `since` is fine: they come later).
    if (floor > since) return atOnce();
    const changed = this.#replay(w, since, Infinity, "by");

    let resolve!: (end: WaitEnd) => void;
    const done = new Promise<WaitEnd>((r) => (resolve = r));
    const waiters = this.#waitersOf(w.table);
    let timer: NodeJS.Timeout | undefined;
    const waiter: Waiter = {
      watch: w,
      since,
      after,
      changed,
      wake: (end) => {
        if (!this.#remove(waiters, waiter)) return;
        clearTimeout(timer);
        if (end === "changed") this.counts.changed++;
        else if (end === "timeout") this.counts.timedOut++;
        resolve(end);
      },
    };
    waiters.all.add(waiter);
    if (w.filter === undefined) waiters.plain.add(waiter);
    else waiters.filtered.add(waiter, w.filter, (item) => w.check!(item), w.steps);
    if (changed) waiters.pending.add(waiter);
    this.#waiting++;
    // The answer comes once the table's index has passed the client's (a client ahead of this server waits for it).
    if (changed && this.#indexOf[w.table] > after) {
      waiter.wake("changed");
      return { done, cancel: () => undefined };
    }
    timer = setTimeout(() => waiter.wake("timeout"), timeoutMs);
    return { done, cancel: () => waiter.wake("released") };
  }

  /** Ends every wait now and every later one at once (shutdown). */
  releaseAll(): void {
    this.#released = true;
    for (const waiters of this.#tables.values()) for (const w of [...waiters.all]) w.wake("released");
  }

  /** Whether a held write in (`from`, `to`] changed the page of `watch`: `by` it after the read, or `since` the client's index before it. */
  #replay(watch: PageWatch<unknown>, from: number, to: number, direction: "by" | "since"): boolean {
    for (const commit of this.#history.between(from, to)) {
      for (const change of commit.changes) {
        if (tableOf(change) !== watch.table) continue;
        const [before, after] = versionsOf(change);
        const b = this.#verdict(watch, before);
        const a = this.#verdict(watch, after);
        if (direction === "by" ? watch.region.changedBy(after, b, a) : watch.region.changedSince(after, b, a)) return true;
      }
    }
    return false;
  }

  /** One item's verdict under a watch's checks (false for a version that does not exist). */
  #verdict(watch: PageWatch<unknown>, item: unknown): Verdict {
    if (item === undefined || watch.check === undefined) return item !== undefined;
    this.counts.evaluations++;
    try {
      return watch.check(item);
    } catch (e) {
      if ((e as Error).name !== "FilterEvaluationError") throw e;
      return "error";
    }
  }

  /**
   * The waiters a change may concern, with the verdicts of the item's versions: those whose filter the
   * filter set evaluated to true or to an error on either version, and every waiter without a filter.
   */
  #candidates(waiters: TableWaiters, before: unknown, after: unknown): Map<Waiter, [Verdict, Verdict]> {
    const out = new Map<Waiter, [Verdict, Verdict]>();
    const note = (version: 0 | 1, matched: readonly Waiter[], failed: readonly { key: Waiter; error: FilterEvaluationError }[]): void => {
      for (const w of matched) (out.get(w) ?? out.set(w, [false, false]).get(w)!)[version] = true;
      for (const { key } of failed) (out.get(key) ?? out.set(key, [false, false]).get(key)!)[version] = "error";
    };
    if (waiters.filtered.size > 0) {
      for (const [version, item] of [before, after].entries()) {
        if (item === undefined) continue;
        const m = waiters.filtered.match(item);
        this.counts.evaluations += m.evaluated;
        note(version as 0 | 1, m.matched, m.failed);
      }
    }
    for (const w of waiters.plain) out.set(w, [this.#verdict(w.watch, before), this.#verdict(w.watch, after)]);
    return out;
  }

  #waitersOf(table: Table): TableWaiters {
    let waiters = this.#tables.get(table);
    if (waiters === undefined) this.#tables.set(table, (waiters = { all: new Set(), filtered: new FilterSet(), plain: new Set(), pending: new Set() }));
    return waiters;
  }

  /** Takes a waiter out; false when it was already out. */
  #remove(waiters: TableWaiters, w: Waiter): boolean {
    if (!waiters.all.delete(w)) return false;
    if (!waiters.plain.delete(w)) waiters.filtered.delete(w);
    waiters.pending.delete(w);
    this.#waiting--;
    return true;
  }
}

/** Registers the waits' counts in the server's registry (served by `GET /v1/metrics`). */
export function registerPageWaitMetrics(registry: Registry, waits: PageWaits): void {
  const { counts } = waits;
  const { counted, countedBy } = collectedMetrics(registry);
  countedBy(
    "blocking_page_waits_total",
    "Blocking queries of --blocking-queries page that ended, by how (changed: a write changed the page; at_once: a write since the client's index had, or the writes since are no longer known; timeout).",
    "end",
    () => ({ changed: counts.changed, at_once: counts.atOnce, timeout: counts.timedOut }),
  );
  counted("blocking_page_evaluations_total", "Verdicts of waiting queries' checks computed on changed items (the filter sets' index spares the others).", () => counts.evaluations);
}
