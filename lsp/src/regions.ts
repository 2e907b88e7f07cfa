/**
 * Where the filters of a document are: each a `Region`, its text as the library reads it and the way
 * back from an offset of that text to an offset of the document.
 *
 * - A filter file (`.filter`, `.bexpr`, language id `filter-expr`): one expression a line; blank lines
 *   and lines whose first non-blank character is `#` are skipped (as `filter-check --file` reads them).
 * - Any other document: a string literal marked by `filter-expr:` or `bexpr:` (usually in a comment):
 *   the first string literal that starts after the marker on its line, else the last one that ends
 *   before it on its line (a trailing comment), else the first one on the next line. An optional word after the marker (`job`, `deployment`, `json`) picks the schema of that
 *   filter. The literal is `"…"`, `'…'` or `` `…` `` closed on the same line; in the first two, `\\`,
 *   `\"`, `\'`, `\n`, `\t`, `\r` are read as escapes (and any other `\x` as `x`).
 */

/** One filter of a document. */
export interface Region {
  /** The filter's text, escapes decoded. */
  readonly text: string;
  /** The document offset of each offset of `text` (length `text.length + 1`; the last is the end). */
  readonly offsets: readonly number[];
  /** The schema word of its marker (`job`, `deployment`, `json`), if any. */
  readonly schema?: string;
  /** The string literal's quote (`"`, `'`, `` ` ``), or undefined for a line of a filter file. */
  readonly quote?: string;
  /** The whole line of a filter file, or the document range of a literal's contents. */
  readonly start: number;
  readonly end: number;
}

/** The language id and the file extensions of filter files. */
export const LANGUAGE_ID = "filter-expr";
const EXTENSIONS = /\.(filter|bexpr)$/i;

/** Is the document a filter file? */
export function isFilterFile(uri: string, languageId: string): boolean {
  return languageId === LANGUAGE_ID || EXTENSIONS.test(uri);
}

/** The filters of a document. `emptyLines`: also the blank lines of a filter file (completion there starts a filter). */
export function regionsOf(text: string, filterFile: boolean, emptyLines = false): Region[] {
  return filterFile ? lineRegions(text, emptyLines) : markedRegions(text);
}

/** Line starts and ends (without the line break) of `text`. */
function lines(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf("\n", start);
    const stop = nl < 0 ? text.length : nl;
    out.push({ start, end: stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop });
    if (nl < 0) return out;
    start = nl + 1;
  }
}

function identity(start: number, length: number): number[] {
  const offsets = new Array<number>(length + 1);
  for (let i = 0; i <= length; i++) offsets[i] = start + i;
  return offsets;
}

function lineRegions(text: string, emptyLines: boolean): Region[] {
  const out: Region[] = [];
  for (const { start, end } of lines(text)) {
    const line = text.slice(start, end);
    const trimmed = line.trim();
    if (trimmed.startsWith("#")) continue;
    if (trimmed === "" && !emptyLines) continue;
    out.push({ text: line, offsets: identity(start, line.length), start, end });
  }
  return out;
}

const MARKER = /(?:filter-expr|bexpr):(?:[ \t]*(job|deployment|json)\b)?/g;
const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r" };

function markedRegions(text: string): Region[] {
  const out: Region[] = [];
  const all = lines(text);
  for (let l = 0; l < all.length; l++) {
    const { start, end } = all[l]!;
    const line = text.slice(start, end);
    MARKER.lastIndex = 0;
    const m = MARKER.exec(line);
    if (m === null) continue;
    const schema = m[1];
    const after = start + m.index + m[0].length;
    const next = all[l + 1];
    const found = literalIn(text, after, end) ?? lastLiteralIn(text, start, start + m.index) ?? (next === undefined ? undefined : literalIn(text, next.start, next.end));
    if (found !== undefined) out.push(schema === undefined ? found : { ...found, schema });
  }
  return out;
}

/** The first closed string literal starting in `[from, to)` of `text`. */
function literalIn(text: string, from: number, to: number): Region | undefined {
  for (let i = from; i < to; i++) {
    const q = text[i];
    if (q !== '"' && q !== "'" && q !== "`") continue;
    let decoded = "";
    const offsets: number[] = [];
    let j = i + 1;
    for (; j < to && text[j] !== q; j++) {
      offsets.push(j);
      if (q !== "`" && text[j] === "\\" && j + 1 < to) {
        const c = text[j + 1]!;
        decoded += ESCAPES[c] ?? c;
        j++;
      } else decoded += text[j];
    }
    if (j >= to) return undefined; // not closed on this line
    offsets.push(j);
    return { text: decoded, offsets, quote: q, start: i + 1, end: j };
  }
  return undefined;
}

/** The last closed string literal in `[from, to)` of `text`. */
function lastLiteralIn(text: string, from: number, to: number): Region | undefined {
  let last: Region | undefined;
  for (let found = literalIn(text, from, to); found !== undefined; found = literalIn(text, found.end + 1, to)) last = found;
  return last;
}

/** The document offset of `offset` of the region's text. */
export function toDocument(region: Region, offset: number): number {
  return region.offsets[Math.max(0, Math.min(offset, region.text.length))]!;
}

/** The offset of the region's text at a document offset inside it (or undefined outside it). */
export function fromDocument(region: Region, docOffset: number): number | undefined {
  if (docOffset < region.start || docOffset > region.end) return undefined;
  const o = region.offsets;
  // The last text offset whose document offset is at or before docOffset (offsets ascend).
  let lo = 0;
  let hi = o.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (o[mid]! <= docOffset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Text to put into the region's document text for `insert` (an edit's text): as is in a filter file
 * or a `` ` `` literal, escaped for a `"` or `'` literal; undefined where it cannot be written (a
 * backquote or a line break into a `` ` `` literal).
 */
export function encode(region: Region, insert: string): string | undefined {
  if (region.quote === undefined) return insert.includes("\n") ? undefined : insert;
  if (region.quote === "`") return /[`\n\r]/.test(insert) ? undefined : insert;
  const q = region.quote;
  return insert.replace(/[\\\n\t\r]|["']/g, (c) => (c === "\\" ? "\\\\" : c === "\n" ? "\\n" : c === "\t" ? "\\t" : c === "\r" ? "\\r" : c === q ? `\\${c}` : c));
}
