/**
 * Why an item did or did not match: the answer `evaluate` gives, and its witness, the smallest set of
 * leaves (matches, and the `any`/`all` whose elements were looked at) that decides it, in the order
 * the reference evaluates them:
 * - a false `and` is its first false operand's witness, a true `and` all of its operands'; `or` is the
 *   mirror; `not` is its operand's;
 * - an `any` that is true is the deciding element's body's witness (and the collection itself); a
 *   false one, every element's; `all` is the mirror; an empty or missing collection is itself;
 * - an error is the leaf that raised it (its message says where the path broke).
 *
 * The witness comes from compiled closures (`trace.ts`), or, for an error or under a budget, from the
 * interpreter with a trace (`interpret.ts`); the property tests hold the two to the same witnesses.
 */
import type { FilterEvaluationError, Span } from "../errors.js";
import { stringifyJson } from "../json.js";

/** One leaf that took part in an answer. */
export interface WitnessLeaf {
  /** A match, or the `any`/`all` whose collection was read. */
  readonly kind: "match" | "collection";
  /** Where it is in the expression. */
  readonly span: Span;
  /** Its selector, as written. */
  readonly selector: string;
  /** Its operator (`==`, `in`, `is empty`, …) or quantifier (`any`, `all`). */
  readonly op: string;
  /**
   * What the selector read: its value (as the filter sees it: with a schema, absent fields are zero
   * values and integers may be `bigint`), or `missing` when the path reached no value (a missing key,
   * which gives the operator's fixed answer). Undefined when reading it raised the error.
   */
  readonly read: { readonly value: unknown } | { readonly missing: true } | undefined;
  /** The literal as written (its text, after unquoting), for operators that have one. */
  readonly literal: string | undefined;
  /** What the leaf answered, or "error" when it raised the error. */
  readonly outcome: boolean | "error";
  /** The elements of the enclosing `any`/`all` it was evaluated for, outermost first: an index or a key. */
  readonly elements: readonly (number | string)[];
}

/** What `explain` answers. */
export interface Explanation {
  /** What `evaluate` answers: true, false, or the error it throws (as a value). */
  readonly result: boolean | FilterEvaluationError;
  /** The leaves that decide the result, in evaluation order. */
  readonly witness: readonly WitnessLeaf[];
}

/**
 * What a leaf read, in words, for reports: `Status is "running"`, `a.b is missing`, then the elements
 * it was evaluated for (`(element "web")`); only those when reading raised the error.
 */
export function leafReading(leaf: WitnessLeaf): string {
  const elements = leaf.elements.length === 0 ? "" : `(element ${leaf.elements.map((e) => stringifyJson(e)).join(", ")})`;
  if (leaf.read === undefined) return elements;
  const value = "missing" in leaf.read ? "missing" : stringifyJson(leaf.read.value === undefined ? null : leaf.read.value);
  return `${leaf.selector} is ${value}${elements === "" ? "" : ` ${elements}`}`;
}

