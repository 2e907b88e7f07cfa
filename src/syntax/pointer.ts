/**
 * Quoted JSON Pointers (`"/a/b/0"`): the reference reads a double-quoted string made only of `/`-led
 * segments of letters, digits and `-_.~:|` as a selector, unescaping `~1` to `/` and `~0` to `~`.
 * Letters and digits are Go's (`\pL`, `\pN` of Go 1.23's Unicode 15.0 tables), not JavaScript's.
 */
import { isLetter, isNumber } from "../unicode/tables.js";
import { splitPointer } from "./pointer-path.js";

/** Whether `text` is one pointer segment's text (one or more of `[\pL\pN-_.~:|]`), as written. */
export function isPointerSegment(text: string): boolean {
  if (text === "") return false;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (!isLetter(c) && !isNumber(c) && !"-_.~:|".includes(ch)) return false;
  }
  return true;
}

/**
 * The path of a double-quoted token (quotes included) that is shaped like a JSON Pointer, or
 * `undefined`. The empty string `""` is the pointer with the single empty part.
 */
export function pointerPath(quoted: string): string[] | undefined {
  return splitPointer(quoted, isPointerSegment);
}
