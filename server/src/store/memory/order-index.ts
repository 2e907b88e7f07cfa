/**
 * The embedded store's index of one list order: the items sorted by (partition, key) as the order
 * declares them (bytewise), kept sorted on every write; ranges by binary search. The items are held
 * in a `FilterTable`, so that a filter reads columns rather than rows (`table.matcher`).
 */
import { FilterTable } from "filter-expr";
import { compareStrings, sortedBy, type ListOrder } from "../../lists/orders.js";

export class OrderIndex<T> {
  private rows: FilterTable<T>;
  private partitionNames: string[] = [];
  /** Scans reading the array across event-loop turns: each is told before a write changes it. */
  private readonly readers = new Set<() => void>();

  /**
   * `columns`: the paths the table keeps columns of (the endpoint's); none is built at request time,
   * so filters on other paths run item by item rather than stall a request on a column of every item.
   */
  constructor(
    readonly order: ListOrder<T>,
    private readonly columns: readonly (readonly string[])[] = [],
  ) {
    this.rows = this.tableOf([]);
  }

  private tableOf(items: T[]): FilterTable<T> {
    return FilterTable.from(items, { columns: this.columns, autoColumns: false });
  }

  /**
   * Registers a scan that reads `all` across event-loop turns: `beforeWrite` is called (once per
   * write, synchronously) before the array changes, for the scan to copy what it still needs. Returns
   * the release.
   */
  pin(beforeWrite: () => void): () => void {
    this.readers.add(beforeWrite);
    return () => this.readers.delete(beforeWrite);
  }

  private beforeWrite(): void {
    for (const reader of this.readers) reader();
  }

  private compare(a: T, b: T): number {
    const { partition, key } = this.order;
    if (partition !== undefined) {
      const c = compareStrings(partition(a), partition(b));
      if (c !== 0) return c;
    }
    return compareStrings(key(a), key(b));
  }

  /** Replaces the contents (each key computed once for the sort; of items with equal keys, the last). */
  load(items: Iterable<T>): void {
    const placed = sortedBy(this.order, [...items], (item) => item);
    // Items with the same (partition, key): the last one given stays, as `upsert` would leave it.
    const unique = placed.filter((d, i) => {
      const next = placed[i + 1];
      return next === undefined || next.p !== d.p || next.k !== d.k;
    });
    this.rows = this.tableOf(unique.map((d) => d.item));
    this.partitionNames = this.order.partition === undefined ? [] : [...new Set(unique.map((d) => d.p))];
  }

  /** The items in order (the array changes in place on writes: copy what must outlive an event-loop turn). */
  get all(): readonly T[] {
    return this.rows.items();
  }

  /** The items as a table (row numbers are positions in `all`; `version` changes on every write). */
  get table(): FilterTable<T> {
    return this.rows;
  }

  get size(): number {
    return this.rows.length;
  }

  /**
   * The partitions present, in order. A new partition replaces the array rather than changing it, so
   * that what a walk planned (`Walk.partitions`) stays what the order held then.
   */
  get partitions(): readonly string[] {
    return this.partitionNames;
  }

  /** Adds the item, or replaces the one with the same (partition, key). */
  upsert(item: T): void {
    this.beforeWrite();
    const at = this.lowerBound((x) => this.compare(x, item) < 0);
    const here = this.rows.at(at);
    if (here !== undefined && this.compare(here, item) === 0) {
      this.rows.set(at, item);
      return;
    }
    this.rows.insert(at, item);
    const p = this.order.partition?.(item);
    if (p !== undefined && !this.partitionNames.includes(p)) this.partitionNames = [...this.partitionNames, p].sort(compareStrings);
  }

  /** The item with the same (partition, key) as `probe` (which needs only the fields the order reads). */
  find(probe: T): T | undefined {
    const at = this.lowerBound((x) => this.compare(x, probe) < 0);
    const here = this.rows.at(at);
    return here !== undefined && this.compare(here, probe) === 0 ? here : undefined;
  }

  /** The first position in [lo, hi) whose item is not `before` the probe. */
  lowerBound(before: (item: T) => boolean, lo = 0, hi = this.rows.length): number {
    const items = this.rows.items();
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(items[mid] as T)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Positions [lo, hi) of a partition (undefined: all), keys from `from` up to `to` (excluded; undefined: open). */
  range(partition: string | undefined, from: string | undefined, to: string | undefined): [number, number] {
    const { partition: partitionOf, key } = this.order;
    let lo = 0;
    let hi = this.rows.length;
    if (partition !== undefined && partitionOf !== undefined) {
      lo = this.lowerBound((x) => compareStrings(partitionOf(x), partition) < 0);
      hi = this.lowerBound((x) => compareStrings(partitionOf(x), partition) <= 0, lo);
    }
    if (from !== undefined) lo = this.lowerBound((x) => compareStrings(key(x), from) < 0, lo, hi);
    if (to !== undefined) hi = this.lowerBound((x) => compareStrings(key(x), to) < 0, lo, hi);
    return [lo, hi];
  }
}
