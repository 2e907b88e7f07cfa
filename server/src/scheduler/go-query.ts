/**
 * Query strings read as the scheduler's Go server reads them (`url.ParseQuery`, which
 * `req.URL.Query()` calls), in one pass over the text: a head may hold a megabyte of query string in
 * any shape (a million `&`, a megabyte of `+` or of `%41`), and each costs about as much as reading
 * its characters once, plus what the pairs it holds cost to keep.
 */

/** The value of each hex digit's character code, -1 for any other. */
const HEX = new Int8Array(128).fill(-1);
for (let c = 0; c < 10; c++) HEX[0x30 + c] = c;
for (let c = 0; c < 6; c++) HEX[0x41 + c] = HEX[0x61 + c] = 10 + c;

const PERCENT = 0x25;
const PLUS = 0x2b;
const SEMICOLON = 0x3b;
const EQUALS = 0x3d;

/** What a component holds besides plain characters: `%` escapes, `+`, characters past ASCII. */
const HAS_PERCENT = 1;
const HAS_PLUS = 2;
const HAS_WIDE = 4;

/** Bytes decoded components are written to (a longer component gets a buffer of its own). */
const scratch = Buffer.allocUnsafe(4096);

/** The flags of `text[from, to)`: see `HAS_PERCENT`. */
function flagsOf(text: string, from: number, to: number): number {
  let flags = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === PERCENT) flags |= HAS_PERCENT;
    else if (c === PLUS) flags |= HAS_PLUS;
    else if (c > 0x7f) flags |= HAS_WIDE;
  }
  return flags;
}

/**
 * `text[from, to)` decoded as Go's `url.QueryUnescape` decodes a component (`flags`: what it holds,
 * `flagsOf`): `+` is a space and every `%` must start two hex digits (else undefined). The decoded
 * bytes are read as UTF-8 (a sequence that is not UTF-8 reads as U+FFFD; Go keeps the raw bytes); a
 * character past ASCII stands for its UTF-8.
 */
function unescapeRange(text: string, from: number, to: number, flags: number): string | undefined {
  if ((flags & (HAS_PERCENT | HAS_PLUS)) === 0) return from === 0 && to === text.length ? text : text.slice(from, to);
  if ((flags & HAS_WIDE) !== 0) return unescapeWide(text.slice(from, to));
  const out = to - from <= scratch.length ? scratch : Buffer.allocUnsafe(to - from);
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === PERCENT) {
      const high = i + 2 < to ? (HEX[text.charCodeAt(i + 1)] ?? -1) : -1;
      const low = high < 0 ? -1 : (HEX[text.charCodeAt(i + 2)] ?? -1);
      if (low < 0) return undefined;
      out[n++] = (high << 4) | low;
      i += 2;
    } else out[n++] = c === PLUS ? 0x20 : c;
  }
  return out.toString((flags & HAS_PERCENT) === 0 ? "latin1" : "utf8", 0, n);
}

/** `unescapeRange` of a component that holds characters past ASCII (not in a request line: rare). */
function unescapeWide(text: string): string | undefined {
  const source = Buffer.from(text, "utf8");
  const out = Buffer.allocUnsafe(source.length);
  let n = 0;
  for (let i = 0; i < source.length; i++) {
    const b = source[i] as number;
    if (b === PERCENT) {
      const high = i + 2 < source.length ? (HEX[source[i + 1] as number] ?? -1) : -1;
      const low = high < 0 ? -1 : (HEX[source[i + 2] as number] ?? -1);
      if (low < 0) return undefined;
      out[n++] = (high << 4) | low;
      i += 2;
    } else out[n++] = b === PLUS ? 0x20 : b;
  }
  return out.toString("utf8", 0, n);
}

/**
 * One component of a query string decoded as Go's `url.QueryUnescape` decodes it: `+` is a space and
 * every `%` must start two hex digits (else undefined: the scheduler drops the pair). The decoded bytes
 * are read as UTF-8; a byte sequence that is not UTF-8 reads as U+FFFD (Go would keep the raw bytes).
 */
export function queryUnescape(text: string): string | undefined {
  return unescapeRange(text, 0, text.length, flagsOf(text, 0, text.length));
}

/**
 * Where the next `c` is in `text` at or after `from` (`text.length` when there is none), remembered:
 * asked at positions that only grow, each character is looked at once in all.
 */
class Next {
  private at = -1;

  constructor(
    private readonly text: string,
    private readonly c: string,
  ) {}

  from(from: number): number {
    if (this.at < from) {
      const found = this.text.indexOf(this.c, from);
      this.at = found < 0 ? this.text.length : found;
    }
    return this.at;
  }
}

/**
 * The query string as the scheduler reads it (Go's `url.ParseQuery`, which `req.URL.Query()` calls):
 * pairs separated by `&`, the key before the first `=`; a pair holding `;` or a malformed `%` escape in
 * its key or value is dropped and the other pairs are kept, as Go drops them. A repeated key gives its
 * values in order (an array). Fastify's `querystringParser` on both listeners, so that every parameter
 * of every route is read alike.
 */
export function parseGoQuery(text: string): Record<string, string | string[]> {
  const out = Object.create(null) as Record<string, string | string[]>;
  // Each special character is searched for once over the whole text (native searches), not per pair.
  const amp = new Next(text, "&");
  const semicolon = new Next(text, ";");
  const equals = new Next(text, "=");
  const percent = new Next(text, "%");
  const plus = new Next(text, "+");
  // A character past ASCII (never in a request line) takes more than one byte in UTF-8.
  const wide = Buffer.byteLength(text, "utf8") !== text.length;
  /** What `text[from, to)` holds (`flagsOf`), from the searches. */
  const flags = (from: number, to: number): number =>
    wide ? flagsOf(text, from, to) : (percent.from(from) < to ? HAS_PERCENT : 0) | (plus.from(from) < to ? HAS_PLUS : 0);
  for (let start = 0; start < text.length; ) {
    const end = amp.from(start);
    if (end > start && semicolon.from(start) >= end) {
      const eq = equals.from(start);
      const keyEnd = eq < end ? eq : end;
      const key = unescapeRange(text, start, keyEnd, flags(start, keyEnd));
      const value = eq < end ? unescapeRange(text, eq + 1, end, flags(eq + 1, end)) : "";
      if (key !== undefined && value !== undefined) {
        const previous = out[key];
        if (previous === undefined) out[key] = value;
        else if (Array.isArray(previous)) previous.push(value);
        else out[key] = [previous, value];
      }
    }
    start = end + 1;
  }
  return out;
}
