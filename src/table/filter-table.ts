/**
 * `FilterTable`: a held list kept with columns beside its rows, filtered by deciding each part of a
 * filter once per distinct value instead of once per row (see `plan.ts`), with exactly the answers and
 * errors of `filter.filter(items)`.
 */
import type { Filter } from "../evaluate/filter.js";
import { settingsOf } from "../evaluate/settings.js";
import type { Schema } from "../semantics/schema.js";
import { Column } from "./column.js";
import { ERROR, TRUE, bindPlan, evaluateRange, planFilter, type PlanNode } from "./plan.js";

const columnName = (keys: readonly string[], mapsByKeys: boolean): string => `${mapsByKeys ? "k" : "v"}${JSON.stringify(keys)}`;

/** Options of `FilterTable.from`. */
export interface FilterTableOptions {
  /** The record type of the rows: its scalar fields get their columns at once. */
  schema?: Schema;
  /** Selector paths (as keys: `["JobSummary", "Summary"]`) that get their columns at once. */
  columns?: readonly (readonly string[])[];
  /**
   * Whether a path a filter reads gets its column the first time (default true), built then over
   * every row. False: only the columns of `schema` and `columns` exist (a server that must not
   * spend a request on building one); parts over other paths run row by row.
   */
  autoColumns?: boolean;
  /** Columns built on first use at most (default 64); parts over further paths run row by row. */
  maxColumns?: number;
}

/**
 * A list held for filtering. Each selector path a filter reads outside `any`/`all` gets a column (4
 * bytes a row, and one dictionary entry per distinct value), built the first time it is read and
 * kept current by `set`, `push`, `insert` and `delete`. `filter(f)` answers exactly as `f.filter(items)`: the
 * same items in the same order, or the same error (that of the first row, in list order, that fails).
 *
 * Rows are read, never copied: change a row only through `set` (a row changed in place leaves its
 * columns stale). Parts of a filter that have no columnar form (`any`/`all`, values reached through a
 * list, values that are not plain data) are evaluated row by row on the rows still in play; a filter
 * compiled with `maxSteps` runs row by row (its budget is per row).
 */
export class FilterTable<T = unknown> {
  private readonly rows: T[];
  private readonly columns = new Map<string, Column>();
  private readonly plans = new WeakMap<Filter<never>, PlanNode>();
  private changes = 0;
  private readonly view = { rows: [] as readonly unknown[], column: (keys: readonly string[], mapsByKeys: boolean) => this.column(keys, mapsByKeys) };

  private readonly autoColumns: boolean;
  private readonly maxColumns: number;
  /** Columns built on first use so far. */
  private built = 0;

  private constructor(rows: T[], options: FilterTableOptions) {
    this.rows = rows;
    this.view.rows = rows;
    this.autoColumns = options.autoColumns ?? true;
    this.maxColumns = options.maxColumns ?? 64;
  }

  /** A table of `items` (copied into the table's own list; the items themselves are not copied). */
  static from<T>(items: Iterable<T>, options: FilterTableOptions = {}): FilterTable<T> {
    const table = new FilterTable<T>([...items], options);
    const schema = options.schema;
    if (schema?.kind === "record") {
      for (const [name, type] of Object.entries(schema.fields)) {
        if (type.kind === "string" || type.kind === "int" || type.kind === "uint" || type.kind === "float" || type.kind === "bool") table.addColumn([name]);
      }
    }
    for (const keys of options.columns ?? []) table.addColumn(keys);
    return table;
  }

  /** Counts the changes (`set`, `push`, `insert`, `delete`): a matcher made at one version reads that version's rows. */
  get version(): number {
    return this.changes;
  }

  /** The number of rows. */
  get length(): number {
    return this.rows.length;
  }

  /** Row `i`. */
  at(i: number): T | undefined {
    return this.rows[i];
  }

  /** The rows, in order (the table's own list: do not change it). */
  items(): readonly T[] {
    return this.rows;
  }

  /** Bytes the columns hold, roughly (the rows themselves are the caller's). */
  get columnBytes(): number {
    let n = 0;
    for (const c of this.columns.values()) n += c.bytes;
    return n;
  }

  /** Replaces row `i` (0 ≤ i < length). */
  set(i: number, item: T): void {
    this.check(i);
    this.rows[i] = item;
    this.changes++;
    for (const c of this.columns.values()) c.set(i, item, this.rows);
  }

  /** Appends a row; returns the new length. */
  push(item: T): number {
    this.insert(this.rows.length, item);
    return this.rows.length;
  }

