/**
 * The orders lists are read and paged in, as the scheduler's state store iterates its indexes and its
 * paginator's tokenizers write tokens (nomad/state/paginator/tokenizer.go). An order says, once for both
 * stores, how items sort (an optional partition, then a key: bytewise, as PostgreSQL's `COLLATE "C"`),
 * what an item's page token is, and where `next_token` makes a page start.
 */
import type { JobListEntry } from "./records.js";

/** Go's string order: bytewise over UTF-8, which is code point order (JavaScript's `<` is UTF-16 order). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (a code point above U+FFFF) sorts after every other unit in code point order.
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy) return sx ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** The smallest string above every string that starts with `prefix` (code point order), or undefined. */
export function prefixEnd(prefix: string): string | undefined {
  const chars = [...prefix];
  while (chars.length > 0) {
    const cp = chars.pop()!.codePointAt(0)!;
    if (cp < 0x10ffff) return chars.join("") + String.fromCodePoint(cp + 1 === 0xd800 ? 0xe000 : cp + 1);
  }
  return undefined;
}

/** Where `next_token` makes a page start within a run of keys. */
export type Seek =
  /** Tokens sort as keys: the first key at or past `key` (at or before, in reverse). */
  | { readonly key: string }
  /** They do not: items are skipped until the first whose token compares at or past the target (`compare` ≥ 0; ≤ 0 in reverse). */
  | { readonly compare: (token: string) => number };

export interface ListOrder<T> {
  /** PostgreSQL: the table's column holding `key(item)` (`COLLATE "C"`), and the one holding the partition. */
  readonly column: string;
  readonly partitionColumn?: string;
  /** Lists in this order run partition by partition (in order), each in key order; undefined: one run. */
  partition?(item: T): string;
  /** The item's key: unique in the table, bytewise order within a partition. */
  key(item: T): string;
  /** The item's page token (`X-Svc-Nexttoken`). */
  token(item: T): string;
  /** The token of the item whose key this is. */
  tokenOfKey(key: string): string;
  /** Where the page of `next_token` starts. */
  seek(target: string): Seek;
  /** Whether the keys of these partitions (in order) also sort as one run: then all can be read at once. */
  oneRun?(partitions: readonly string[]): boolean;
}

/** An item with its partition and key under an order, read once. */
export interface Placed<U> {
  readonly item: U;
  readonly p: string;
  readonly k: string;
}

/**
 * `items` in `order` (partition, then key; stable), each one's partition and key read once through
 * `view`, which gives what the order reads of it.
 */
export function sortedBy<T, U>(order: ListOrder<T>, items: readonly U[], view: (item: U) => T): Placed<U>[] {
  const { partition, key } = order;
  let surrogates = false;
  const placed = items.map((item) => {
    const t = view(item);
    const p = partition?.(t) ?? "";
    const k = key(t);
    surrogates ||= SURROGATE.test(p) || SURROGATE.test(k);
    return { item, p, k };
  });
  // Without surrogates, UTF-16 order (JavaScript's, and native) is code point order: a million keys sort 4× faster.
  if (!surrogates) return placed.sort((a, b) => (a.p === b.p ? (a.k < b.k ? -1 : a.k > b.k ? 1 : 0) : a.p < b.p ? -1 : 1));
  return placed.sort((a, b) => compareStrings(a.p, b.p) || compareStrings(a.k, b.k));
}

const SURROGATE = /[\ud800-\udfff]/;

/**
 * Jobs: by namespace, then ID (the scheduler's `id` index is (Namespace, ID)); the token is
 * "Namespace.ID", compared as a string. Within a namespace tokens sort as IDs; across namespaces only
 * when no namespace name is followed, in another, by a character below "." (`a` and `a-b` are not).
 */
export const byNamespaceAndId: ListOrder<JobListEntry> = {
  column: "token",
  partitionColumn: "namespace",
  partition: (job) => job.Namespace,
  key: (job) => `${job.Namespace}.${job.ID}`,
  token: (job) => `${job.Namespace}.${job.ID}`,
  tokenOfKey: (key) => key,
  seek: (target) => ({ key: target }),
  oneRun: (namespaces) =>
    namespaces.every((a, i) => {
      const b = namespaces[i + 1];
      if (b === undefined || !b.startsWith(a)) return true;
      return compareStrings(b[a.length] ?? "", ".") > 0;
    }),
};

const ord = (createIndex: bigint | number, id: string): string => `${String(createIndex).padStart(20, "0")}.${id}`;

/** A record with a create index and a UUID: deployments, allocations, evaluations, nodes. */
export interface Indexed {
  readonly CreateIndex: number;
  readonly ID: string;
}

/**
 * By create index, then ID (deployments, allocations, evaluations); the token is "CreateIndex.ID". A
 * target whose part before the first "." is an integer compares by number (a negative one wraps to a
 * huge unsigned value), then by ID: tokens sort as keys. Any other target compares as a string: the
 * page starts at the first item, in list order, whose token is at or past it. One order per list (the
 * embedded store keeps an index per order).
 */
export function createIndexAndIdOrder<T extends Indexed>(): ListOrder<T> {
  return {
    column: "ord",
    key: (d) => ord(d.CreateIndex, d.ID),
    token: (d) => `${d.CreateIndex}.${d.ID}`,
    tokenOfKey: (key) => {
      const dot = key.indexOf(".");
      return `${BigInt(key.slice(0, dot))}.${key.slice(dot + 1)}`;
    },
    seek: (target) => {
      const dot = target.indexOf(".");
      const left = dot < 0 ? "" : target.slice(0, dot);
      if (dot >= 0 && /^[+-]?\d+$/.test(left)) {
        const n = BigInt(left);
        return { key: ord(n < 0n ? 2n ** 64n + n : n, target.slice(dot + 1)) };
      }
      return { compare: (token) => compareStrings(token, target) };
    },
  };
}

/** By ID in a UUID index (lower-case UUIDs, as the scheduler writes them); the token is the ID. One order per list. */
export function idOrder<T extends { readonly ID: string }>(): ListOrder<T> {
  return { column: "id", key: (d) => d.ID, token: (d) => d.ID, tokenOfKey: (key) => key, seek: (target) => ({ key: target }) };
}
