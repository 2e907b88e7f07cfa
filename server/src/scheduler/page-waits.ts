/**
 * Blocking queries that wake only when their page changes (`--blocking-queries page`, an extension:
 * server/docs/server.md#blocking-queries). The scheduler wakes every blocking query of a list on any
 * write to its table; a filtered list's client then reads the same page again. Here a waiting query
 * keeps its page's region (`PageRegion`) and each committed write's changes are tested against the
 * waiters they may concern, found through one `FilterSet` per table over the waiters' filters (an
 * item whose two versions both fail a waiter's key leaf cannot change its page). Per write the cost is
 * O(changed items × candidate waiters), and the checks of all waiters together have the fan-out budget
 * (`--fanout-budget`) for each version of a changed item: what a waiter's checks cannot decide within
 * their share is decided later in its client's turns of the loop (`Turns`), not on the write's path. A
 * waiter is woken only by a write that changes its page.
 */
import { FilterEvaluationError, FilterSet, type EvaluationBudget } from "filter-expr";
import type { Registry } from "prom-client";
import { collectedMetrics } from "../ops/metrics.js";
import { stepsTaken, type ItemFilter } from "../lists/filters.js";
import type { PageRegion, Verdict } from "../lists/page-region.js";
import { listChange, perTable } from "../lists/endpoints.js";
import type { Table } from "../lists/records.js";
import { checksOf, type CheckOrder } from "../lists/paginate.js";
import { IndexRing } from "../store/index-ring.js";
import type { Commit, SchedulerStore } from "../store/types.js";
import { wakeInBatches } from "../store/waiters.js";
import { Turns, type ClientKey } from "../turns.js";

/** What a waiting query watches: its page's region, and how its request checks an item. */
export interface PageWatch<T> {
  readonly table: Table;
  readonly region: PageRegion<T>;
  /** The request's filter (the watch is indexed by its key leaf); undefined without one. */
  readonly filter: ItemFilter | undefined;
  /** The request's ACL check; undefined when every namespace is readable. */
  readonly allowed: ((item: T) => boolean) | undefined;
  /** Whether the ACL check comes before the filter. */
  readonly order: CheckOrder;
  /** The request's budget for one item (`--filter-budget`): a verdict is the one a read of the page gives. */
  readonly steps: number;
  /** Whose turns of the loop decide what the write's fan-out could not (`Turns`). */
  readonly client: ClientKey;
}

/** Changes a waiter's checks could not decide within their share that wait for its turns; past these, it is answered. */
export const DEFERRED_PER_WAITER = 64;

/**
 * A change a waiter's checks could not decide within their share of the write's fan-out (or of its
 * replay's budget): decided in its client's turns, as a change `by` a write after the page was read,
 * or `since` the client's index, before the read (which, when it changed the page, answers at once).
 */
interface Deferred {
  readonly before: unknown;
  readonly after: unknown;
  readonly verdicts: [Decided, Decided];
  readonly direction: "by" | "since";
}

/** A check that ran out of its share of a write's fan-out budget before it could decide: its waiter is answered. */
const UNDECIDED = Symbol("undecided");
type Decided = Verdict | typeof UNDECIDED;

/** Why a wait ended. */
export type WaitEnd = "changed" | "timeout" | "released";

/** Writes kept for the queries that arrive with an older index (their changes are tested against the page). */
export const PAGE_WAIT_HISTORY = 4096;