  /** Inserts a row before row `i` (0 ≤ i ≤ length; the rows from `i` on move down one). */
  insert(i: number, item: T): void {
    if (i !== this.rows.length) this.check(i);
    this.rows.splice(i, 0, item);
    this.changes++;
    for (const c of this.columns.values()) c.insert(i, item, this.rows);
  }

  /** Removes row `i` (the rows after it move up one). */
  delete(i: number): void {
    this.check(i);
    this.rows.splice(i, 1);
    this.changes++;
    for (const c of this.columns.values()) c.delete(i, this.rows.length);
  }

  private check(i: number): void {
    if (!Number.isInteger(i) || i < 0 || i >= this.rows.length) throw new RangeError(`row ${i} is not in a table of ${this.rows.length}`);
  }

  private addColumn(keys: readonly string[], mapsByKeys = false): Column {
    const column = new Column(keys, this.rows, mapsByKeys);
    this.columns.set(columnName(keys, mapsByKeys), column);
    return column;
  }

  /** The path's column: kept, built now (within the options' bounds), or undefined (row by row). */
  private column(keys: readonly string[], mapsByKeys: boolean): Column | undefined {
    // A column of values serves a part that reads only keys too (its codes are finer).
    const kept = this.columns.get(columnName(keys, mapsByKeys)) ?? (mapsByKeys ? this.columns.get(columnName(keys, false)) : undefined);
    if (kept !== undefined || !this.autoColumns || this.built >= this.maxColumns) return kept;
    this.built++;
    return this.addColumn(keys, mapsByKeys);
  }

  /**
   * The rows `filter` matches, in order: exactly `filter.filter(items)`, errors included. A filter
   * not made by `compile` runs row by row.
   */
  filter(filter: Filter<T>): T[] {
    const rows = this.rows;
    const matches = this.indexes(filter);
    const out = new Array<T>(matches.length);
    for (let k = 0; k < matches.length; k++) out[k] = rows[matches[k]!]!;
    return out;
  }

  /**
   * The numbers of the rows `filter` matches, ascending: `table.at(i)` for each is `filter(filter)`,
   * errors alike (the first failing row's error throws). No array of rows is built: for a count, a
   * page of row numbers, or a join with another table's rows.
   */
  indexes(filter: Filter<T>): Int32Array {
    const rows = this.rows;
    const states = new Uint8Array(rows.length);
    // The matching rows are listed as the plan's last pass finds them.
    const matches = new Int32Array(rows.length);
    const m = evaluateRange(this.planOf(filter), this.view, 0, states, null, rows.length, matches, TRUE);
    const firstError = states.indexOf(ERROR);
    if (firstError >= 0) filter.evaluate(rows[firstError]!); // throws the first failing row's error
    return matches.subarray(0, m);
  }

  /**
   * The answers of rows [from, to) at once, one byte a row: 1 where the row matches, 0 where it does
   * not, 2 where it fails (`filter.evaluate(table.at(i))` throws its error). Computed part by part in
   * tight loops over the columns, each part on the rows its predecessors left open: the parts and rows
   * a `matcher` would evaluate, faster.
   */
  answers(filter: Filter<T>, from = 0, to = this.rows.length): Uint8Array {
    if (!(Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= this.rows.length)) {
      throw new RangeError(`rows [${from}, ${to}) are not in a table of ${this.rows.length}`);
    }
    const out = new Uint8Array(to - from);
    evaluateRange(this.planOf(filter), this.view, from, out);
    return out;
  }

  /**
   * A test of row `i` by its number, answering exactly as `filter.evaluate(table.at(i))` (errors
   * included), through the columns. It reads the table as it is now: make a new one after a change
   * (`version` tells). For callers that walk the rows themselves (a paginator, a scan in slices).
   */
  matcher(filter: Filter<T>): (i: number) => boolean {
    const rows = this.rows;
    const state = bindPlan(this.planOf(filter), this.view);
    return (i) => {
      const s = state(i);
      // An error row: the filter's own evaluation throws its error (the plan is exact).
      return s === ERROR ? filter.evaluate(rows[i]!) : s === TRUE;
    };
  }

  /** The filter's plan over this table; one part, the whole filter row by row, for a filter that has none. */
  private planOf(filter: Filter<T>): PlanNode {
    const key = filter as Filter<never>;
    let plan = this.plans.get(key);
    if (plan === undefined) {
      const settings = settingsOf(filter);
      const planned = settings === undefined || settings.maxSteps !== undefined ? undefined : planFilter(filter.ast, filter.expression, settings);
      plan = planned ?? { kind: "rows", run: (row) => filter.evaluate(row as T) };
      this.plans.set(key, plan);
    }
    return plan;
  }
}
