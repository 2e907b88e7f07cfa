/**
 * JSON text → data and back, keeping integers exact. `parseJson`: an integer literal that a double
 * cannot hold exactly (beyond ±2^53) becomes a `bigint`, so typed integer fields compare as the
 * reference's Go structs do. Plain JSON mode reads a `bigint` as the nearest double, as Go decodes
 * JSON numbers to float64. As in Go's decoder, a `\u` escape of a lone surrogate decodes to U+FFFD:
 * decoded strings are valid UTF-8 (which is what tells them from literals holding raw bytes, see
 * syntax/strings.ts).
 *
 * Text without long integers or surrogate escapes goes to `JSON.parse` as it is. Other text is read in
 * one pass by `Reader`; what it refuses is given to `JSON.parse`, so errors are `JSON.parse`'s own.
 *
 * `stringifyJson`, data → JSON text for storage, is the inverse of `parseJson`. `JSON.stringify`
 * throws on a `bigint`, and a document that went through `JSON.parse` has already lost such an
 * integer (`18446744073709551615` reads back as `18446744073709552000`); this writes a `bigint` as
 * its digits, and everything else as `JSON.stringify` does (which is the text the SQLite dialect
 * expects, docs/sql.md).
 */

import { C } from "./json-chars.js";

/** `JSON.parse`, with integers beyond ±2^53 as `bigint` and lone surrogates as U+FFFD. */
export function parseJson(text: string): unknown {
  const surrogates = SURROGATE_ESCAPE.test(text);
  if (!surrogates && !LONG_DIGITS.test(text)) return JSON.parse(text);
  try {
    return new Reader(text, surrogates).document();
  } catch {
    // Not JSON: JSON.parse's own error, about the text as given. JSON (nested past the reader's
    // stack, say): read the other way.
    JSON.parse(text);
    return reference(text, surrogates);
  }
}

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONG_DIGITS = /\d{16}/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const HAS_SURROGATE = /[\ud800-\udfff]/;

/** A number's text as the reader keeps it: a `bigint` for an integer beyond ±2^53. */
function numberOf(literal: string, integer: boolean): number | bigint {
  const x = Number(literal);
  return !integer || Number.isSafeInteger(x) ? x : BigInt(literal);
}

/** Thrown where the text is not JSON: `JSON.parse` then says why. */
const NOT_JSON = Symbol("not JSON");

/** `o[key] = value` as JSON.parse makes it: an own data property, `__proto__` included. */
function setOwn(o: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(o, key, { value, enumerable: true, writable: true, configurable: true });
  else o[key] = value;
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const isDigit = (c: number): boolean => c >= C.Zero && c <= C.Nine;

/** A one-pass reader of JSON text (RFC 8259, as `JSON.parse` reads it). */
class Reader {
  private i = 0;

  constructor(
    private readonly s: string,
    /** The text holds a surrogate escape: every string is made valid, as `reference` does. */
    private readonly surrogates: boolean,
  ) {}

  document(): unknown {
    const v = this.value();
    if (this.space() !== undefined) throw NOT_JSON;
    return v;
  }

  /** The next character that is not white space (its code), or undefined at the end. */
  private space(): number | undefined {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === C.Space || c === C.LF || c === C.CR || c === C.Tab) this.i++;
      else return Number.isNaN(c) ? undefined : c;
    }
  }

  private value(): unknown {
    const c = this.space();
    switch (c) {
      case C.OpenBrace:
        return this.object();
      case C.OpenBracket:
        return this.array();
      case C.Quote:
        return this.string();
      case 116: // t
        return this.word("true", true);
      case 102: // f
        return this.word("false", false);
      case 110: // n
        return this.word("null", null);
      default:
        return this.number();
    }
  }

  private word<T>(w: string, v: T): T {
    if (!this.s.startsWith(w, this.i)) throw NOT_JSON;
    this.i += w.length;
    return v;
  }

  private object(): Record<string, unknown> {
    const o: Record<string, unknown> = {};
    this.i++;
    if (this.space() === C.CloseBrace) {
      this.i++;
      return o;
    }
    for (;;) {
      if (this.space() !== C.Quote) throw NOT_JSON;
      const key = this.string();
      if (this.space() !== C.Colon) throw NOT_JSON;
      this.i++;
      const v = this.value();
      setOwn(o, key, v);
      const next = this.space();
      this.i++;
      if (next === C.CloseBrace) return o;
      if (next !== C.Comma) throw NOT_JSON;
    }
  }

  private array(): unknown[] {
    const a: unknown[] = [];
    this.i++;
    if (this.space() === C.CloseBracket) {
      this.i++;
      return a;
    }
    for (;;) {
      a.push(this.value());
      const next = this.space();
      this.i++;
      if (next === C.CloseBracket) return a;
      if (next !== C.Comma) throw NOT_JSON;
    }
  }

  private string(): string {
    const s = this.s;
    const start = ++this.i;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === C.Quote) break;
      if (c === C.Backslash || c < C.Space || Number.isNaN(c)) return this.escapedString(start);
      this.i++;
    }
    const text = s.slice(start, this.i++);
    return this.surrogates && HAS_SURROGATE.test(text) ? text.replace(LONE_SURROGATE, "\ufffd") : text;
  }

  /** The rest of a string that holds escapes (or is not JSON), from `start`. */
  private escapedString(start: number): string {
    const s = this.s;
    let out = "";
    let from = start;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === C.Quote) break;
      if (c < C.Space || Number.isNaN(c)) throw NOT_JSON;
      if (c !== C.Backslash) {
        this.i++;
        continue;
      }
      out += s.slice(from, this.i);
      const e = s[this.i + 1];
      if (e === "u") {
        const hex = s.slice(this.i + 2, this.i + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw NOT_JSON;
        out += String.fromCharCode(parseInt(hex, 16));
        this.i += 6;
      } else {
        const x = e === undefined ? undefined : ESCAPES[e];
        if (x === undefined) throw NOT_JSON;
        out += x;
        this.i += 2;
      }
      from = this.i;
    }
    out += s.slice(from, this.i++);
    return this.surrogates && HAS_SURROGATE.test(out) ? out.replace(LONE_SURROGATE, "\ufffd") : out;
  }

  private number(): number | bigint {
    const s = this.s;
    const start = this.i;
    if (s.charCodeAt(this.i) === C.Minus) this.i++;
    const first = s.charCodeAt(this.i);
    if (first === C.Zero) this.i++;
    else if (isDigit(first)) while (isDigit(s.charCodeAt(this.i))) this.i++;
    else throw NOT_JSON;
    let integer = true;
    if (s.charCodeAt(this.i) === C.Dot) {
      integer = false;
      this.i++;
      if (!isDigit(s.charCodeAt(this.i))) throw NOT_JSON;
      while (isDigit(s.charCodeAt(this.i))) this.i++;
    }
    const e = s.charCodeAt(this.i);
    if (e === C.E || e === C.LowerE) {
      integer = false;
      this.i++;
      const sign = s.charCodeAt(this.i);
      if (sign === C.Plus || sign === C.Minus) this.i++;
      if (!isDigit(s.charCodeAt(this.i))) throw NOT_JSON;
      while (isDigit(s.charCodeAt(this.i))) this.i++;
    }
    return numberOf(s.slice(start, this.i), integer);
  }
}

