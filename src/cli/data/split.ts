/**
 * An incremental splitter of JSON text into items, so that data of any size streams through in
 * constant memory (apart from the largest item):
 *
 * - a JSON array (`[` first): its elements;
 * - anything else: a sequence of JSON values separated by whitespace, i.e. JSON lines (one value a
 *   line), but also pretty-printed values one after another.
 *
 * It finds where each item starts and ends (strings, escapes and nesting are tracked); it does not
 * validate the item (the JSON parser does that). Structure errors (a missing comma, text after the
 * array, an unterminated item) are `DataError`s with the line and column of the data.
 */

import { C } from "../../json-chars.js";

/** One item's text, with its 0-based index and where it starts in the data. */
export interface RawItem {
  readonly text: string;
  readonly index: number;
  readonly line: number;
  readonly column: number;
}

/** The data is not a JSON array or a sequence of JSON values. */
export class DataError extends Error {
  override readonly name = "DataError";
  constructor(
    readonly summary: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${summary} at line ${line}, column ${column}`);
  }
}

const isSpace = (c: number) => c === C.Space || c === C.LF || c === C.CR || c === C.Tab || c === 0xfeff;

/** Ends a top-level scalar (`123`, `true`, `null`). */
const endsScalar = (c: number) =>
  isSpace(c) || c === C.Comma || c === C.CloseBracket || c === C.CloseBrace || c === C.OpenBracket || c === C.OpenBrace || c === C.Quote;

export class JsonItemSplitter {
  private mode: "start" | "array" | "sequence" = "start";
  /** In an array: what may come next outside an item. */
  private expect: "first" | "value" | "separator" | "end" = "first";
  private inItem = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private scalar = false;
  /** Text of the current item from earlier chunks. */
  private pending = "";
  private itemLine = 0;
  private itemColumn = 0;
  private line = 1;
  private column = 0;
  private count = 0;

  /** The number of items found so far. */
  get items(): number {
    return this.count;
  }

  /** Feeds the next piece of text; calls `emit` for each item it completes. */
  push(chunk: string, emit: (item: RawItem) => void): void {
    let start = 0;
    const n = chunk.length;
    for (let i = 0; i < n; i++) {
      const c = chunk.charCodeAt(i);
      if (c === C.LF) {
        this.line++;
        this.column = 0;
      } else {
        this.column++;
      }
      if (this.inItem) {
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (c === C.Backslash) this.escaped = true;
          else if (c === C.Quote) {
            this.inString = false;
            if (this.depth === 0) emit(this.finish(chunk, start, i + 1));
          }
          continue;
        }
        if (this.scalar) {
          if (!endsScalar(c)) continue;
          emit(this.finish(chunk, start, i));
          // The terminator is read again as structure below.
        } else {
          if (c === C.Quote) this.inString = true;
          else if (c === C.OpenBrace || c === C.OpenBracket) this.depth++;
          else if (c === C.CloseBrace || c === C.CloseBracket) {
            if (--this.depth === 0) emit(this.finish(chunk, start, i + 1));
          }
          continue;
        }
      }
      if (isSpace(c)) continue;
      if (this.mode === "start") {
        if (c === C.OpenBracket) {
          this.mode = "array";
          continue;
        }
        this.mode = "sequence";
      }
      if (this.mode === "array") {
        if (this.expect === "end") throw this.error("unexpected text after the end of the array (for JSON lines, write one value a line without [ ])");
        if (this.expect === "separator") {
          if (c === C.Comma) this.expect = "value";
          else if (c === C.CloseBracket) this.expect = "end";
          else throw this.error(`expected "," or "]" after item ${this.count - 1} of the array`);
          continue;
        }
        if (c === C.CloseBracket) {
          if (this.expect === "first") this.expect = "end";
          else throw this.error(`expected an item after ","`);
          continue;
        }
        if (c === C.Comma) throw this.error("expected an item, found \",\"");
      }
      start = i;
      this.begin(c);
    }
    if (this.inItem) this.pending += chunk.slice(start);
  }

  /** Signals the end of the data; emits a last scalar item or throws for unfinished structure. */
  end(emit: (item: RawItem) => void): void {
    if (this.inItem) {
      if (this.scalar) emit(this.finish("", 0, 0));
      else throw new DataError(`item ${this.count} is not finished when the data ends`, this.itemLine, this.itemColumn);
    }
    if (this.mode === "array" && this.expect !== "end") throw this.error('the data ends before the "]" that closes the array');
  }

  private begin(c: number): void {
    this.inItem = true;
    this.itemLine = this.line;
    this.itemColumn = this.column;
    this.pending = "";
    this.depth = c === C.OpenBrace || c === C.OpenBracket ? 1 : 0;
    this.inString = c === C.Quote;
    this.escaped = false;
    this.scalar = this.depth === 0 && !this.inString;
  }

  private finish(chunk: string, start: number, end: number): RawItem {
    const text = this.pending === "" ? chunk.slice(start, end) : this.pending + chunk.slice(start, end);
    this.pending = "";
    this.inItem = false;
    this.scalar = false;
    if (this.mode === "array") this.expect = "separator";
    return { text, index: this.count++, line: this.itemLine, column: this.itemColumn };
  }

  private error(summary: string): DataError {
    return new DataError(summary, this.line, this.column);
  }
}
