/**
 * Where a page lies in its list, and whether a change to one item changes the page, decided without
 * reading the page again (filtered blocking queries, `--blocking-queries page`).
 *
 * A page is read by walking the list's runs (`planWalk`): items the seek skips are never looked at, then
 * every item is checked (ACL and filter, in the order asked) until `per_page` items passed; the next
 * one that passes is named by the next token (its *end*), and nothing after it is looked at. The items
 * between the start and the end are the page's *region*. An item's key and namespace never change (a
 * write replaces it under the same key), so it keeps its place; a change to item `x` changes the page
 * exactly when
 * `x` lies in the region and
 * - `x` is the end: its new version no longer passes (the next token moves on; an error ends the read);
 * - otherwise: its old version passed (it is on the page: a write always changes the item's text, its
 *   `ModifyIndex` at least) or its new version passes or fails to evaluate (it joins the page, pushing
 *   the rest along, or the read now ends with a 400).
 * A change outside the region changes nothing: the walk reads the same items up to the same end.
 */
import { compareStrings, type ListOrder } from "./orders.js";
import type { Page, Walk } from "./paginate.js";

/** An item's answer under a request's checks: passes, does not, or fails to evaluate (the read would answer 400). */
export type Verdict = boolean | "error";

/** An item's place in the walk's order: its run, and its key within the run. */
interface Place {
  readonly run: number;
  readonly key: string;
}

/** The place of an item in a partition the walk did not have (a namespace created since): it may fall anywhere. */
const UNPLACED = "unplaced";

export class PageRegion<T> {
  readonly #walk: Walk<T>;
  readonly #order: ListOrder<T>;
  /** Run per partition, when the walk has a run per partition. */
  readonly #runOf: Map<string, number> | undefined;
  /** Partitions of a walk that reads them all in one run (items of another partition are unplaced). */
  readonly #known: ReadonlySet<string> | undefined;
  /** The page's first item (undefined: an empty page) and its end (undefined: the last page). */
  readonly #first: Place | undefined;
  readonly #end: Place | undefined;
  /** The end's key, for the end item's own change; undefined when the token's key is unknown. */
  readonly #endKey: string | undefined;

  constructor(walk: Walk<T>, page: Page<T>) {
    this.#walk = walk;
    this.#order = walk.order;
    const partitioned = walk.runs.length > 1 || walk.runs[0]?.partition !== undefined;
    this.#runOf = partitioned ? new Map(walk.runs.map((r, i) => [r.partition ?? "", i])) : undefined;
    this.#known = !partitioned && walk.partitions !== undefined ? new Set(walk.partitions) : undefined;
    const first = page.items[0];
    this.#first = first === undefined ? undefined : (this.#place(first) as Place);
    if (page.nextToken !== "" && page.nextRun !== undefined) {
      const seek = this.#order.seek(page.nextToken);
      if ("key" in seek) {
        this.#endKey = seek.key;
        this.#end = { run: page.nextRun, key: seek.key };
      }
    }
  }

  /**
   * Whether replacing an item whose old version had verdict `before` (false when it did not exist) by
   * one with verdict `after` changes the page. `item` is either version (they share a key).
   */
  changedBy(item: T, before: Verdict, after: Verdict): boolean {
    const place = this.#place(item);
    if (place === undefined) return false;
    if (place !== UNPLACED && !this.#within(item, place)) return false;
    if (this.#endKey !== undefined && this.#order.key(item) === this.#endKey) return after !== true;
    return before !== false || after !== false;
  }

  /**
   * Whether the page read before a change (old verdict `before`, new `after`) differed from this page,
   * read after it: the same test with the versions' roles swapped.
   */
  changedSince(item: T, before: Verdict, after: Verdict): boolean {
    return this.changedBy(item, after, before);
  }

  /** Where the item lies in the walk: undefined when the walk never reads it, `UNPLACED` when it cannot tell. */
  #place(item: T): Place | typeof UNPLACED | undefined {
    const walk = this.#walk;
    if (walk.namespace !== undefined && walk.namespaceOf(item) !== walk.namespace) return undefined;
    let run = 0;
    const partition = this.#order.partition?.(item);
    if (this.#runOf !== undefined) {
      const found = this.#runOf.get(partition ?? "");
      if (found === undefined) return walk.partitions !== undefined ? UNPLACED : undefined;
      run = found;
    } else if (this.#known !== undefined && partition !== undefined && !this.#known.has(partition)) {
      // A new partition may split the walk's single run (see `ListOrder.oneRun`).
      return UNPLACED;
    }
    const r = walk.runs[run]!;
    const key = this.#order.key(item);
    if ((r.from !== undefined && compareStrings(key, r.from) < 0) || (r.to !== undefined && compareStrings(key, r.to) >= 0)) return undefined;
    return { run, key };
  }

  /** Order of two places in the walk (negative: `a` is read first). */
  #compare(a: Place, b: Place): number {
    if (a.run !== b.run) return a.run - b.run;
    const c = compareStrings(a.key, b.key);
    return this.#walk.reverse ? -c : c;
  }

  /** Whether the read looks at an item at `place`: not past the end, and not before the start where the seek skips it. */
  #within(item: T, place: Place): boolean {
    if (this.#end !== undefined && this.#compare(place, this.#end) > 0) return false;
    const seek = this.#walk.seek;
    if (seek === undefined || (this.#first !== undefined && this.#compare(place, this.#first) >= 0)) return true;
    // Before the page's first item (or on an empty page), the seek passes over items before its target.
    const c = "key" in seek ? compareStrings(place.key, seek.key) : seek.compare(this.#order.token(item));
    return this.#walk.reverse ? c <= 0 : c >= 0;
  }
}
