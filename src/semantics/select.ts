/**
 * Walking a selector through data, as the reference's pointer walk does: maps by key, lists by
 * index (Go's base-0 integer syntax, "" meaning 0), records by exact field name. Only own properties
 * are read, so `__proto__`, `constructor` and `toString` are ordinary keys.
 *
 * A value is seen through its static type (`Type`): with a schema, absent fields read as zero values;
 * under `any` the JavaScript value decides (every number is a float, `null` is nil).
 */
import { concrete } from "./path.js";
import { fieldOf, type Type } from "./schema.js";
import { parseIndex } from "./values.js";

/** The kinds of value the operators distinguish (Go's `reflect.Kind`, reduced). */
export type Kind = "string" | "int" | "uint" | "float" | "bool" | "list" | "map" | "record" | "invalid";

const hasOwn = Object.prototype.hasOwnProperty;

/** Reads an own property, or `undefined`. */
export function own(obj: object, key: string): unknown {
  return hasOwn.call(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** True for a plain object usable as a map or record (not an array, not null). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const ZERO_RECORD: Readonly<Record<string, unknown>> = Object.freeze(Object.create(null) as Record<string, unknown>);

/**
 * The value of a raw JavaScript value seen through `type`: zero values for absent data, pointers
 * dereferenced (nil stays `null`). The result is what the operators receive.
 */
export function typed(type: Type, raw: unknown): unknown {
  switch (type.kind) {
    case "any":
      return raw === undefined ? null : raw;
    case "string":
      return typeof raw === "string" ? raw : "";
    case "int":
    case "uint":
    case "float":
      return typeof raw === "number" || typeof raw === "bigint" ? raw : 0;
    case "bool":
      return typeof raw === "boolean" ? raw : false;
    case "list":
      return Array.isArray(raw) ? raw : null;
    case "map":
      return isObject(raw) ? raw : null;
    case "record":
      return isObject(raw) ? raw : ZERO_RECORD;
    case "pointer":
      return raw === null || raw === undefined ? null : typed(type.target, raw);
  }
}

/** The kind of a value already passed through `typed(type, ·)`. */
export function kindOf(type: Type, v: unknown): Kind {
  switch (type.kind) {
    case "any":
      switch (typeof v) {
        case "string":
          return "string";
        case "number":
        case "bigint":
          return "float";
        case "boolean":
          return "bool";
        case "object":
          return v === null ? "invalid" : Array.isArray(v) ? "list" : "map";
        default:
          return "invalid";
      }
    case "pointer":
      return v === null ? "invalid" : kindOf(type.target, v);
    default:
      return type.kind;
  }
}

/** Why a step of a walk failed. */
export type StepFailure =
  /** The key is not in the map (the only failure that can take an operator's fixed answer). */
  | { readonly failure: "missing-key"; readonly key: string }
  /** The name is not a field of the record. */
  | { readonly failure: "unknown-field"; readonly key: string; readonly record: string }
  | { readonly failure: "index-out-of-range"; readonly index: number; readonly length: number }
  | { readonly failure: "invalid-index"; readonly key: string }
  /** The value has no parts (a string, number, bool or nil). */
  | { readonly failure: "invalid-path"; readonly key: string; readonly kind: Kind };

/** The result of one step: the next value and its type, or a failure. */
export type Step = { readonly type: Type; readonly value: unknown } | StepFailure;

/** Takes one step from `value` (already `typed`) of type `type` by `key`. */
export function step(type: Type, value: unknown, key: string): Step {
  const kind = kindOf(type, value);
  const c = concrete(type);
  switch (kind) {
    case "map": {
      const valueType = c.kind === "map" ? c.value : c;
      const raw = value === null ? undefined : own(value as object, key);
      if (raw === undefined && (value === null || !hasOwn.call(value, key))) return { failure: "missing-key", key };
      return { type: valueType, value: typed(valueType, raw) };
    }
    case "record": {
      const fieldType = c.kind === "record" ? fieldOf(c, key) : undefined;
      if (fieldType === undefined) {
        return { failure: "unknown-field", key, record: c.kind === "record" ? c.name : "record" };
      }
      return { type: fieldType, value: typed(fieldType, own(value as object, key)) };
    }
    case "list": {
      const list = (value ?? []) as unknown[];
      const index = parseIndex(key);
      if (index === undefined) return { failure: "invalid-index", key };
      if (index < 0 || index >= list.length) return { failure: "index-out-of-range", index, length: list.length };
      const elemType = c.kind === "list" ? c.elem : c;
      return { type: elemType, value: typed(elemType, list[index]) };
    }
    default:
      return { failure: "invalid-path", key, kind };
  }
}

/** True when a step result is a failure. */
export function isStepFailure(s: Step): s is StepFailure {
  return "failure" in s;
}

/** A value with its static type. */
export interface Typed {
  readonly type: Type;
  readonly value: unknown;
}

/** Returned by `walk` when the last step is a key missing from a map: the operator's fixed answer applies. */
export const MISSING: unique symbol = Symbol("missing key");

/** How a walk reports a failure that is an error (not the fixed-answer case). */
export type WalkErrorReporter = (failure: StepFailure, stepIndex: number) => never;

/**
 * Walks `keys` from `start`. Returns the value reached, `MISSING` when only the last key is missing
 * from a map, or calls `fail` (which throws). With `unknown` set, a missing key or field anywhere reads
 * as that value instead (the reference's "unknown value" option). `taken` counts the steps that led to
 * `start` (a bound variable's own step), since a missing key only takes the fixed answer past the top.
 * `strict` (go-bexpr 0.1.11) makes that last missing key an error too.
 */
export function walk(
  start: Typed,
  keys: readonly string[],
  fail: WalkErrorReporter,
  unknown?: { readonly value: unknown },
  taken = 0,
  strict = false,
): Typed | typeof MISSING {
  let type = start.type;
  let value = start.value;
  for (let i = 0; i < keys.length; i++) {
    const s = step(type, value, keys[i]!);
    if (isStepFailure(s)) {
      if (unknown && (s.failure === "missing-key" || s.failure === "unknown-field")) {
        return { type: ANY_TYPE, value: typed(ANY_TYPE, unknown.value) };
      }
      if (s.failure === "missing-key" && i === keys.length - 1 && i + taken > 0 && !strict) return MISSING;
      return fail(s, i);
    }
    type = s.type;
    value = s.value;
  }
  return { type, value };
}

const ANY_TYPE: Type = { kind: "any" };
