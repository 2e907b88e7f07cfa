/**
 * JSON text for storage, keeping integers exact: the inverse of `parseJson`, which reads an integer
 * beyond ±2^53 as a `bigint`. `JSON.stringify` throws on a `bigint`, and a document that went through
 * `JSON.parse` has already lost such an integer (`18446744073709551615` reads back as
 * `18446744073709552000`); this writes a `bigint` as its digits, and everything else as
 * `JSON.stringify` does (which is the text the SQLite dialect expects, docs/sql.md).
 */

/** `JSON.stringify`, with a `bigint` written as the integer it is. */
export function stringifyJson(value: unknown): string {
  let big = false;
  const plain = JSON.stringify(value, (_k, x: unknown) => {
    if (typeof x !== "bigint") return x;
    big = true;
    return 0;
  });
  if (plain === undefined) throw new TypeError("stringifyJson: the value has no JSON text");
  if (!big) return plain;
  // A marker for the bigints that no string of the value holds (as JSON text writes it).
  let n = 0;
  let tag: string;
  do tag = `\u0000${n++}:`;
  while (plain.includes(JSON.stringify(tag).slice(1, -1)));
  const marked = JSON.stringify(value, (_k, x: unknown) => (typeof x === "bigint" ? `${tag}${x}` : x));
  const quoted = JSON.stringify(tag).slice(1, -1).replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
  return marked.replace(new RegExp(`"${quoted}(-?\\d+)"`, "g"), "$1");
}
