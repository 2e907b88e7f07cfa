/**
 * `FilterSet`: many filters, one item at a time (subscriptions to a change feed): which filters
 * match, with exactly the answers (and errors) of evaluating every filter.
 *
 * A filter whose top-level conjuncts begin (in the order they are evaluated) with an equality that
 * cannot fail, `Topic == "Job"`, behind conjuncts that cannot fail either, is false without error on
 * every item where that equality is false: the conjuncts before it answer without error, and the
 * `and` stops at it. Such a filter is indexed under that equality (its key leaf) and is evaluated only
 * on items where the leaf is true:
 * - on a string field read through records only (no pointer, map or list on the way), the leaf is
 *   `value === text`: one hash lookup per field finds every filter whose leaf holds;
 * - any other key leaf is evaluated once per item for every filter that shares its text.
 * Filters without a key leaf are evaluated on every item.
 */
import { compileAst } from "../evaluate/compile.js";
import { filterFacts } from "../semantics/facts.js";
import { settingsOf, type FilterSettings } from "../evaluate/settings.js";
import type { FilterEvaluationError } from "../errors.js";
import type { Type } from "../semantics/schema.js";
import type { Expr, MatchExpr } from "../syntax/ast.js";
import { print } from "../syntax/print.js";

/** What `FilterSet` needs of a compiled filter. */
interface SetFilter<T> {
  readonly expression: string;
  readonly ast: Expr;
  evaluate(item: T): boolean;
}

/** The filters' answers on one item. */
export interface SetMatch<K> {
  /** The keys of the filters that match, in the order they were added. */
  readonly matched: K[];
  /** The filters whose evaluation failed, with the error `evaluate` throws. */
  readonly failed: { readonly key: K; readonly error: FilterEvaluationError }[];
  /** How many evaluations ran in full (the other filters were false by their key leaf, or shared one's answer). */
  readonly evaluated: number;
}

interface Entry<K, T> {
  readonly key: K;
  readonly filter: SetFilter<T>;
  readonly run: (item: T) => boolean;
  readonly order: number;
  /** The entries that answer alike on every item, this one among them; undefined: it answers on its own. */
  readonly shared: Shared | undefined;
}

/**
 * Entries that answer alike on every item (the same expression compiled with the same settings, run
 * as compiled): while more than one share it, one evaluation per item serves them all. The answer
 * is kept with the number of the `match` call that computed it.
 */
interface Shared {
  count: number;
  call: number;
  answer: boolean | FilterEvaluationError;
}

/** Filters indexed by a string field's value: the field's path, and the filters per expected text. */
interface FieldIndex<K, T> {
  readonly keys: readonly string[];
  readonly byText: Map<string, Set<Entry<K, T>>>;
}

/** Filters sharing one key leaf that is not a plain string field: the leaf, evaluated once per item. */
interface LeafGroup<K, T> {
  readonly leaf: (item: T) => boolean;
  readonly entries: Set<Entry<K, T>>;
}

const hasOwn = Object.prototype.hasOwnProperty;

export class FilterSet<K, T = unknown> {
  readonly #entries = new Map<K, { entry: Entry<K, T>; remove: () => void }>();
  readonly #fields = new Map<string, FieldIndex<K, T>>();
  readonly #leaves = new Map<string, LeafGroup<K, T>>();
  readonly #rest = new Set<Entry<K, T>>();
  #added = 0;
  /** The groups of entries that answer alike, by expression and settings. */
  readonly #shared = new Map<string, Shared>();
  /** `match` calls so far. */
  #calls = 0;
  /** A number per record type the filters were compiled for (identity, not structure). */
  readonly #roots = new WeakMap<Type, number>();

