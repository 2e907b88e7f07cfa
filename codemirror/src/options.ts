/** The options every extension of the package takes: the schema (and release) filters are checked against. */
import type { Schema, Target } from "filter-expr";

/** A value, or a function read each time it is needed (for a schema that changes with the page). */
export type Live<T> = T | (() => T);

/** Options of `filterExpr`, `filterLinter`, `filterCompletion`, `filterHover` and `applyFirstFix`. */
export interface FilterOptions {
  /**
   * The record type of the data (`schemas.job`, …), or a function returning it, read at each lint,
   * completion and hover (a page that switches schemas passes `() => current`, then calls
   * `refreshFilter(view)` after a switch). Without one: plain JSON (no fields are
   * known, any selector is valid).
   */
  readonly schema?: Live<Schema | undefined>;
  /** The release the filter must run on (`"nomad@1.10.5"`; see `diagnose`), or a function returning it. Default: the newest. */
  readonly target?: Live<string | Target | undefined>;
  /** Report warnings (valid text that probably does not mean what it says) as well as errors. Default true. */
  readonly warnings?: boolean;
}

/** The value of a `Live` option now. */
export function read<T>(live: Live<T>): T {
  return typeof live === "function" ? (live as () => T)() : live;
}
