/**
 * Where one array of a JSON document lies in its bytes, element by element, found without building
 * anything: lets a `--data` file of a million jobs be read one job at a time, so that no parse of the
 * whole file ever lives beside the state made from it.
 *
 * The scan only finds boundaries. Every piece it finds is still parsed with `JSON.parse`, and whatever
 * the scan does not expect makes it give up (`undefined`), so that the caller reads the document whole
 * and gets `JSON.parse`'s own answer or error.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;

/** The elements of the array, each an object, with the string values of some of its fields. */
export interface ArraySpans {
  /** Each element's first byte and the byte past its end. */
  readonly starts: readonly number[];
  readonly ends: readonly number[];
  /** For each field asked for, each element's value of it when that is a string (the last, when a key repeats, as `JSON.parse` keeps). */
  readonly fields: readonly (readonly (string | undefined)[])[];
  /** How deep each element nests objects and arrays (the element itself is level 1). */
  readonly depths: readonly number[];
}

export interface SplitDocument {
  /** The document's text with the array replaced by `[]`: everything else, for `JSON.parse`. */
  readonly rest: string;
  readonly array: ArraySpans;
}

/** Thrown inside the scan when it meets what it does not expect. */
const GIVE_UP = Symbol("give up");

const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** A member's reader: called with the scan at the value, it goes past it. */
type Reader = () => void;

class Scanner {
  i = 0;
  /** The deepest nesting `value` met since it was last reset (a value's own object or array is level 1). */
  deepest = 0;

  constructor(readonly b: Buffer) {}

  skipSpace(): number | undefined {
    const b = this.b;
    while (isSpace(b[this.i])) this.i++;
    return b[this.i];
  }

  /** Past the string that opens at `i` (a quote ends it unless an odd run of backslashes escapes it). */
  string(): void {
    const b = this.b;
    let at = this.i + 1;
    for (;;) {
      const q = b.indexOf(QUOTE, at);
      if (q < 0) throw GIVE_UP;
      let backslashes = 0;
      while (b[q - 1 - backslashes] === BACKSLASH) backslashes++;
      at = q + 1;
      if (backslashes % 2 === 0) break;
    }
    this.i = at;
  }

  /** Whether the string from `start` (its opening quote) to `i` holds an escape. */
  private escaped(start: number): boolean {
    for (let k = start + 1; k < this.i - 1; k++) if (this.b[k] === BACKSLASH) return true;
    return false;
  }

  /** The string from `start` (its opening quote) to `i`, decoded. */
  decode(start: number): string {
    return this.escaped(start) ? (JSON.parse(this.b.toString("utf8", start, this.i)) as string) : this.b.toString("utf8", start + 1, this.i - 1);
  }

  /** Whether the string from `start` (its opening quote) to `i` is `name` (given as its UTF-8 bytes). */
  is(name: Buffer, start: number): boolean {
    if (this.i - start - 2 === name.length) {
      let same = true;
      for (let k = 0; k < name.length && same; k++) same = this.b[start + 1 + k] === name[k];
      if (same) return true;
    }
    return this.escaped(start) && this.decode(start) === name.toString("utf8");
  }

