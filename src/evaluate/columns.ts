/**
 * Columns for batch evaluation (`batch.ts`): the value a path of keys reaches in each selected item,
 * read through plain objects only (see `fast.ts`); `NOT_PLAIN` where the path meets anything else.
 * The keys the built-in schemas name are read by steps of their own (`column-steps.ts`).
 */
import { COLUMN_STEPS, NOT_PLAIN, type ColumnStep } from "./generated/column-steps.js";

export { NOT_PLAIN };

const OBJECT_PROTO = Object.prototype;
type Rec = Record<string, unknown>;

/**
 * The step of any other key. Its reads see every such key's objects (map values, JSON), so they soon
 * see too many shapes for V8 to fold the `__proto__` accessor; `Object.getPrototypeOf` then costs about
 * half as much (measured: 10 ns against 18 ns an item).
 */
function keyStep(key: string): ColumnStep {
  return (col, n) => {
    for (let i = 0; i < n; i++) {
      const v = col[i];
      col[i] = v != null && Object.getPrototypeOf(v) === OBJECT_PROTO ? (v as Rec)[key] : NOT_PLAIN;
    }
  };
}

/** Reads a path of keys into a column. */
export type ColumnReader = (items: ArrayLike<unknown>, sel: Int32Array, n: number) => unknown[];

/** The reader of `keys`: the values they reach in `items[sel[i]]`, for `i` below `n` (`undefined` where the last key is absent). */
export function columnReader(keys: readonly string[]): ColumnReader {
  const steps = keys.map((k) => COLUMN_STEPS.get(k) ?? keyStep(k));
  return (items, sel, n) => {
    const col = new Array<unknown>(n);
    for (let i = 0; i < n; i++) col[i] = items[sel[i]!];
    for (let s = 0; s < steps.length; s++) steps[s]!(col, n);
    return col;
  };
}
