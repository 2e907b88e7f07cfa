/**
 * List pages of the embedded store: the walk's runs over the order's index, in slices across
 * event-loop turns. Every run's positions are taken at the call and the ranges are copied at the first
 * pause, so that writes in between do not change the page: it is the page of the state at the call.
 */
import { compareStrings } from "../../lists/orders.js";
import { PageBuilder, type Page, type Walk } from "../../lists/paginate.js";
import type { Rejections } from "./block-answers.js";
import type { OrderIndex } from "./order-index.js";

/**
 * A run's items: positions [lo, hi) of `items`, where a keyed seek starts (`seekLo` up, `seekHi`
 * down), and `base`: the row (position in the index) of `items[0]`.
 */
interface Segment<T> {
  items: readonly T[];
  lo: number;
  hi: number;
  seekLo: number;
  seekHi: number;
  base: number;
}

/** `offerRange`'s answer when the page is complete. */
const COMPLETE = -2;

/**
 * Offers `items[i]` for i from `from` towards `end` (excluded) by `step`; returns `end` when all were
 * offered, `COMPLETE` when the page is, or the position `pause` asked to stop before (not offered).
 * Rows `base + i` that `rejections` rejects are passed over unoffered, a block at a time.
 */
function offerRange<T>(builder: PageBuilder<T>, items: readonly T[], from: number, end: number, step: 1 | -1, base: number, pause: () => boolean, rejections: Rejections | undefined): number {
  let i = from;
  while (i !== end) {
    if (pause()) return i;
    if (rejections !== undefined) {
      // A row the filter rejects is passed over by `offer` without a trace: skip the calls.
      i = rejections.next(base + i, base + end, step) - base;
      // `end`, or where the next block starts (looked at after the next pause).
      if (i === end || rejections.rejects(base + i)) continue;
    }
    if (!builder.offer(items[i] as T, base + i)) return COMPLETE;
    i += step;
  }
  return end;
}

/** An item's checks: `check` by the item, or `atRow` by its row in the index's table (while the table is as it was at the call). */
export interface IndexChecks<T> {
  check: ((item: T, row: number) => boolean) | undefined;
  atRow?: ((item: T, row: number) => boolean) | undefined;
  /** Rows the checks surely reject, with nothing to raise (read by row, like `atRow`). */
  rejections?: Rejections | undefined;
}

/**
 * The page of `walk` over `index`: `checks` are an item's checks (ACL and filter, in the order asked),
 * `pause` is asked before each item and yields to the event loop when true, until `turn` resolves (it
 * rejects when the scan's clients left: the scan stops there). While the scan waits in a
 * pause, a write to the index first copies the ranges the scan has still to read (`OrderIndex.pin`),
 * so that the page is that of the state at the call; the row checks read the index's columns, and
 * after such a write the item checks take over (the rows moved).
 */
export async function readIndexPage<T>(index: OrderIndex<T>, walk: Walk<T>, perPage: number, checks: IndexChecks<T>, pause: () => boolean, turn: () => Promise<void>): Promise<Page<T>> {
  const key = index.order.key;
  const seekKey = walk.seek !== undefined && "key" in walk.seek ? walk.seek.key : undefined;
  const segments: Segment<T>[] = walk.runs.map((run) => {
    const [lo, hi] = index.range(run.partition, run.from, run.to);
    let seekLo = lo;
    let seekHi = hi;
    if (seekKey !== undefined) {
      seekLo = index.lowerBound((x) => compareStrings(key(x), seekKey) < 0, lo, hi);
      seekHi = index.lowerBound((x) => compareStrings(key(x), seekKey) <= 0, lo, hi);
    }
    return { items: index.all, lo, hi, seekLo, seekHi, base: 0 };
  });
  const table = index.table;
  const version = table.version;
  const { check, atRow } = checks;
  const test = atRow === undefined ? check : (item: T, row: number) => (table.version === version ? atRow(item, row) : check === undefined || check(item, row));
  const builder = new PageBuilder(walk, perPage, test);
  // After a write the rows moved: every item is offered and checked by itself.
  const rejections = checks.rejections;
  const unchanged: Rejections | undefined = rejections && {
    rejects: (row) => table.version === version && rejections.rejects(row),
    next: (row, end, step) => (table.version === version ? rejections.next(row, end, step) : row),
  };
  // Where the scan is: segment `s`, position `i` of `items`, in [lo, hi).
  const at = { s: 0, i: 0, lo: 0, hi: 0, items: index.all, base: 0 };
  let copied = false;
  const keep = (): void => {
    // A write is about to change the index's array: keep this run's rest and the later runs as they are.
    if (copied) return;
    copied = true;
    for (let t = at.s + 1; t < segments.length; t++) {
      const later = segments[t]!;
      later.items = later.items.slice(later.lo, later.hi);
      [later.seekLo, later.seekHi] = [later.seekLo - later.lo, later.seekHi - later.lo];
      later.hi -= later.lo;
      later.base = later.lo;
      later.lo = 0;
    }
    at.items = at.items.slice(at.lo, at.hi);
    at.i -= at.lo;
    at.hi -= at.lo;
    at.base = at.lo;
    at.lo = 0;
  };
  const step = walk.reverse ? -1 : 1;
  const unpin = index.pin(keep);
  try {
    for (let s = 0; s < segments.length; s++) {
      const segment = segments[s]!;
      const keyed = !builder.started && seekKey !== undefined;
      builder.startRun(keyed);
      Object.assign(at, {
        s,
        lo: keyed && !walk.reverse ? segment.seekLo : segment.lo,
        hi: keyed && walk.reverse ? segment.seekHi : segment.hi,
        items: segment.items,
        base: segment.base,
      });
      at.i = walk.reverse ? at.hi - 1 : at.lo;
      for (;;) {
        // Synchronous stretches between pauses (a loop without `await` is what V8 optimizes best).
        const end = walk.reverse ? at.lo - 1 : at.hi;
        const stop = offerRange(builder, at.items, at.i, end, step, at.base, pause, unchanged);
        if (stop === COMPLETE) return builder.page();
        if (stop === end) break;
        at.i = stop;
        await turn();
        // The item `pause` stopped before is offered first when the scan resumes.
        if (!builder.offer(at.items[at.i] as T, at.base + at.i)) return builder.page();
        at.i += step;
      }
    }
    return builder.page();
  } finally {
    unpin();
  }
}
