/**
 * String literals as the reference reads them: Go's `strconv.Unquote` on the quoted source text.
 * Double-quoted strings take Go's escapes; backtick strings are raw (carriage returns are dropped).
 *
 * Go strings are bytes: `"\xff"` and `"\377"` are one byte each, not valid UTF-8. Such a value is held
 * as a JavaScript string in which each byte that is not part of valid UTF-8 (as Go's `utf8.DecodeRune`
 * decides, one byte at a time) is the lone surrogate U+DC80 + (byte − 0x80), the "surrogateescape"
 * convention; valid text is unchanged. Data decoded from JSON is valid UTF-8 (Go's decoder replaces
 * what is not), so such a value equals no datum string and names no key, as in the reference; only a
 * substring test (`contains`, `in` on a string) and regular expressions look at the bytes
 * (`utf8Bytes`, `bytesInclude`, `hasRawBytes`).
 */

const SIMPLE_ESCAPES: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  f: 12,
  n: 10,
  r: 13,
  t: 9,
  v: 11,
  "\\": 92,
  '"': 34,
};

const utf8 = new TextEncoder();
// A byte-order mark is text like any other (a default TextDecoder would drop a leading U+FEFF).
const utf8Decoder = new TextDecoder("utf-8", { ignoreBOM: true });

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

/** Why a quoted string failed to unquote: the offset (within `quoted`) of the bad escape and a reason. */
export interface UnquoteFailure {
  readonly offset: number;
  readonly reason: string;
}

/**
 * Unquotes a double-quoted (`"..."`) or raw (`` `...` ``) Go string literal, given with its quotes.
 * Returns the value, or a failure describing the first invalid escape.
 */
export function unquote(quoted: string): string | UnquoteFailure {
  const quote = quoted[0];
  const body = quoted.slice(1, -1);
  if (quote === "`") return body.replace(/\r/g, "");
  if (!body.includes("\\")) {
    const nl = body.indexOf("\n");
    return nl < 0 ? body : { offset: nl + 1, reason: "a line break inside a double-quoted string" };
  }
  // Escapes may produce arbitrary bytes (\xff, \377): collect UTF-8 bytes, decode once at the end.
  const bytes: number[] = [];
  const failure = readEscapes(body, bytes);
  return failure ?? decodeBytes(bytes);
}

/**
 * True when Go's `strconv.Unquote` rejects the quoted literal `quoted` (what `unquote` answers with a
 * failure), without building its value.
 */
export function unquoteFails(quoted: string): boolean {
  if (quoted[0] === "`") return false;
  const body = quoted.slice(1, -1);
  if (!body.includes("\\")) return body.includes("\n");
  return readEscapes(body, undefined) !== undefined;
}

/**
 * Reads the body of a double-quoted literal: its bytes (UTF-8, escapes decoded) into `bytes` when
 * given; the first failure, or undefined.
 */
function readEscapes(body: string, bytes: number[] | undefined): UnquoteFailure | undefined {
  let i = 0;
  while (i < body.length) {
    const c = body.charCodeAt(i);
    if (c === 10) return { offset: i + 1, reason: "a line break inside a double-quoted string" };
    if (c !== 92) {
      // Copy a run of plain characters.
      let j = i + 1;
      while (j < body.length && body.charCodeAt(j) !== 92 && body.charCodeAt(j) !== 10) j++;
      if (bytes !== undefined) for (const b of utf8.encode(body.slice(i, j))) bytes.push(b);
      i = j;
      continue;
    }
    const at = i + 1; // offset in the quoted literal of the backslash
    const e = body[i + 1];
    if (e === undefined) return { offset: at, reason: "a backslash at the end of the string" };
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      bytes?.push(simple);
      i += 2;
      continue;
    }
    if (e === "x" || e === "u" || e === "U") {
      const n = e === "x" ? 2 : e === "u" ? 4 : 8;
      const digits = body.slice(i + 2, i + 2 + n);
      if (digits.length !== n || ![...digits].every((d) => isHex(d.charCodeAt(0)))) {
        return { offset: at, reason: `\\${e} must be followed by ${n} hexadecimal digits` };
      }
      const v = parseInt(digits, 16);
      if (e === "x") bytes?.push(v);
      else {
        if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
          return { offset: at, reason: `\\${e}${digits} is not a valid Unicode code point` };
        }
        if (bytes !== undefined) for (const b of utf8.encode(String.fromCodePoint(v))) bytes.push(b);
      }
      i += 2 + n;
      continue;
    }
    if (e >= "0" && e <= "7") {
      const digits = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(digits)) return { offset: at, reason: "an octal escape needs three octal digits" };
      const v = parseInt(digits, 8);
      if (v > 255) return { offset: at, reason: `\\${digits} is more than 255` };
      bytes?.push(v);
      i += 4;
      continue;
    }
    return { offset: at, reason: `\\${e} is not a valid escape` };
  }
  return undefined;
}

