/** JSON text helpers for the data output. */

/**
 * The item's own text without insignificant whitespace: one line of JSON, with every number exactly
 * as written (integers beyond 2^53 included) and keys in their order. `text` must be valid JSON.
 */
export function compactJson(text: string): string {
  if (!/[ \t\r\n]/.test(text)) return text;
  let out = "";
  let from = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 32 || c === 10 || c === 13 || c === 9) {
      out += text.slice(from, i);
      from = i + 1;
    }
  }
  return out + text.slice(from);
}
