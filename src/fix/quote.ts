/**
 * Literals built from user input, for UIs that write filters: `quote` makes a value literal whose text
 * is exactly the given string, `quoteRegex` a pattern literal that matches the given text literally.
 */
import { pointerPath } from "../syntax/pointer.js";

/** RE2's metacharacters (Go's `regexp.QuoteMeta`). */
const REGEX_META = /[\\.+*?()|[\]{}^$]/g;

/**
 * A double-quoted literal whose value is exactly `value`, for `Name == ${quote(input)}`.
 *
 * The language ends a double-quoted string at the next `"` whatever precedes it, so a quote is written
 * `\x22`; a backslash is `\\`, control characters are escaped, and a value that would read as a JSON
 * Pointer (`"/a/b"` means the selector path, or the text `a/b`) starts with `\x2f`. Strings are bytes:
 * a lone surrogate U+DC80–U+DCFF (a raw byte, see `Literal`) is written `\xNN`; any other lone
 * surrogate, which no UTF-8 string holds, becomes U+FFFD as Go's decoder makes it.
 */
export function quote(value: string): string {
  let body = "";
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const d = value.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        body += value.slice(i, i + 2);
        i++;
        continue;
      }
    }
    if (c >= 0xdc80 && c <= 0xdcff) body += `\\x${(c - 0xdc00).toString(16)}`;
    else if (c >= 0xd800 && c <= 0xdfff) body += "\ufffd";
    else if (c === 0x22) body += "\\x22";
    else if (c === 0x5c) body += "\\\\";
    else if (c === 0x0a) body += "\\n";
    else if (c === 0x0d) body += "\\r";
    else if (c === 0x09) body += "\\t";
    else if (c < 0x20 || c === 0x7f) body += `\\x${c.toString(16).padStart(2, "0")}`;
    else body += value[i];
  }
  if (body.startsWith("/") && pointerPath(`"${body}"`) !== undefined) body = `\\x2f${body.slice(1)}`;
  return `"${body}"`;
}

/**
 * A double-quoted regular-expression literal that matches `text` literally (RE2's metacharacters
 * escaped as Go's `regexp.QuoteMeta` does, then quoted by `quote`), for `Name matches ${quoteRegex(input)}`.
 * The match is a search (unanchored); for the whole value write `quote(`^${escapeRegex(input)}$`)`.
 */
export function quoteRegex(text: string): string {
  return quote(escapeRegex(text));
}

/** `text` with RE2's metacharacters escaped: a pattern that matches exactly `text` (Go's `regexp.QuoteMeta`). */
export function escapeRegex(text: string): string {
  return text.replace(REGEX_META, (m) => `\\${m}`);
}