/** Bytes → string: valid UTF-8 decoded, every other byte escaped as U+DC80 + (byte − 0x80). */
export function decodeBytes(bytes: readonly number[]): string {
  const valid = utf8Decoder.decode(new Uint8Array(bytes));
  if (!valid.includes("\ufffd")) return valid;
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    const [cp, size] = decodeRune(bytes, i);
    out += cp < 0 ? String.fromCharCode(0xdc00 + bytes[i]!) : String.fromCodePoint(cp);
    i += size;
  }
  return out;
}

/** Go's `utf8.DecodeRune`: the code point at `i` and its size, or -1 and 1 for an invalid byte. */
function decodeRune(b: readonly number[], i: number): [number, number] {
  const c0 = b[i]!;
  if (c0 < 0x80) return [c0, 1];
  const cont = (k: number) => {
    const c = b[i + k];
    return c !== undefined && c >= 0x80 && c <= 0xbf ? c & 0x3f : -1;
  };
  if (c0 >= 0xc2 && c0 <= 0xdf) {
    const c1 = cont(1);
    if (c1 >= 0) return [((c0 & 0x1f) << 6) | c1, 2];
  } else if (c0 >= 0xe0 && c0 <= 0xef) {
    const c1 = cont(1);
    const c2 = cont(2);
    if (c1 >= 0 && c2 >= 0) {
      const cp = ((c0 & 0x0f) << 12) | (c1 << 6) | c2;
      if (cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff)) return [cp, 3];
    }
  } else if (c0 >= 0xf0 && c0 <= 0xf4) {
    const c1 = cont(1);
    const c2 = cont(2);
    const c3 = cont(3);
    if (c1 >= 0 && c2 >= 0 && c3 >= 0) {
      const cp = ((c0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3;
      if (cp >= 0x10000 && cp <= 0x10ffff) return [cp, 4];
    }
  }
  return [-1, 1];
}

/** A lone U+DC80–U+DCFF: a raw byte of a string that is not valid UTF-8. */
const RAW_BYTE = /(?<![\ud800-\udbff])[\udc80-\udcff]/;

/** True when `s` holds raw bytes (is not valid UTF-8 in the reference's terms). */
export function hasRawBytes(s: string): boolean {
  return RAW_BYTE.test(s);
}

/** The bytes of `s` as the reference holds them: UTF-8, with escaped raw bytes restored. */
export function utf8Bytes(s: string): Uint8Array {
  if (!hasRawBytes(s)) return utf8.encode(s);
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const prev = i > 0 ? s.charCodeAt(i - 1) : 0;
    if (c >= 0xdc80 && c <= 0xdcff && !(prev >= 0xd800 && prev <= 0xdbff)) {
      out.push(c - 0xdc00);
      continue;
    }
    const cp = s.codePointAt(i)!;
    if (cp > 0xffff) i++;
    for (const b of utf8.encode(String.fromCodePoint(cp))) out.push(b);
  }
  return new Uint8Array(out);
}

/** Go's `strings.Contains` on bytes: `needle` (which may hold raw bytes) in `hay`. */
export function bytesInclude(hay: string, needle: string): boolean {
  if (!hasRawBytes(needle) && !hasRawBytes(hay)) return hay.includes(needle);
  const h = utf8Bytes(hay);
  const n = utf8Bytes(needle);
  outer: for (let i = 0; i + n.length <= h.length; i++) {
    for (let j = 0; j < n.length; j++) if (h[i + j] !== n[j]) continue outer;
    return true;
  }
  return false;
}

/** Quotes a string as a Go double-quoted literal that `unquote` reads back to the same value. */
export function quote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const cp = ch.codePointAt(0) ?? 0;
    switch (ch) {
      case '"':
        out += '\\"';
        break;
      case "\\":
        out += "\\\\";
        break;
      case "\n":
        out += "\\n";
        break;
      case "\r":
        out += "\\r";
        break;
      case "\t":
        out += "\\t";
        break;
      default:
        if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, "0")}`;
        else if (cp >= 0xd800 && cp <= 0xdfff) out += "\ufffd";
        else out += ch;
    }
  }
  return `${out}"`;
}