/**
 * The reading `Reader` stands for, by other means: long integers marked as strings in the text, then
 * `JSON.parse` with a reviver, and every string made valid when the text holds a surrogate escape.
 * Taken for JSON the reader cannot read (nested deeper than its stack).
 */
function reference(text: string, surrogates: boolean): unknown {
  const value = parseNumbers(text);
  return surrogates ? validUnicode(value) : value;
}

const BIG_INTEGER = /"(?:[^"\\]|\\.)*"|-?\d{16,}(?![.eE\d])/g;

/** Every string (and key) with each lone surrogate replaced by U+FFFD, as Go's JSON decoder does. */
function validUnicode(v: unknown): unknown {
  if (typeof v === "string") return v.replace(LONE_SURROGATE, "\ufffd");
  if (Array.isArray(v)) return v.map(validUnicode);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) setOwn(out, k.replace(LONE_SURROGATE, "\ufffd"), validUnicode(x));
    return out;
  }
  return v;
}

function parseNumbers(text: string): unknown {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text);
  const tag = `${Math.random().toString(36).slice(2)}:`;
  const marker = `\u0000${tag}`;
  let found = false;
  const marked = text.replace(BIG_INTEGER, (m) => {
    if (m.startsWith('"')) return m;
    const n = numberOf(m, true);
    if (typeof n === "number") return m;
    found = true;
    return `"\\u0000${tag}${m}"`;
  });
  if (!found) return JSON.parse(text);
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === "string" && value.startsWith(marker) ? BigInt(value.slice(marker.length)) : value,
  );
}

/** `JSON.stringify`, with a `bigint` written as the integer it is. */
export function stringifyJson(value: unknown): string {
  let big = false;
  const plain = JSON.stringify(value, (_k, x: unknown) => {
    if (typeof x !== "bigint") return x;
    big = true;
    return 0;
  });
  if (plain === undefined) throw new TypeError("stringifyJson: the value has no JSON text");
  if (!big) return plain;
  // A marker for the bigints that no string of the value holds (as JSON text writes it).
  let n = 0;
  let tag: string;
  do tag = `\u0000${n++}:`;
  while (plain.includes(JSON.stringify(tag).slice(1, -1)));
  const marked = JSON.stringify(value, (_k, x: unknown) => (typeof x === "bigint" ? `${tag}${x}` : x));
  const quoted = JSON.stringify(tag).slice(1, -1).replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
  return marked.replace(new RegExp(`"${quoted}(-?\\d+)"`, "g"), "$1");
}
