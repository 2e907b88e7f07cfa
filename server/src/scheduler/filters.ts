import { compile, schemas, FilterEvaluationError, FilterSyntaxError, FilterTypeError } from "filter-expr";
import { BadRequest } from "./query.js";

export type SchemaName = "job" | "deployment";

/** What the list endpoints need of a compiled filter. */
export interface ItemFilter {
  evaluate(item: unknown): boolean;
}

/** A small LRU map: a hit moves the key to the young end, an insert past capacity drops the oldest. */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.capacity) this.map.delete(this.map.keys().next().value as K);
  }

  get size(): number {
    return this.map.size;
  }
}

/**
 * Compiles filter expressions against the typed schemas (job list entry, deployment) and keeps the
 * compiled filters in an LRU cache. A syntax or type error is a 400 carrying the position.
 */
export class FilterCache {
  private readonly cache: Lru<string, ItemFilter>;
  compiles = 0;

  constructor(capacity = 512) {
    this.cache = new Lru(capacity);
  }

  get(schema: SchemaName, expression: string): ItemFilter {
    const key = `${schema}\u0000${expression}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    let compiled: ItemFilter;
    try {
      compiled = compile(expression, { schema: schema === "job" ? schemas.job : schemas.deployment });
    } catch (e) {
      if (e instanceof FilterSyntaxError || e instanceof FilterTypeError) {
        throw new BadRequest(`failed to create result paginator: failed to read filter expression: ${e.message}`);
      }
      throw e;
    }
    this.compiles++;
    this.cache.set(key, compiled);
    return compiled;
  }
}

/** Wraps a filter so an evaluation error becomes the 400 that ends the page. */
export function evaluator<T>(filter: ItemFilter | undefined): ((item: T) => boolean) | undefined {
  if (filter === undefined) return undefined;
  return (item: T) => {
    try {
      return filter.evaluate(item);
    } catch (e) {
      if (e instanceof FilterEvaluationError) throw new BadRequest(`failed to read result page: ${e.message}`);
      throw e;
    }
  };
}
