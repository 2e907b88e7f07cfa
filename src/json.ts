/**
 * JSON text → data, keeping integers exact: an integer literal that a double cannot hold exactly
 * (beyond ±2^53) becomes a `bigint`, so typed integer fields compare as the reference's Go structs do.
 * Plain JSON mode reads a `bigint` as the nearest double, as Go decodes JSON numbers to float64.
 */

const BIG_INTEGER = /"(?:[^"\\]|\\.)*"|-?\d{16,}(?![.eE\d])/g;

/** `JSON.parse`, with integers beyond ±2^53 as `bigint`. */
export function parseJson(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  const tag = `${Math.random().toString(36).slice(2)}:`;
  const marker = `\u0000${tag}`;
  let found = false;
  const marked = text.replace(BIG_INTEGER, (m) => {
    if (m.startsWith('"')) return m;
    const n = BigInt(m);
    if (BigInt(Number(n)) === n && Number.isSafeInteger(Number(n))) return m;
    found = true;
    return `"\\u0000${tag}${m}"`;
  });
  if (!found) return JSON.parse(text);
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === "string" && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value,
  );
}
