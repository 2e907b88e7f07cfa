/**
 * The scheduler's paginator, for any list endpoint and either store. A request walks the endpoint's
 * order in runs (a namespace each when the order runs by namespace, else one), each over a range of
 * keys; while the page's start has not been found, items whose token sorts before `next_token` (after
 * it, in reverse) are skipped, and the first item that passes the checks marks the start. The token of
 * the first item past `per_page` is the next token; the last page has none.
 */
import type { ListEndpoint } from "./endpoints.js";
import type { ListOrder, Seek } from "./orders.js";

/** What decides one page besides the state, the filter and the token: the scheduler's list parameters. */
export interface PageQuery {
  /** `*`: every namespace. */
  namespace: string;
  prefix: string;
  /** 0: no limit. */
  perPage: number;
  nextToken: string;
  reverse: boolean;
}

export interface Page<T> {
  items: T[];
  nextToken: string;
  /** The run (index in the walk's `runs`) of the item `nextToken` names; absent without a next token. */
  nextRun?: number;
}

/** A run of a walk: one partition of the order (undefined: all of it), over keys from `from` up to `to` (excluded). */
export interface Run {
  readonly partition: string | undefined;
  readonly from: string | undefined;
  readonly to: string | undefined;
}

/** How one request reads a list: the order, its runs in list order, and where the page starts. */
export interface Walk<T> {
  readonly order: ListOrder<T>;
  /** In list order (reversed for `reverse`); each run is read in its own key order, descending for `reverse`. */
  readonly runs: readonly Run[];
  readonly reverse: boolean;
  /** Only items of this namespace (an order not partitioned by namespace reads them all); undefined: every one. */
  readonly namespace: string | undefined;
  readonly namespaceOf: (item: T) => string;
  /** Where the page starts; undefined: at the first item that passes the checks. */
  readonly seek: Seek | undefined;
  /** The partitions the order held when the walk was planned, in order; undefined: the walk did not read them (one namespace, or an order without partitions). */
  readonly partitions: readonly string[] | undefined;
}

/**
 * The walk of a request. `namespaces(order)` lists the namespaces an order holds, in order (asked only
 * for `*` over an order that runs by namespace). Throws `BadRequest` for a prefix the endpoint refuses.
 */
export function planWalk<T>(endpoint: ListEndpoint<T>, query: PageQuery, namespaces: (order: ListOrder<T>) => readonly string[]): Walk<T> {
  const withPrefix = query.prefix !== "";
  if (withPrefix) endpoint.prefix.check(query.prefix);
  const order = withPrefix ? endpoint.prefix.order : endpoint.order;
  const range = (partition: string | undefined): Run => {
    if (!withPrefix) return { partition, from: undefined, to: undefined };
    const { from, to } = endpoint.prefix.keys(query.prefix, partition);
    return { partition, from, to };
  };
  let runs: Run[];
  // A list without namespaces (nodes) ignores the parameter.
  let namespace: string | undefined = query.namespace === "*" || endpoint.namespaceOf === undefined ? undefined : query.namespace;
  let partitions: readonly string[] | undefined;
  if (order.partitionColumn === undefined) runs = [range(undefined)];
  else if (namespace !== undefined) {
    runs = [range(namespace)];
    namespace = undefined;
  } else {
    const all = (partitions = namespaces(order));
    // One run over every namespace when their keys sort as one (and no prefix range differs between them).
    runs = !withPrefix && order.oneRun?.(all) === true ? [range(undefined)] : all.map(range);
  }
  if (query.reverse) runs = [...runs].reverse();
  const seek = query.nextToken === "" ? undefined : order.seek(query.nextToken);
  return { order, runs, reverse: query.reverse, namespace, namespaceOf: endpoint.namespaceOf ?? (() => ""), seek, partitions };
}

/** In which order an item meets the ACL check and the filter. */
export type CheckOrder =
  /** The ACL check first: the filter only ever sees items the token may read. */
  | "acl-first"
  /** The scheduler's order, the filter first (its errors and costs can tell what the token may not read). */
  | "nomad";

/**
 * The checks of a page: the filter (it may throw: an evaluation error ends the page) and the ACL
 * check. The filter takes the item and its row (its position in the store's list, when the store
 * reads one).
 */
export interface PageChecks<T> {
  matches?: (item: T, row: number) => boolean;
  allowed?: (item: T) => boolean;
  order: CheckOrder;
}

/** One item's checks as a single test, in the order asked for. */
export function checksOf<T>(checks: PageChecks<T>): ((item: T, row: number) => boolean) | undefined {
  const { matches, allowed } = checks;
  if (matches === undefined) return allowed;
  if (allowed === undefined) return matches;
  return checks.order === "acl-first" ? (item, row) => allowed(item) && matches(item, row) : (item, row) => matches(item, row) && allowed(item);
}

/**
 * The page as items come, in list order, run by run: call `startRun` before each run's items, `offer`
 * for each item (false: the page is complete, stop), and `page` at the end.
 */
export class PageBuilder<T> {
  private readonly items: T[] = [];
  private next = "";
  private nextRun = -1;
  /** The run being offered (index in the walk's runs). */
  private run = -1;
  private found: boolean;
  /** Items before this run's seek position are before the target (a keyed seek); set per run. */
  private keyed = false;

  constructor(
    private readonly walk: Walk<T>,
    private readonly perPage: number,
    private readonly check: ((item: T, row: number) => boolean) | undefined,
  ) {
    this.found = walk.seek === undefined;
  }

  /** Whether the page's start has been found (a run then starts at its first key). */
  get started(): boolean {
    return this.found;
  }

  /** The next run begins (every run of the walk, in order); `keyed`: its items start at the seek's key, so none of them is before the target. */
  startRun(keyed: boolean): void {
    this.keyed = keyed;
    this.run++;
  }

  /** Takes the next item of the walk (`row`: its position in the store's list); false when the page is complete. */
  offer(item: T, row = -1): boolean {
    const walk = this.walk;
    if (walk.namespace !== undefined && walk.namespaceOf(item) !== walk.namespace) return true;
    if (!this.found && !this.keyed) {
      const seek = walk.seek as { compare: (token: string) => number };
      const c = seek.compare(walk.order.token(item));
      if (walk.reverse ? c > 0 : c < 0) return true;
    }
    if (this.check !== undefined && !this.check(item, row)) return true;
    this.found = true;
    if (this.perPage !== 0 && this.items.length >= this.perPage) {
      this.next = walk.order.token(item);
      this.nextRun = this.run;
      return false;
    }
    this.items.push(item);
    return true;
  }

  page(): Page<T> {
    return this.next === "" ? { items: this.items, nextToken: "" } : { items: this.items, nextToken: this.next, nextRun: this.nextRun };
  }
}
