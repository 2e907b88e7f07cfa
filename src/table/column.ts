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

export class Column {
  /** The code of each row (the first `length` entries are in use). */
  codes: Int32Array;
  /** Changes when codes are renumbered: answers kept per code are void. */
  generation = 0;
  private strings = new Map<string, number>();
  private numbers = new Map<number, number>();
  private bigints = new Map<bigint, number>();
  /** Everything else: fixed scalars, walk failures, composite values by their keys. */
  private others = new Map<string, number>();
  private next = 0;
  private composites = 0;
  private compositeChars = 0;

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
    return this.next;
  }

  /** Bytes held, roughly: the codes, the dictionary's entries and the composite values' keys. */
  get bytes(): number {
    return this.codes.byteLength + 48 * this.next + 2 * this.compositeChars;
  }

  private coded<K>(map: Map<K, number>, key: K): number {
    let code = map.get(key);
    if (code === undefined) {
      code = this.next++;
      map.set(key, code);
    }
    return code;
  }

  private code(row: unknown, rows: number): number {
    const keys = this.keys;
    let v = row;
    for (let i = 0; i < keys.length; i++) {
      if (typeof v !== "object" || v === null) return this.coded(this.others, `x${i}${v === null ? "null" : typeof v}`);
      if (Array.isArray(v)) return NO_CODE;
      const k = keys[i]!;
      if (!hasOwn.call(v, k)) return this.coded(this.others, `m${i}`);
      v = (v as Record<string, unknown>)[k];
    }
    switch (typeof v) {
      case "string":
        return this.coded(this.strings, v);
      case "number":
        return Object.is(v, -0) ? this.coded(this.others, "-0") : this.coded(this.numbers, v);
      case "bigint":
        return this.coded(this.bigints, v);
      case "boolean":
        return this.coded(this.others, v ? "t" : "f");
      case "undefined":
        return this.coded(this.others, "u");
      case "object": {
        if (v === null) return this.coded(this.others, "n");
        // Lists and maps share answers only while they repeat: past a bound of distinct ones (rows
        // whose maps all differ), new ones are evaluated by themselves.
        if (this.composites > 1024 + rows / 8) return NO_CODE;
        const key = this.mapsByKeys && !Array.isArray(v) ? keySetKey(v) : compositeKey(v);
        if (key === undefined) return NO_CODE;
        const before = this.next;
        const code = this.coded(this.others, key);
        if (this.next > before) {
          this.composites++;
          this.compositeChars += key.length;
        }
        return code;
      }
      default:
        return NO_CODE;
    }
  }

  private encodeAll(rows: readonly unknown[]): void {
    this.strings = new Map();
    this.numbers = new Map();
    this.bigints = new Map();
    this.others = new Map();
    this.next = 0;
    this.composites = 0;
    this.compositeChars = 0;
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
    if (this.next > 2 * rows.length + 1024) this.encodeAll(rows);
  }
}