  /** Past the value that starts at `i` (its syntax is left to `JSON.parse`). */
  value(): void {
    const b = this.b;
    const first = b[this.i];
    if (first === QUOTE) {
      this.string();
      return;
    }
    if (first !== OPEN_OBJECT && first !== OPEN_ARRAY) {
      while (this.i < b.length) {
        const c = b[this.i];
        if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || isSpace(c)) return;
        this.i++;
      }
      return;
    }
    let depth = 0;
    while (this.i < b.length) {
      const c = b[this.i];
      if (c === QUOTE) {
        this.string();
        continue;
      }
      this.i++;
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (++depth > this.deepest) this.deepest = depth;
      } else if ((c === CLOSE_OBJECT || c === CLOSE_ARRAY) && --depth === 0) return;
    }
    throw GIVE_UP;
  }

  /**
   * The members of the object that opens at `i`: `member(start)` is called with the scan past each
   * key, which opens at `start` (see `is`), and gives the value's reader, or undefined to skip it.
   */
  object(member: (start: number) => Reader | undefined): void {
    this.i++;
    if (this.skipSpace() === CLOSE_OBJECT) {
      this.i++;
      return;
    }
    for (;;) {
      if (this.b[this.i] !== QUOTE) throw GIVE_UP;
      const start = this.i;
      this.string();
      const read = member(start);
      if (this.skipSpace() !== COLON) throw GIVE_UP;
      this.i++;
      this.skipSpace();
      if (read === undefined) this.value();
      else read();
      const next = this.skipSpace();
      this.i++;
      if (next === CLOSE_OBJECT) return;
      if (next !== COMMA) throw GIVE_UP;
      this.skipSpace();
    }
  }

  /** The array that opens at `i`, its elements objects, with the string values of `names`. */
  array(names: readonly string[]): ArraySpans {
    const starts: number[] = [];
    const ends: number[] = [];
    const depths: number[] = [];
    const fields = names.map((): (string | undefined)[] => []);
    // One reader per field: the element's value when it is a string, else undefined.
    const readers = fields.map((values): Reader => () => {
      const start = this.i;
      const isString = this.b[start] === QUOTE;
      this.value();
      values[values.length - 1] = isString ? this.decode(start) : undefined;
    });
    const bytes = names.map((name) => Buffer.from(name, "utf8"));
    const member = (start: number): Reader | undefined => {
      for (let f = 0; f < bytes.length; f++) if (this.is(bytes[f]!, start)) return readers[f];
      return undefined;
    };
    this.i++;
    if (this.skipSpace() === CLOSE_ARRAY) {
      this.i++;
      return { starts, ends, fields, depths };
    }
    for (;;) {
      if (this.b[this.i] !== OPEN_OBJECT) throw GIVE_UP;
      starts.push(this.i);
      for (const values of fields) values.push(undefined);
      this.deepest = 0;
      this.object(member);
      ends.push(this.i);
      // The element's object, and the deepest of its members' values within it.
      depths.push(1 + this.deepest);
      const next = this.skipSpace();
      this.i++;
      if (next === CLOSE_ARRAY) return { starts, ends, fields, depths };
      if (next !== COMMA) throw GIVE_UP;
      this.skipSpace();
    }
  }
}

/**
 * The document in `bytes` (UTF-8) split around the array that is the value of its top-level object's
 * member `member` (the last such member, as `JSON.parse` keeps), or around the document itself when
 * it is an array (`rest` is then `[]`), with the string values of `fields` in each element. Undefined
 * when the document is neither an array of objects nor an object with that member holding one, or
 * when the scan meets anything it does not expect: read the document whole then.
 */
export function splitArrayMember(bytes: Buffer, member: string, fields: readonly string[]): SplitDocument | undefined {
  const s = new Scanner(bytes);
  const name = Buffer.from(member, "utf8");
  let found: { start: number; end: number; array: ArraySpans } | undefined;
  const read: Reader = () => {
    const start = s.i;
    if (bytes[start] !== OPEN_ARRAY) {
      // The last member of that name is not an array: the document is read whole.
      found = undefined;
      s.value();
      return;
    }
    const array = s.array(fields);
    found = { start, end: s.i, array };
  };
  try {
    const first = s.skipSpace();
    if (first === OPEN_ARRAY) read();
    else if (first === OPEN_OBJECT) s.object((start) => (s.is(name, start) ? read : undefined));
    else return undefined;
    if (s.skipSpace() !== undefined) return undefined;
  } catch (e) {
    if (e === GIVE_UP || e instanceof SyntaxError) return undefined;
    throw e;
  }
  if (found === undefined) return undefined;
  return { rest: `${bytes.toString("utf8", 0, found.start)}[]${bytes.toString("utf8", found.end)}`, array: found.array };
}
