/**
 * Writing a value literal: `quote` (public through fix/quote.ts) makes the double-quoted literal whose
 * text is exactly a given string. Here, beside the parser's reading of literals, so that every folder
 * that writes filter text (the fixes, the lints) may use it.
 */
import { pointerPath } from "./pointer.js";

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
