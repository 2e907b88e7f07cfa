/**
 * Batch evaluation, for `filter(items)`: the items are taken a chunk at a time, and each node of the
 * compiled program loops over the chunk itself, keeping the positions of the items it accepts (a
 * *selection*, as in vectorised query engines). A call per node per chunk replaces a call per node per
 * item, and each leaf's loop sees one field and one test.
 *
 * Exactness: `and` runs each operand on the positions its earlier operands kept, `or` on those they
 * did not, so every operand is evaluated on exactly the items per-item evaluation evaluates it on,
 * and the answers are the same. Only the order differs: operand by operand instead of item by item.
 * So when a chunk raises an error, the chunk is evaluated again item by item, which throws the error
 * per-item evaluation throws first (evaluation has no side effects).
 */

/**
 * Keeps, in order, the positions among `sel[0..n)` whose item matches, writing them to `sel[0..k)`,
 * and returns `k`. Positions index `items` and ascend.
 */
export type Batch = (items: ArrayLike<unknown>, sel: Int32Array, n: number) => number;

/** Items a chunk. */
export const CHUNK = 512;

/** The batch form of a per-item predicate (nodes with no loop of their own). */
export function perItem(run: (datum: unknown) => boolean): Batch {
  return (items, sel, n) => {
    let k = 0;
    for (let i = 0; i < n; i++) {
      const j = sel[i]!;
      if (run(items[j])) sel[k++] = j;
    }
    return k;
  };
}

/** `a and b and ...`: each operand narrows the selection the previous ones left. */
export function allOf(parts: readonly Batch[]): Batch {
  return (items, sel, n) => {
    for (let p = 0; p < parts.length && n > 0; p++) n = parts[p]!(items, sel, n);
    return n;
  };
}

/**
 * `a or b or ...`: each operand runs on the positions no earlier operand accepted; the answer is the
 * union of what they accepted, in order.
 */
export function anyOf(parts: readonly Batch[]): Batch {
  return (items, sel, n) => {
    let open = sel.slice(0, n); // positions no operand has accepted yet
    let openCount = n;
    let kept = new Int32Array(n); // positions accepted so far
    let keptCount = 0;
    let spare = new Int32Array(n);
    for (let p = 0; p < parts.length && openCount > 0; p++) {
      const tried = open.slice(0, openCount);
      const hit = parts[p]!(items, open, openCount); // open[0..hit) accepted
      // kept ∪ accepted, in order, into spare
      let a = 0;
      let b = 0;
      let m = 0;
      while (a < keptCount && b < hit) spare[m++] = kept[a]! < open[b]! ? kept[a++]! : open[b++]!;
      while (a < keptCount) spare[m++] = kept[a++]!;
      while (b < hit) spare[m++] = open[b++]!;
      const merged = spare;
      spare = kept;
      kept = merged;
      keptCount = m;
      // tried − accepted, in order, stays open
      let rest = 0;
      b = 0;
      for (let i = 0; i < tried.length; i++) {
        const j = tried[i]!;
        if (b < hit && open[b] === j) b++;
        else tried[rest++] = j;
      }
      open = tried;
      openCount = rest;
    }
    sel.set(kept.subarray(0, keptCount));
    return keptCount;
  };
}

/**
 * The positions of the items of `items` that `batch` keeps, in order, each given to `take`; `run` is
 * the per-item predicate, which decides the error when a chunk raises one (see the module comment).
 */
export function selectInChunks(items: ArrayLike<unknown>, batch: Batch, run: (datum: unknown) => boolean, take: (position: number) => void): void {
  const sel = new Int32Array(CHUNK);
  for (let start = 0; start < items.length; start += CHUNK) {
    const n = Math.min(CHUNK, items.length - start);
    for (let i = 0; i < n; i++) sel[i] = start + i;
    let k: number;
    try {
      k = batch(items, sel, n);
    } catch {
      k = 0;
      for (let i = 0; i < n; i++) if (run(items[start + i])) sel[k++] = start + i;
    }
    for (let i = 0; i < k; i++) take(sel[i]!);
  }
}

/** The items of `items` that `batch` keeps, in order (`selectInChunks`). */
export function filterInChunks<T>(items: readonly T[], batch: Batch, run: (datum: unknown) => boolean): T[] {
  const out: T[] = [];
  selectInChunks(items, batch, run, (i) => void out.push(items[i]!));
  return out;
}
