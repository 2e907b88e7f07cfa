/**
 * Quoted JSON Pointers (`"/a/b/0"`): the reference reads a double-quoted string made only of `/`-led
 * segments of letters, digits and `-_.~:|` as a selector, unescaping `~1` to `/` and `~0` to `~`.
 */

const POINTER_SHAPE = /^"(?:\/[\p{L}\p{N}\-_.~:|]+)*"$/u;

/**
 * The path of a double-quoted token (quotes included) that is shaped like a JSON Pointer, or
 * `undefined`. The empty string `""` is the pointer with the single empty part.
 */
export function pointerPath(quoted: string): string[] | undefined {
  if (!POINTER_SHAPE.test(quoted)) return undefined;
  const body = quoted.slice(2, -1);
  if (quoted.length === 2) return [""];
  return body.split("/").map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
}
