/**
 * Literals built from user input, for UIs that write filters: `quote` makes a value literal whose text
 * is exactly the given string, `quoteRegex` a pattern literal that matches the given text literally.
 */
import { quote } from "../syntax/write-literal.js";

export { quote };

/** RE2's metacharacters (Go's `regexp.QuoteMeta`). */
const REGEX_META = /[\\.+*?()|[\]{}^$]/g;

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
