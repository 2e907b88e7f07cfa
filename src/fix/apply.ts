/** Applying a fix's edits to the text they were made for. */
import type { Fix, TextEdit } from "./types.js";

/**
 * The text with the edits applied. Edits refer to offsets of the original `text`; they must not
 * overlap (a `RangeError` says so) and may come in any order.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  let out = "";
  let at = 0;
  for (const e of sorted) {
    if (!(Number.isInteger(e.start) && Number.isInteger(e.end) && 0 <= e.start && e.start <= e.end && e.end <= text.length)) {
      throw new RangeError(`edit [${e.start}, ${e.end}) is outside the text (length ${text.length})`);
    }
    if (e.start < at) throw new RangeError(`edits overlap at offset ${e.start}`);
    out += text.slice(at, e.start) + e.insert;
    at = e.end;
  }
  return out + text.slice(at);
}

/** The text with a fix of `diagnose(text)` applied. */
export function applyFix(text: string, fix: Fix): string {
  return applyEdits(text, fix.edits);
}
