/**
 * List pages of the embedded store: the walk's runs over the order's index, in slices across
 * event-loop turns. Every run's positions are taken at the call and the ranges are copied at the first
 * pause, so that writes in between do not change the page: it is the page of the state at the call.
 */
import { compareStrings } from "../../lists/orders.js";
import { PageBuilder, type Page, type Walk } from "../../lists/paginate.js";
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

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** An item's checks: `check` by the item, or `atRow` by its row in the index's table (while the table is as it was at the call). */
export interface IndexChecks<T> {
  check: ((item: T, row: number) => boolean) | undefined;
  atRow?: ((item: T, row: number) => boolean) | undefined;
}

/**
 * The page of `walk` over `index`: `checks` are an item's checks (ACL and filter, in the order asked),
 * `pause` is asked before each item and yields to the event loop when true. The row checks read the
 * index's columns; after a write in a pause they are left for the item checks (the rows moved).
 */
export async function readIndexPage<T>(index: OrderIndex<T>, walk: Walk<T>, perPage: number, checks: IndexChecks<T>, pause: () => boolean): Promise<Page<T>> {
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
  let copied = false;
  for (let s = 0; s < segments.length; s++) {
    const segment = segments[s]!;
    const keyed = !builder.started && seekKey !== undefined;
    builder.startRun(keyed);
    let lo = keyed && !walk.reverse ? segment.seekLo : segment.lo;
    let hi = keyed && walk.reverse ? segment.seekHi : segment.hi;
    let items = segment.items;
    let base = segment.base;
    const step = walk.reverse ? -1 : 1;
    for (let i = walk.reverse ? hi - 1 : lo; walk.reverse ? i >= lo : i < hi; i += step) {
      if (pause()) {
        if (!copied) {
          // The index's array changes in place on writes: keep this run's rest and the later runs as they are.
          for (let t = s + 1; t < segments.length; t++) {
            const later = segments[t]!;
            later.items = later.items.slice(later.lo, later.hi);
            [later.seekLo, later.seekHi] = [later.seekLo - later.lo, later.seekHi - later.lo];
            later.hi -= later.lo;
            later.base = later.lo;
            later.lo = 0;
          }
          items = items.slice(lo, hi);
          i -= lo;
          hi -= lo;
          base = lo;
          lo = 0;
          copied = true;
        }
        await nextTurn();
      }
      if (!builder.offer(items[i] as T, base + i)) return builder.page();
    }
  }
  return builder.page();
}
