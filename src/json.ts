/**
 * JSON text → data, keeping integers exact: an integer literal that a double cannot hold exactly
 * (beyond ±2^53) becomes a `bigint`, so typed integer fields compare as the reference's Go structs do.
 * Plain JSON mode reads a `bigint` as the nearest double, as Go decodes JSON numbers to float64.
 * As in Go's decoder, a `\u` escape of a lone surrogate decodes to U+FFFD: decoded strings are valid
 * UTF-8 (which is what tells them from literals holding raw bytes, see syntax/strings.ts).
 */

const BIG_INTEGER = /"(?:[^"\\]|\\.)*"|-?\d{16,}(?![.eE\d])/g;

/** `JSON.parse`, with integers beyond ±2^53 as `bigint` and lone surrogates as U+FFFD. */
export function parseJson(text: string): unknown {
  const value = parseNumbers(text);
  return /\\u[dD][89a-fA-F]/.test(text) ? validUnicode(value) : value;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Every string (and key) with each lone surrogate replaced by U+FFFD, as Go's JSON decoder does. */
function validUnicode(v: unknown): unknown {
  if (typeof v === "string") return v.replace(LONE_SURROGATE, "\ufffd");
  if (Array.isArray(v)) return v.map(validUnicode);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k.replace(LONE_SURROGATE, "\ufffd")] = validUnicode(x);
    return out;
  }
  return v;
}

function parseNumbers(text: string): unknown {
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
