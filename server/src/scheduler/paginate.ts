/**
 * The scheduler's paginator. Items come in iteration order; while the page's start has not been found,
 * items whose token sorts before `next_token` (after it, in reverse) are skipped; the first item that
 * passes the filter and the ACL check marks the start. The token of the first item past `per_page`
 * becomes the next token; no next token on the last page.
 */
export interface PageSource<T> {
  items: readonly T[];
  /** Iterated range [lo, hi) of `items`. */
  lo: number;
  hi: number;
  /** Membership of the iterated set inside the range (e.g. a namespace); items failing it are not seen. */
  member?: (item: T) => boolean;
  reverse: boolean;
  token: (item: T) => string;
  /** Compares an item's token with the target token: negative, zero or positive. */
  compare: (token: string, target: string) => number;
  /** Whether token order equals iteration order over the whole range, so the start can be found by bisection. */
  monotonic: boolean;
}

export interface PageRequest<T> {
  nextToken: string;
  /** 0: no limit. */
  perPage: number;
  /** The filter; may throw (an evaluation error ends the page). */
  matches?: (item: T) => boolean;
  /** The ACL namespace check, after the filter. */
  allowed?: (item: T) => boolean;
}

export interface Page<T> {
  items: T[];
  nextToken: string;
}

function bisectStart<T>(source: PageSource<T>, target: string): number {
  // Ascending: first position whose token is >= target. Reverse: last position whose token is <= target.
  let lo = source.lo;
  let hi = source.hi;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const cmp = source.compare(source.token(source.items[mid] as T), target);
    if (source.reverse ? cmp <= 0 : cmp < 0) lo = mid + 1;
    else hi = mid;
  }
  return source.reverse ? lo - 1 : lo;
}

export function paginate<T>(source: PageSource<T>, request: PageRequest<T>): Page<T> {
  const steps = pageSteps(source, request, () => false);
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
  }
}

/**
 * The same page, computed in slices: between slices (when `pause` says so, checked before each item)
 * it yields to the event loop, so that a long scan never holds it for long. The range is copied at the
 * first pause, so that writes in between do not change the page (it is the page of the state at the
 * call).
 */
export async function paginateSliced<T>(source: PageSource<T>, request: PageRequest<T>, pause: () => boolean): Promise<Page<T>> {
  const steps = pageSteps(source, request, pause);
  for (;;) {
    const next = steps.next();
    if (next.done === true) return next.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** The paginator as a generator that yields whenever `pause()` is true (never with `() => false`). */
function* pageSteps<T>(source: PageSource<T>, request: PageRequest<T>, pause: () => boolean): Generator<void, Page<T>> {
  const { member, reverse, token } = source;
  const { perPage, matches, allowed } = request;
  const target = request.nextToken;
  let found = target === "";
  const step = reverse ? -1 : 1;
  let i = reverse ? source.hi - 1 : source.lo;
  if (!found && source.monotonic) {
    i = bisectStart(source, target);
    found = true;
  }
  let items = source.items;
  let lo = source.lo;
  let hi = source.hi;
  let copied = false;
  const out: T[] = [];
  for (; reverse ? i >= lo : i < hi; i += step) {
    if (pause()) {
      if (!copied) {
        // The state's arrays change in place on writes: keep the range as it was.
        items = items.slice(lo, hi);
        i -= lo;
        hi -= lo;
        lo = 0;
        copied = true;
      }
      yield;
    }
    const item = items[i] as T;
    if (member !== undefined && !member(item)) continue;
    if (!found) {
      const cmp = source.compare(token(item), target);
      if (reverse ? cmp > 0 : cmp < 0) continue;
    }
    if (matches !== undefined && !matches(item)) continue;
    if (allowed !== undefined && !allowed(item)) continue;
    found = true;
    if (perPage !== 0 && out.length >= perPage) return { items: out, nextToken: token(item) };
    out.push(item);
  }
  return { items: out, nextToken: "" };
}

/** Plain string order, as Go's cmp.Compare on strings (UTF-16 order equals byte order for ASCII). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Deployment tokens "<CreateIndex>.<ID>": when the target's part before the first "." is an integer,
 * CreateIndex is compared numerically (a negative one wraps to a huge unsigned value), then the IDs as
 * strings; otherwise the whole strings are compared.
 */
export function createIndexTokenComparator(target: string): { compare: (token: string, target: string) => number; numeric: boolean } {
  const dot = target.indexOf(".");
  const left = dot < 0 ? "" : target.slice(0, dot);
  if (dot < 0 || !/^[+-]?\d+$/.test(left)) return { compare: compareStrings, numeric: false };
  const n = BigInt(left);
  const targetIndex = n < 0n ? 2n ** 64n + n : n;
  const targetId = target.slice(dot + 1);
  return {
    numeric: true,
    compare: (token: string) => {
      const d = token.indexOf(".");
      const index = BigInt(token.slice(0, d));
      if (index !== targetIndex) return index < targetIndex ? -1 : 1;
      return compareStrings(token.slice(d + 1), targetId);
    },
  };
}