interface Waiter {
  readonly watch: PageWatch<unknown>;
  /** The request's checks on one item, in the request's order, the filter spending `budget`; undefined: every item passes. */
  readonly check: ((item: unknown, budget: EvaluationBudget) => boolean) | undefined;
  /** Writes at or below this index are in the page the region was taken from. */
  readonly since: number;
  /** The client's index: the answer is due once a change was seen and the table's index passed it. */
  readonly after: number;
  changed: boolean;
  /** Changes waiting to be decided in the waiter's turns (undefined: none, and no decision running). */
  deferred: Deferred[] | undefined;
  /** Aborted when the wait ends: a decision waiting for its turn stops. */
  readonly ended: AbortController;
  /** Ends the wait; `at-once`: a change since the client's index, found after the wait began (counted as an answer at once). */
  wake(end: WaitEnd | "at-once"): void;
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
  /** Filter evaluations on changed items their waiter's token may read (the filter sets' index spares the others). */
  evaluations: number;
  /** The steps the waiters' checks took on changed items and in replays (the same items). */
  steps: number;
  /** Changes that waiters' checks could not decide within their share of a write's fan-out budget (decided in their clients' turns). */
  undecided: number;
}

/** Default of `--fanout-budget`: the steps the waiters' checks may spend on one changed item's version. */
export const FANOUT_BUDGET = 1_000_000;

export class PageWaits {
  readonly counts: PageWaitCounts = { changed: 0, atOnce: 0, timedOut: 0, evaluations: 0, steps: 0, undecided: 0 };
  readonly #tables = new Map<Table, TableWaiters>();
  /** The writes since the start, as far as `history` weighs (changes). */
  readonly #history: IndexRing<Commit>;
  readonly #start: FeedStart;
  /** Each table's index as the writes handed here have moved it. */
  readonly #indexOf: Record<Table, number>;
  #waiting = 0;
  #released = false;
  /** The steps each check may spend on the version being matched now (the fan-out budget over the table's filtered waiters). */
  #share = 0;
  /** Waiters whose check ran out of its share on the change being tested. */
  #undecided = new Set<Waiter>();

  /** How to stop following the store (`follow`). */
  #unfollow: () => void = () => undefined;

  /**
   * `start`: the store's feed now (the writes up to it are not known here); `fanout`: the steps every
   * waiter's checks together may spend on one version of a changed item (`--fanout-budget`), and one
   * waiter's replay of the writes it missed; `turns`: where what they could not decide is decided.
   */
  constructor(
    start: FeedStart,
    history = PAGE_WAIT_HISTORY,
    private readonly fanout = FANOUT_BUDGET,
    private readonly turns = new Turns(),
  ) {
    this.#start = start;
    this.#indexOf = { ...start.tables };
    this.#history = new IndexRing<Commit>(history, 0, (c) => c.changes.length);
  }

