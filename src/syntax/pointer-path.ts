/**
 * The shape of a quoted JSON Pointer (`"/a/b/0"`, pointer.ts) without Go's Unicode tables: the
 * splitting and unescaping, given the test of a segment's characters; and that test for text of ASCII
 * characters only, where Go's `\pL` and `\pN` are `[A-Za-z]` and `[0-9]`. The fast parser reads
 * pointers with it and declines at any other character, so it loads without the tables.
 */

/**
 * The path of a double-quoted token (quotes included) shaped like a JSON Pointer whose segments pass
 * `isSegment`, or `undefined`. The empty string `""` is the pointer with the single empty part.
 */
export function splitPointer(quoted: string, isSegment: (text: string) => boolean): string[] | undefined {
  if (quoted.length < 2 || quoted[0] !== '"' || quoted[quoted.length - 1] !== '"') return undefined;
  if (quoted.length === 2) return [""];
  const body = quoted.slice(1, -1);
  if (body[0] !== "/") return undefined;
  const parts = body.slice(1).split("/");
  if (!parts.every(isSegment)) return undefined;
  return parts.map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** Whether `text` is ASCII only (then `isAsciiPointerSegment` answers as the full test does). */
export function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 127) return false;
  return true;
}

/** `isPointerSegment` (pointer.ts) for ASCII text: one or more of `[A-Za-z0-9-_.~:|]`. */
export function isAsciiPointerSegment(text: string): boolean {
  if (text === "") return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const alnum = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (!alnum && !"-_.~:|".includes(text[i]!)) return false;
  }
  return true;
}
