/**
 * What the lints need to know about a selector: for each step, what kind of value it is taken from,
 * as far as the schema (or, without one, plain JSON) tells. Bound names of collection expressions
 * start from the type they are bound to.
 */
import type { Binding, Segment, Selector } from "../syntax/ast.js";
import type { Schema, Type } from "../semantics/schema.js";

/** What a step is taken from. */
export type Container =
  /** A typed record: the step names a field (always present, zero value when absent). */
  | "record"
  /** A typed map: the key may be absent. */
  | "map"
  /** A typed list: the step must be an index. */
  | "list"
  /** Plain JSON (or an untyped part of a schema): a map or a list, known only from the data. */
  | "dynamic"
  /** A string, number or bool: the step fails (the library's checks report it with a schema). */
  | "scalar"
  /** Not known: an earlier step is not a field, or a bound name of unknown type. */
  | "unknown";

/** One step of a resolved selector. */
export interface ResolvedStep {
  readonly segment: Segment;
  /** Index of the step in the selector's segments. */
  readonly index: number;
  readonly container: Container;
  /** The type of the value the step is taken from, when known. */
  readonly from: Type | undefined;
}

/** A selector resolved against the schema. */
export interface Resolved {
  /** The steps taken from data (a bound name's own step is not one). */
  readonly steps: readonly ResolvedStep[];
  /** 1 when the selector starts with a bound name, else 0. */
  readonly taken: number;
  /** The type reached, or undefined when unknown. */
  readonly type: Type | undefined;
}

/** A name bound by `any`/`all`, innermost first. */
export interface Scope {
  readonly name: string;
  readonly type: Type | undefined;
  readonly next: Scope | undefined;
}

const ANY: Type = { kind: "any" };

/** The type behind pointers. */
export function concrete(type: Type): Type {
  return type.kind === "pointer" ? concrete(type.target) : type;
}

/** Looks a bound name up. */
export function lookup(scope: Scope | undefined, name: string | undefined): Scope | undefined {
  for (let s = scope; s; s = s.next) if (s.name === name) return s;
  return undefined;
}

/** Resolves `sel` from the root `schema` (undefined: plain JSON) within `scope`. */
export function resolve(sel: Selector, schema: Schema | undefined, scope: Scope | undefined): Resolved {
  let type: Type | undefined = schema ?? ANY;
  let taken = 0;
  if (sel.form === "path") {
    const bound = lookup(scope, sel.segments[0]?.name);
    if (bound) {
      type = bound.type;
      taken = 1;
    }
  }
  const steps: ResolvedStep[] = [];
  for (let i = taken; i < sel.segments.length; i++) {
    const segment = sel.segments[i]!;
    if (type === undefined) {
      steps.push({ segment, index: i, container: "unknown", from: undefined });
      continue;
    }
    const c = concrete(type);
    switch (c.kind) {
      case "record":
        steps.push({ segment, index: i, container: "record", from: type });
        type = c.fields[segment.name];
        break;
      case "map":
        steps.push({ segment, index: i, container: "map", from: type });
        type = c.value;
        break;
      case "list":
        steps.push({ segment, index: i, container: "list", from: type });
        type = c.elem;
        break;
      case "any":
        steps.push({ segment, index: i, container: "dynamic", from: type });
        break;
      default:
        steps.push({ segment, index: i, container: "scalar", from: type });
        type = undefined;
    }
  }
  return { steps, taken, type };
}

/** The scope inside a collection expression over a value of type `over` (undefined: unknown). */
export function bind(scope: Scope | undefined, binding: Binding, over: Type | undefined): Scope | undefined {
  const c = over === undefined ? undefined : concrete(over);
  const isList = c?.kind === "list";
  const isMap = c?.kind === "map";
  const dynamic = c?.kind === "any";
  const elem: Type | undefined = isList ? c.elem : isMap ? c.value : dynamic ? ANY : undefined;
  const index: Type | undefined = isList ? { kind: "int" } : isMap ? { kind: "string" } : dynamic ? ANY : undefined;
  const add = (s: Scope | undefined, name: string, type: Type | undefined): Scope => ({ name, type, next: s });
  switch (binding.mode) {
    case "default":
      return add(scope, binding.name, isList ? elem : index);
    case "index":
      return add(scope, binding.index, index);
    case "value":
      return add(scope, binding.value, elem);
    case "index-value":
      return add(add(scope, binding.index, index), binding.value, elem);
  }
}

/** True when `text` reads as a list index (Go's base-0 integer syntax; "" reads as 0). */
export function isIndexText(text: string): boolean {
  return text === "" || /^[+-]?(?:0[xX]_?[0-9a-fA-F](?:_?[0-9a-fA-F])*|0[bB]_?[01](?:_?[01])*|0[oO]?_?[0-7](?:_?[0-7])*|0|[1-9](?:_?[0-9])*)$/.test(text);
}
