/**
 * String literals as the reference reads them: Go's `strconv.Unquote` on the quoted source text.
 * Double-quoted strings take Go's escapes; backtick strings are raw (carriage returns are dropped).
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
const utf8Decoder = new TextDecoder("utf-8");

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
  let i = 0;
  while (i < body.length) {
    const c = body.charCodeAt(i);
    if (c === 10) return { offset: i + 1, reason: "a line break inside a double-quoted string" };
    if (c !== 92) {
      // Copy a run of plain characters.
      let j = i + 1;
      while (j < body.length && body.charCodeAt(j) !== 92 && body.charCodeAt(j) !== 10) j++;
      for (const b of utf8.encode(body.slice(i, j))) bytes.push(b);
      i = j;
      continue;
    }
    const at = i + 1; // offset in `quoted` of the backslash
    const e = body[i + 1];
    if (e === undefined) return { offset: at, reason: "a backslash at the end of the string" };
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      bytes.push(simple);
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
      if (e === "x") bytes.push(v);
      else {
        if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
          return { offset: at, reason: `\\${e}${digits} is not a valid Unicode code point` };
        }
        for (const b of utf8.encode(String.fromCodePoint(v))) bytes.push(b);
      }
      i += 2 + n;
      continue;
    }
    if (e >= "0" && e <= "7") {
      const digits = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(digits)) return { offset: at, reason: "an octal escape needs three octal digits" };
      const v = parseInt(digits, 8);
      if (v > 255) return { offset: at, reason: `\\${digits} is more than 255` };
      bytes.push(v);
      i += 4;
      continue;
    }
    return { offset: at, reason: `\\${e} is not a valid escape` };
  }
  return utf8Decoder.decode(new Uint8Array(bytes));
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