  /**
   * Page waits fed by the store's committed writes from now on (`stop` ends that): the feed's start
   * and the tables' indexes are read in the same turn as the subscription, so no write falls between.
   */
  static follow(store: SchedulerStore, turns: Turns, fanout = FANOUT_BUDGET, history = PAGE_WAIT_HISTORY): PageWaits {
    const waits = new PageWaits({ index: store.feedIndex, tables: perTable((table) => store.indexOf(table)) }, history, fanout, turns);
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

  /** Changes waiting to be decided in their waiters' clients' turns. */
  get deferred(): number {
    let n = 0;
    for (const waiters of this.#tables.values()) for (const w of waiters.all) n += w.deferred?.length ?? 0;
    return n;
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
      const { table, before, after } = listChange(change);
      touched.add(table);
      this.#indexOf[table] = Math.max(this.#indexOf[table], commit.index);
      const waiters = this.#tables.get(table);
      if (waiters === undefined) continue;
      for (const [w, verdicts] of this.#candidates(waiters, before, after)) {
        if (commit.index <= w.since || w.changed) continue;
        // A check that could not decide within its share: decided later, in its client's turns.
        if (verdicts[0] === UNDECIDED || verdicts[1] === UNDECIDED) this.#defer(w, waiters, { before, after, verdicts, direction: "by" });
        else if (w.watch.region.changedBy(after, verdicts[0], verdicts[1])) {
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
   * the page, or they are no longer known, the wait ends at once. The writes held after `since` are
   * tested too. Both replays share one fan-out budget; what they cannot decide within it is decided in
   * the client's turns, as the changes of later writes are.
   */
  wait<T>(watch: PageWatch<T>, since: number, after: number, timeoutMs: number): { done: Promise<WaitEnd>; cancel(): void } {
    if (this.#released) return { done: Promise.resolve("released"), cancel: () => undefined };
    const w = watch as PageWatch<unknown>;
    const floor = this.#floorOf(w.table);
    const atOnce = (): { done: Promise<WaitEnd>; cancel(): void } => {
      this.counts.atOnce++;
      return { done: Promise.resolve("changed"), cancel: () => undefined };
    };
    const check = checker(w, this.counts);
    // The replays below share one fan-out budget; the changes they cannot decide within it are deferred.
    const replayBudget = { steps: this.fanout };
    const undecided: Deferred[] = [];
    // Writes the client has not seen that the page already holds: unknown ones, or one that changed it.
    if (since > after && (floor > after || this.#latest < since || this.#replay(w, check, replayBudget, after, since, "since", undecided))) return atOnce();
    // Writes after the read that came before this wait (none held after `since` is fine: they come later).
    if (floor > since) return atOnce();
    const changed = this.#replay(w, check, replayBudget, since, Infinity, "by", undecided);

    let resolve!: (end: WaitEnd) => void;
    const done = new Promise<WaitEnd>((r) => (resolve = r));
    const waiters = this.#waitersOf(w.table);
    let timer: NodeJS.Timeout | undefined;
    const waiter: Waiter = {
      watch: w,
      check,
      since,
      after,
      changed,
      deferred: undefined,
      ended: new AbortController(),
      wake: (end) => {
        if (!this.#remove(waiters, waiter)) return;
        clearTimeout(timer);
        if (end === "changed") this.counts.changed++;
        else if (end === "timeout") this.counts.timedOut++;
        else if (end === "at-once") this.counts.atOnce++;
        resolve(end === "at-once" ? "changed" : end);
      },
    };
    waiters.all.add(waiter);
    if (w.filter === undefined) waiters.plain.add(waiter);
    else waiters.filtered.add(waiter, w.filter, (item) => this.#run(waiter, item), w.steps);
    if (changed) waiters.pending.add(waiter);
    this.#waiting++;
    // The answer comes once the table's index has passed the client's (a client ahead of this server waits for it).
    if (changed && this.#indexOf[w.table] > after) {
      waiter.wake("changed");
      return { done, cancel: () => undefined };
    }
    timer = setTimeout(() => waiter.wake("timeout"), timeoutMs);
    if (!changed) for (const d of undecided) this.#defer(waiter, waiters, d);
    return { done, cancel: () => waiter.wake("released") };
  }

  /** Ends every wait now and every later one at once (shutdown). */
  releaseAll(): void {
    this.#released = true;
    for (const waiters of this.#tables.values()) for (const w of [...waiters.all]) w.wake("released");
  }

  /**
   * Whether a held write in (`from`, `to`] changed the page of `watch`: `by` it after the read, or
   * `since` the client's index before it. A change the checks cannot decide within `budget` (shared by
   * the whole replay) goes to `undecided`.
   */
  #replay(watch: PageWatch<unknown>, check: Waiter["check"], budget: EvaluationBudget, from: number, to: number, direction: "by" | "since", undecided: Deferred[]): boolean {
    for (const commit of this.#history.between(from, to)) {
      for (const change of commit.changes) {
        const { table, before, after } = listChange(change);
        if (table !== watch.table) continue;
        const b = this.#verdict(check, before, watch.steps, budget);
        const a = this.#verdict(check, after, watch.steps, budget);
        if (b === UNDECIDED || a === UNDECIDED) {
          undecided.push({ before, after, verdicts: [b, a], direction });
          continue;
        }
        if (direction === "by" ? watch.region.changedBy(after, b, a) : watch.region.changedSince(after, b, a)) return true;
      }
    }
    return false;
  }

  /**
   * One item's verdict under a waiter's checks (false for a version that does not exist), with at most
   * `steps` (the request's budget for one item) taken from `allowance`: when the allowance, not the
   * request's budget, ran out, the verdict is undecided.
   */
  #verdict(check: Waiter["check"], item: unknown, steps: number, allowance: EvaluationBudget): Decided {
    if (item === undefined || check === undefined) return item !== undefined;
    const limit = Math.min(steps, allowance.steps);
    const budget: EvaluationBudget = { steps: limit };
    try {
      return check(item, budget);
    } catch (e) {
      if (!(e instanceof FilterEvaluationError)) throw e;
      if (e.code === "too-expensive" && limit < steps) return UNDECIDED;
      return "error";
    } finally {
      allowance.steps -= stepsTaken(limit, budget);
    }
  }

  /**
   * A change `w`'s checks could not decide within their share of the write's fan-out: decided in its
   * client's turns of the loop (one version per turn, with the request's budget for one item), where
   * the write's own work is bounded and the cost falls on the client's share. A waiter with more such
   * changes waiting than `DEFERRED_PER_WAITER` is answered (a fresh read of its page), as the scheduler
   * answers every blocking query after a write.
   */
  #defer(w: Waiter, waiters: TableWaiters, change: Deferred): void {
    this.counts.undecided++;
    if (w.deferred !== undefined && w.deferred.length >= DEFERRED_PER_WAITER) return this.#changed(w, waiters, change.direction);
    if (w.deferred !== undefined) {
      w.deferred.push(change);
      return;
    }
    w.deferred = [change];
    this.#decide(w, waiters).catch(() => undefined);
  }

  /** Decides `w`'s deferred changes in order, a version per turn, until one changes its page or the wait ends. */
  async #decide(w: Waiter, waiters: TableWaiters): Promise<void> {
    const unbounded = { steps: Infinity };
    for (let d = w.deferred?.[0]; d !== undefined; d = w.deferred?.[0]) {
      for (const version of [0, 1] as const) {
        if (d.verdicts[version] !== UNDECIDED) continue;
        await this.turns.next(w.watch.client, w.ended.signal);
        d.verdicts[version] = this.#verdict(w.check, version === 0 ? d.before : d.after, w.watch.steps, unbounded);
      }
      w.deferred!.shift();
      const [b, a] = d.verdicts as [Verdict, Verdict];
      if (d.direction === "by" ? w.watch.region.changedBy(d.after, b, a) : w.watch.region.changedSince(d.after, b, a)) return this.#changed(w, waiters, d.direction);
    }
    w.deferred = undefined;
  }

  /**
   * `w`'s page changed: it is answered once the table's index has passed its client's; a change since
   * the client's index (before the page was read) answers it now, as `wait` answers it at once.
   */
  #changed(w: Waiter, waiters: TableWaiters, direction: "by" | "since"): void {
    w.deferred = undefined;
    if (w.changed) return;
    w.changed = true;
    waiters.pending.add(w);
    if (direction === "since") w.wake("at-once");
    else if (this.#indexOf[w.watch.table] > w.after) w.wake("changed");
  }

  /**
   * A filtered waiter's checks as its table's filter set runs them, within the current share: one that
   * runs out of the share (not of the request's budget) is noted undecided; an error is the set's.
   */
  #run(waiter: Waiter, item: unknown): boolean {
    const limit = Math.min(waiter.watch.steps, this.#share);
    try {
      return waiter.check!(item, { steps: limit });
    } catch (e) {
      if (!(e instanceof FilterEvaluationError) || e.code !== "too-expensive" || limit >= waiter.watch.steps) throw e;
      this.#undecided.add(waiter);
      return false;
    }
  }

  /**
   * The waiters a change may concern, with the verdicts of the item's versions: those whose filter the
   * filter set evaluated to true, to an error or to undecided on either version, and every waiter
   * without a filter. Each filtered waiter's check has its share of the fan-out budget per version.
   */
  #candidates(waiters: TableWaiters, before: unknown, after: unknown): Map<Waiter, [Decided, Decided]> {
    const out = new Map<Waiter, [Decided, Decided]>();
    const note = (w: Waiter, version: 0 | 1, verdict: Decided): void => {
      (out.get(w) ?? out.set(w, [false, false]).get(w)!)[version] = verdict;
    };
    if (waiters.filtered.size > 0) {
      this.#share = Math.max(1, Math.floor(this.fanout / waiters.filtered.size));
      for (const [version, item] of [before, after].entries()) {
        if (item === undefined) continue;
        this.#undecided.clear();
        const m = waiters.filtered.match(item);
        for (const w of m.matched) note(w, version as 0 | 1, true);
        for (const { key } of m.failed) note(key, version as 0 | 1, "error");
        for (const w of this.#undecided) note(w, version as 0 | 1, UNDECIDED);
      }
      this.#undecided.clear();
    }
    const unbounded = { steps: Infinity };
    for (const w of waiters.plain) out.set(w, [this.#verdict(w.check, before, Infinity, unbounded), this.#verdict(w.check, after, Infinity, unbounded)]);
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
    w.deferred = undefined;
    w.ended.abort();
    if (!waiters.plain.delete(w)) waiters.filtered.delete(w);
    waiters.pending.delete(w);
    this.#waiting--;
    return true;
  }
}

/** Registers the waits' counts in the server's registry (served by `GET /v1/metrics`). */
export function registerPageWaitMetrics(registry: Registry, waits: PageWaits): void {
  const { counts } = waits;
  const { counted, countedBy, gauge } = collectedMetrics(registry);
  gauge("blocking_page_deferred", "Changes that waiting queries' checks could not decide within their share of the fan-out, waiting for their clients' turns.", () => waits.deferred);
  countedBy(
    "blocking_page_waits_total",
    "Blocking queries of --blocking-queries page that ended, by how (changed: a write changed the page; at_once: a write since the client's index had, or the writes since are no longer known; timeout).",
    "end",
    () => ({ changed: counts.changed, at_once: counts.atOnce, timeout: counts.timedOut }),
  );
  counted("blocking_page_evaluations_total", "Filter evaluations of waiting queries on changed items their token may read (the filter sets' index spares the others).", () => counts.evaluations);
  counted("blocking_page_steps_total", "Evaluation steps those evaluations took (each within its waiter's share of --fanout-budget).", () => counts.steps);
  counted("blocking_page_undecided_total", "Changes that waiting queries' checks could not decide within their share of a write's fan-out budget (--fanout-budget), decided later in their clients' turns.", () => counts.undecided);
}

/**
 * The checks of a watch on one item, in the request's order, the filter spending the budget given, its
 * evaluations and their steps counted when the item is one the request's token may read (so the counts
 * never depend on what it may not read); undefined when every item passes.
 */
function checker(watch: PageWatch<unknown>, counts: PageWaitCounts): Waiter["check"] {
  const { filter, allowed, order } = watch;
  let budget: EvaluationBudget = { steps: 0 };
  const matches =
    filter &&
    ((item: unknown): boolean => {
      // In the scheduler's order the filter runs first: count it only on readable items.
      const counted = allowed === undefined || order === "acl-first" || allowed(item);
      if (counted) counts.evaluations++;
      const before = budget.steps;
      try {
        return filter.evaluate(item, budget);
      } finally {
        if (counted) counts.steps += stepsTaken(before, budget);
      }
    });
  const checks = checksOf({ matches, allowed, order });
  if (checks === undefined) return undefined;
  return (item, given) => {
    budget = given;
    return checks(item, -1);
  };
}