  /** The number of filters. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Adds (or replaces) the filter under `key`; it is indexed when it comes from `compile`. `run`
   * evaluates it (default `filter.evaluate`): a check in front of the filter (an ACL), or with a
   * budget, as long as it answers false wherever the filter is false by its key leaf. When `run` gives
   * each evaluation a budget, `steps` says how many: a budget can run out before the key leaf is
   * reached (the top level's match tests are charged first, `any`/`all` and `matches` as they run), and
   * then `run` fails where the key leaf is false, so such a filter is evaluated on every item.
   */
  add(key: K, filter: SetFilter<T>, run?: (item: T) => boolean, steps?: number): void {
    this.delete(key);
    const settings = settingsOf(filter);
    // Subscribers often share a filter: run as compiled (no guard, no budget of the caller's), the
    // same text with the same settings answers alike, and is evaluated once per item.
    // (An unknown value can be anything: filters with one answer apart.)
    const id =
      run === undefined && settings !== undefined && !("unknownValue" in settings.options)
        ? `${this.#rootId(settings.root)}\u0000${settings.options.missingLeafIsError === true}\u0000${settings.maxSteps}\u0000${settings.target.name}\u0000${filter.expression}`
        : undefined;
    let shared: Shared | undefined;
    if (id !== undefined) {
      shared = this.#shared.get(id);
      if (shared === undefined) this.#shared.set(id, (shared = { count: 0, call: 0, answer: false }));
      shared.count++;
    }
    const entry: Entry<K, T> = { key, filter, run: run ?? ((item) => filter.evaluate(item)), order: this.#added++, shared };
    const unplace = this.#place(entry, settings, steps);
    const group = shared;
    const remove = (): void => {
      unplace();
      if (group !== undefined && --group.count === 0) this.#shared.delete(id!);
    };
    this.#entries.set(key, { entry, remove });
  }

  /** Removes the filter under `key`; false when there was none. */
  delete(key: K): boolean {
    const e = this.#entries.get(key);
    if (e === undefined) return false;
    e.remove();
    this.#entries.delete(key);
    return true;
  }

  /** Every filter's answer on `item`: exactly what evaluating each one gives, errors included. */
  match(item: T): SetMatch<K> {
    const candidates: Entry<K, T>[] = [...this.#rest];
    for (const { keys, byText } of this.#fields.values()) {
      const value = readField(item, keys);
      if (typeof value === "string") {
        const hit = byText.get(value);
        if (hit) candidates.push(...hit);
      } else {
        // Not what the schema says (or not a record on the way): every filter of the field decides.
        for (const set of byText.values()) candidates.push(...set);
      }
    }
    for (const { leaf, entries } of this.#leaves.values()) if (leaf(item)) candidates.push(...entries);
    // Evaluated as found; only the few answers are put in the order the filters were added.
    const hits: Entry<K, T>[] = [];
    const failures: { entry: Entry<K, T>; error: FilterEvaluationError }[] = [];
    const call = ++this.#calls;
    let evaluated = 0;
    for (const c of candidates) {
      const shared = c.shared !== undefined && c.shared.count > 1 ? c.shared : undefined;
      let answer: boolean | FilterEvaluationError;
      if (shared !== undefined && shared.call === call) answer = shared.answer;
      else {
        evaluated++;
        try {
          answer = c.run(item);
        } catch (error) {
          if ((error as Error).name !== "FilterEvaluationError") throw error;
          answer = error as FilterEvaluationError;
        }
        if (shared !== undefined) {
          shared.call = call;
          shared.answer = answer;
        }
      }
      if (answer === true) hits.push(c);
      else if (answer !== false) failures.push({ entry: c, error: answer });
    }
    hits.sort((a, b) => a.order - b.order);
    failures.sort((a, b) => a.entry.order - b.entry.order);
    return { matched: hits.map((h) => h.key), failed: failures.map((f) => ({ key: f.entry.key, error: f.error })), evaluated };
  }

  #rootId(root: Type): number {
    let id = this.#roots.get(root);
    if (id === undefined) this.#roots.set(root, (id = this.#added));
    return id;
  }

  /** Files the entry under its key leaf (or with the rest); returns how to take it out. */
  #place(entry: Entry<K, T>, settings: FilterSettings | undefined, steps: number | undefined): () => void {
    const found = settings && keyLeaf(entry.filter, settings, steps);
    if (settings === undefined || found === undefined) {
      this.#rest.add(entry);
      return () => this.#rest.delete(entry);
    }
    const { leaf, stringField } = found;
    if (stringField) {
      const keys = leaf.selector.segments.map((s) => s.name);
      const id = JSON.stringify(keys);
      let index = this.#fields.get(id);
      if (index === undefined) this.#fields.set(id, (index = { keys, byText: new Map() }));
      const text = leaf.value!.text;
      let set = index.byText.get(text);
      if (set === undefined) index.byText.set(text, (set = new Set()));
      set.add(entry);
      const { byText } = index;
      return () => {
        set.delete(entry);
        if (set.size === 0) byText.delete(text);
        if (byText.size === 0) this.#fields.delete(id);
      };
    }
    // The leaf's text and the record type decide its answer (a key leaf exists only under the default
    // rules: an unknown value or go-bexpr 0.1.11's missing keys make every read fallible).
    const id = `${print(leaf)}\u0000${this.#rootId(settings.root)}`;
    let group = this.#leaves.get(id);
    if (group === undefined) {
      const run = compileAst(leaf, entry.filter.expression, settings.root, settings.options).run;
      this.#leaves.set(id, (group = { leaf: (item) => run(item), entries: new Set() }));
    }
    const g = group;
    g.entries.add(entry);
    return () => {
      g.entries.delete(entry);
      if (g.entries.size === 0) this.#leaves.delete(id);
    };
  }
}

/**
 * The filter's key leaf (`FilterFacts.keyLeaf`), where an index may key on it: not under a step
 * bound of the filter's own; with a budget of `steps` per evaluation, the top level's charge must fit
 * in it and no conjunct before the leaf may charge more as it runs.
 */
function keyLeaf<T>(filter: SetFilter<T>, settings: FilterSettings, steps: number | undefined): { leaf: MatchExpr; stringField: boolean } | undefined {
  if (settings.maxSteps !== undefined) return undefined;
  const facts = filterFacts(filter.ast, filter.expression, settings.root, settings.options);
  const found = facts.keyLeaf;
  if (found === undefined || (steps !== undefined && (facts.levelCharge > steps || found.afterMetered))) return undefined;
  return { leaf: found.match, stringField: found.stringField };
}

/** The value at `keys` through objects' own properties; absent: "" (a string field's zero value); undefined: something else on the way. */
function readField(item: unknown, keys: readonly string[]): unknown {
  let v = item;
  for (const key of keys) {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
    v = hasOwn.call(v, key) ? (v as Record<string, unknown>)[key] : "";
    if (v === undefined) v = "";
  }
  return v;
}
