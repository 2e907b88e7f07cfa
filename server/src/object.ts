/** A JSON object as the server reads it from a request body, a file or its store. */
export type Obj = Record<string, unknown>;

/** True for an object that is neither an array nor null. */
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A new object without a prototype, for maps keyed by names a client chooses (task groups, meta keys):
 * `__proto__` is an ordinary own key there, and `constructor` or `toString` read nothing that was not
 * set. JSON.stringify writes such an object as any other, and JSON.parse gives every key back as an
 * own property (`__proto__` included), so a dictionary survives the stores.
 */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/**
 * A map of `entries` as an ordinary object, every key an own data property (`__proto__` defined, not
 * assigned), for the many small maps a store holds (a million jobs' task group summaries): V8 keeps an
 * object without a prototype as a hash table, several times larger. Read it with `own`, as any map
 * read back from JSON.
 */
export function plainMap<T>(entries: Iterable<readonly [string, T]>): Record<string, T> {
  const map: Record<string, T> = {};
  for (const [key, value] of entries) {
    if (key === "__proto__") Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
    else map[key] = value;
  }
  return map;
}

/**
 * `o[key]` when `key` is an own property of `o`, else undefined: a name looked up in a map read back
 * from JSON (an ordinary object) never finds `Object.prototype`'s members.
 */
export function own<T>(o: Readonly<Record<string, T>> | null | undefined, key: string): T | undefined {
  return o != null && Object.hasOwn(o, key) ? o[key] : undefined;
}
