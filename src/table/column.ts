/**
 * A column: for one selector path, each row's code, the number of where the path's walk over the row
 * ends, equal for two rows exactly when every test of that selector must answer them alike (a test
 * reads nothing of a row but own properties along its keys): the value reached (strings, numbers,
 * bigints by value; -0, booleans, null, undefined apart; lists and maps by contents, `keys.ts`), a key
 * missing at step i, or a scalar met at step i (whose value no step reads). -1 marks rows evaluated by
 * themselves: the walk met a list (indexes and lengths shape its errors), or the value has no key.
 *
 * Codes are never reused, so an answer kept for a code stays true while the column lives; a column
 * whose dictionary outgrows its rows is rebuilt under a new generation (kept answers are dropped).
 */
import { compositeKey, keySetKey } from "./keys.js";

/** No code: the row is evaluated by itself. */
export const NO_CODE = -1;

const hasOwn = Object.prototype.hasOwnProperty;

/** The codes given so far, by what they code. */
interface Dictionary {
  readonly strings: Map<string, number>;
  readonly numbers: Map<number, number>;
  readonly bigints: Map<bigint, number>;
  /** Everything else: fixed scalars, walk failures, composite values by their keys. */
  readonly others: Map<string, number>;
  /** The next code. */
  next: number;
  /** Distinct composite values coded, and the length of their keys. */
  composites: number;
  compositeChars: number;
}

const emptyDictionary = (): Dictionary => ({ strings: new Map(), numbers: new Map(), bigints: new Map(), others: new Map(), next: 0, composites: 0, compositeChars: 0 });

export class Column {
  /** The code of each row (the first `length` entries are in use). */
  codes: Int32Array;
  /** Changes when codes are renumbered: answers kept per code are void. */
  generation = 0;
  private dictionary = emptyDictionary();

  /**
   * `mapsByKeys`: the column serves only tests that read nothing of a map but its keys (`in`, `is
   * empty`, `is nil`), so maps are coded by their key sets and share far more.
   */
  constructor(
    readonly keys: readonly string[],
    rows: readonly unknown[],
    readonly mapsByKeys = false,
  ) {
    this.codes = new Int32Array(Math.max(16, rows.length));
    this.encodeAll(rows);
  }

  /** Codes given so far (every code in use is below this). */
  get size(): number {
    return this.dictionary.next;
  }

  /** Bytes held, roughly: the codes, the dictionary's entries and the composite values' keys. */
  get bytes(): number {
    return this.codes.byteLength + 48 * this.dictionary.next + 2 * this.dictionary.compositeChars;
  }

  private coded<K>(map: Map<K, number>, key: K): number {
    let code = map.get(key);
    if (code === undefined) {
      code = this.dictionary.next++;
      map.set(key, code);
    }
    return code;
  }

  private code(row: unknown, rows: number): number {
    const keys = this.keys;
    const d = this.dictionary;
    let v = row;
    for (let i = 0; i < keys.length; i++) {
      if (typeof v !== "object" || v === null) return this.coded(d.others, `x${i}${v === null ? "null" : typeof v}`);
      if (Array.isArray(v)) return NO_CODE;
      const k = keys[i]!;
      if (!hasOwn.call(v, k)) return this.coded(d.others, `m${i}`);
      v = (v as Record<string, unknown>)[k];
    }
    switch (typeof v) {
      case "string":
        return this.coded(d.strings, v);
      case "number":
        return Object.is(v, -0) ? this.coded(d.others, "-0") : this.coded(d.numbers, v);
      case "bigint":
        return this.coded(d.bigints, v);
      case "boolean":
        return this.coded(d.others, v ? "t" : "f");
      case "undefined":
        return this.coded(d.others, "u");
      case "object": {
        if (v === null) return this.coded(d.others, "n");
        // Lists and maps share answers only while they repeat: past a bound of distinct ones (rows
        // whose maps all differ), new ones are evaluated by themselves.
        if (d.composites > 1024 + rows / 8) return NO_CODE;
        const key = this.mapsByKeys && !Array.isArray(v) ? keySetKey(v) : compositeKey(v);
        if (key === undefined) return NO_CODE;
        const before = d.next;
        const code = this.coded(d.others, key);
        if (d.next > before) {
          d.composites++;
          d.compositeChars += key.length;
        }
        return code;
      }
      default:
        return NO_CODE;
    }
  }

  private encodeAll(rows: readonly unknown[]): void {
    this.dictionary = emptyDictionary();
    this.generation++;
    if (this.codes.length < rows.length) this.codes = new Int32Array(rows.length);
    for (let i = 0; i < rows.length; i++) this.codes[i] = this.code(rows[i], rows.length);
  }

  /** Row `i` now holds `row`; `rows` is the whole list after the change (for a rebuild). */
  set(i: number, row: unknown, rows: readonly unknown[]): void {
    this.codes[i] = this.code(row, rows.length);
    this.compact(rows);
  }

  /** `row` was inserted as row `i` of `rows` (the rows from `i` on moved down one). */
  insert(i: number, row: unknown, rows: readonly unknown[]): void {
    if (rows.length > this.codes.length) {
      const grown = new Int32Array(Math.max(16, this.codes.length * 2));
      grown.set(this.codes);
      this.codes = grown;
    }
    this.codes.copyWithin(i + 1, i, rows.length - 1);
    this.codes[i] = this.code(row, rows.length);
    this.compact(rows);
  }

  /** Row `i` was removed (the rows after it moved up); `length` is the new number of rows. */
  delete(i: number, length: number): void {
    this.codes.copyWithin(i, i + 1, length + 1);
  }

  /** Rebuilds the dictionary once it holds far more codes than there are rows (after many changes). */
  private compact(rows: readonly unknown[]): void {
    if (this.dictionary.next > 2 * rows.length + 1024) this.encodeAll(rows);
  }
}
