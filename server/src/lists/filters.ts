import { compile, schemas, FilterEvaluationError, FilterSyntaxError, FilterTypeError, type EvaluationBudget, type Filter, type Schema } from "filter-expr";
import { BadRequest } from "./errors.js";

/** The name of one of the library's schemas (`schemas.job`, `schemas.deployment`). */
export type SchemaName = keyof typeof schemas;

/**
 * What the list endpoints need of a compiled filter: its AST and schema for the SQL pushdown, and its
 * facts (whether its work per item can grow with the item: then it needs a budget).
 */
export type ItemFilter = Pick<Filter<unknown>, "expression" | "ast" | "schema" | "evaluate" | "facts">;

/**
 * A small LRU map bounded by count and by total weight: a hit moves the key to the young end, an insert
 * past either bound drops the oldest entries (the newest entry always stays).
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number }>();
  private total = 0;
  constructor(
    private readonly capacity: number,
    private readonly maxWeight = Infinity,
  ) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry !== undefined) {
      this.map.delete(key);
      this.map.set(key, entry);
    }
    return entry?.value;
  }

  set(key: K, value: V, weight = 0): void {
    this.delete(key);
    this.map.set(key, { value, weight });
    this.total += weight;
    while (this.map.size > 1 && (this.map.size > this.capacity || this.total > this.maxWeight)) {
      this.delete(this.map.keys().next().value as K);
    }
  }

  delete(key: K): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.total -= entry.weight;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** The total weight of the entries. */
  get weight(): number {
    return this.total;
  }
}

/**
 * Estimated bytes a compiled filter holds: its AST, closures and plan grow with the expression text
 * (measured: 512 filters of a 16 KB URL each held 1.1 GiB, about 140 bytes per character).
 */
export function filterWeight(expression: string): number {
  return 4096 + 256 * expression.length;
}

/** Default bounds of the compiled-filter cache: 512 filters and 64 MiB of estimated size. */
export const FILTER_CACHE_ENTRIES = 512;
export const FILTER_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Compiles filter expressions against the typed schemas (job list entry, deployment) and keeps the
 * compiled filters in an LRU cache bounded by count and by estimated size. A syntax or type error is a
 * 400 carrying the position.
 */
export class FilterCache {
  private readonly cache: Lru<string, ItemFilter>;
  /** Counts for the metrics (`ops/metrics.ts`): filters compiled, taken from the cache, refused. */
  compiles = 0;
  hits = 0;
  /** Expressions refused with a 400 by their syntax or their types. */
  readonly refused = { syntax: 0, type: 0 };
  /** Pages ended with a 400 by an evaluation error, or by a filter that ran out of its budget. */
  readonly failed = { evaluation: 0, budget: 0 };

  constructor(capacity = FILTER_CACHE_ENTRIES, maxBytes = FILTER_CACHE_BYTES) {
    this.cache = new Lru(capacity, maxBytes);
  }

  /** The compiled filter of `expression` for a library schema (by name) or a record schema of the server's own (cached by its record name). */
  get(schema: SchemaName | Schema, expression: string): ItemFilter {
    const key = `${typeof schema === "string" ? schema : `record ${schema.name}`}\u0000${expression}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) {
      this.hits++;
      return hit;
    }
    let compiled: ItemFilter;
    try {
      // No length limit: the reference has none (its parse budget answers), and the head bounds the text.
      compiled = compile(expression, { schema: typeof schema === "string" ? schemas[schema] : schema, maxLength: Infinity });
    } catch (e) {
      if (e instanceof FilterSyntaxError || e instanceof FilterTypeError) {
        this.refused[e instanceof FilterSyntaxError ? "syntax" : "type"]++;
        throw new BadRequest(`failed to create result paginator: failed to read filter expression: ${e.message}`);
      }
      throw e;
    }
    this.compiles++;
    this.cache.set(key, compiled, filterWeight(expression));
    return compiled;
  }

  /** Compiled filters held. */
  get size(): number {
    return this.cache.size;
  }

  /** Estimated bytes of the compiled filters held. */
  get bytes(): number {
    return this.cache.weight;
  }
}

/** The budgets of a list request's filter: steps for one item (`--filter-budget`), and for all of them (`--request-budget`). */
export interface RequestBudgets {
  readonly item: number;
  readonly request: number;
}

/**
 * The steps an evaluation took from `budget`, which held `given` before it: a budget that runs out goes
 * below zero (the step that crossed it is charged, then refused), so at most `given`.
 */
export function stepsTaken(given: number, budget: EvaluationBudget): number {
  return given - Math.max(0, budget.steps);
}

/** What a request's filter has spent so far: evaluation steps, over how many items. */
export interface Work {
  steps: number;
  items: number;
}

/**
 * Wraps a filter so an evaluation error becomes the 400 that ends the page. Each item has
 * `budgets.item` steps of its own (one budget, reset before each item), and never more than what is
 * left of `budgets.request` for the whole request; the steps it took are added to `work`. When an item
 * runs out, the 400 says "filter too expensive" with the budget that ran out and the position of the
 * outermost any/all being iterated.
 */
export function evaluator<T>(filter: ItemFilter | undefined, budgets: RequestBudgets, work: Work, counts?: FilterCache["failed"]): ((item: T) => boolean) | undefined {
  if (filter === undefined) return undefined;
  const budget: EvaluationBudget = { steps: 0 };
  return (item: T) => {
    const left = budgets.request - work.steps;
    const allowance = Math.max(0, Math.min(budgets.item, left));
    budget.steps = allowance;
    work.items++;
    try {
      return filter.evaluate(item, budget);
    } catch (e) {
      const spent = allowance < budgets.item ? `${budgets.request} steps for the request, spent over ${work.items} items` : `${budgets.item} steps per item`;
      throw pageError(e, spent, counts);
    } finally {
      work.steps += stepsTaken(allowance, budget);
    }
  };
}

/** The 400 that an evaluation error ends a page with (other errors pass through); `spent` names the budget that ran out. */
function pageError(e: unknown, spent: string, counts?: FilterCache["failed"]): unknown {
  if (!(e instanceof FilterEvaluationError)) return e;
  if (counts !== undefined) counts[e.code === "too-expensive" ? "budget" : "evaluation"]++;
  if (e.code === "too-expensive") return new BadRequest(`failed to read result page: ${e.summary} (${spent}) at ${e.line}:${e.column}`);
  return new BadRequest(`failed to read result page: ${e.message}`);
}

/**
 * A row test by number (`FilterTable.matcher`) with the 400 ending the page on an evaluation error,
 * as `evaluator`'s. Only for filters whose work per item is bounded by the expression
 * (`facts.growsWithItems` false): they need no budget.
 */
export function rowEvaluator(test: (row: number) => boolean, counts?: FilterCache["failed"]): (row: number) => boolean {
  return (row) => {
    try {
      return test(row);
    } catch (e) {
      throw pageError(e, "", counts);
    }
  };
}
