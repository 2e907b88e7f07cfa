/**
 * A selector against a static type, once: what each step reads (a record's field, a map's key, a
 * list's index, a value only the data types), the type it reaches, whether it can fail or miss, and
 * the names `any`/`all` bind with their types. Every static reader asks here: the checks, the
 * compiler and its facts, the lints and hovers, `FilterSet`'s key leaf, `split` and the fast paths.
 * (Walking *values* is `select.ts`; walking JSON in SQL is `sql/path.ts`.)
 */
import type { Binding, Selector } from "../syntax/ast.js";
import { boundNames } from "../syntax/reads.js";
import { fieldOf, type Type } from "./schema.js";
import { parseIndex } from "./values.js";

/** What a step is taken from. */
export type Container =
  /** A record: the step names a field (always present: its zero value when absent). */
  | "record"
  /** A map: the key may be absent. */
  | "map"
  /** A list: the step must be an index. */
  | "list"
  /** `any` (plain JSON): a map or a list, known only from the data. */
  | "dynamic"
  /** A string, number or bool: the step fails on every value. */
  | "scalar"
  /** Not known: an earlier step failed on every value, or a bound name's type is not known. */
  | "unknown";

/** Why a step fails on every value that reaches it. */
export type StaticFailure = "unknown-field" | "invalid-index" | "not-a-record";

/** One step of a path. */
export interface PathStep {
  readonly key: string;
  readonly container: Container;
  /** The type of the value the step is taken from (undefined: `unknown`). */
  readonly from: Type | undefined;
  /** The container may be nil (its type is a pointer): the step fails on nil. */
  readonly nullable: boolean;
  /** The type the step reaches (undefined: not known, or the step fails on every value but `invalid-index`). */
  readonly type: Type | undefined;
  /** Set when the step fails on every value it is taken from. */
  readonly failure: StaticFailure | undefined;
}

/** The keys of a selector's steps. */
export function selectorKeys(s: Selector): string[] {
  return s.segments.map((seg) => seg.name);
}

/** A path of keys walked from a static type. */
export interface StaticPath {
  readonly steps: readonly PathStep[];
  /**
   * The type reached; undefined when it is not known (an unknown start, a field the record does not
   * have, a step into a scalar). A step by a name into a list (`invalid-index`) still reaches the
   * element type: the step fails, but the path says what it would have read.
   */
  readonly type: Type | undefined;
  /** The index of the first step that fails on every value, if one does. */
  readonly failsAt: number | undefined;
  /** Reading can neither fail nor miss: every step a known field of a record not behind a pointer. */
  readonly infallible: boolean;
  /** The type reached is known only from the data: a step is taken from `any`. */
  readonly dynamic: boolean;
  /** Every step is a field or a map key (through pointers): what the fused fast paths read. */
  readonly fieldsAndKeys: boolean;
  /**
   * The last step may find its key missing from a map, which takes the operator's fixed answer: it
   * is taken from a map or from `any`, and is not the top level of the data (`taken` + its index > 0).
   */
  readonly mayMiss: boolean;
}

const ANY: Type = { kind: "any" };

/** The type behind pointers. */
export function concrete(type: Type): Type {
  return type.kind === "pointer" ? concrete(type.target) : type;
}

/** The element type of a list or map type (`any` for dynamic ones). */
export function elementType(type: Type): Type {
  const c = concrete(type);
  if (c.kind === "list") return c.elem;
  if (c.kind === "map") return c.value;
  return ANY;
}

/**
 * Walks `keys` from `start` (undefined: not known). `taken` counts the steps that led to `start`
 * (1 from a bound name), since a missing key only takes the fixed answer past the top level.
 */
export function pathFrom(start: Type | undefined, keys: readonly string[], taken = 0): StaticPath {
  const steps: PathStep[] = [];
  let type = start;
  let failsAt: number | undefined;
  let infallible = true;
  let dynamic = false;
  let fieldsAndKeys = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const from = type;
    const c = from === undefined ? undefined : concrete(from);
    const nullable = from?.kind === "pointer";
    let container: Container;
    let failure: StaticFailure | undefined;
    switch (c?.kind) {
      case undefined:
        container = "unknown";
        break;
      case "record":
        container = "record";
        type = fieldOf(c, key);
        if (type === undefined) failure = "unknown-field";
        break;
      case "map":
        container = "map";
        type = c.value;
        break;
      case "list":
        container = "list";
        type = c.elem;
        if (parseIndex(key) === undefined) failure = "invalid-index";
        break;
      case "any":
        container = "dynamic";
        break;
      default:
        container = "scalar";
        failure = "not-a-record";
        type = undefined;
    }
    if (failure !== undefined) failsAt ??= i;
    infallible &&= container === "record" && failure === undefined && !nullable;
    dynamic ||= container === "dynamic";
    fieldsAndKeys &&= container === "map" || (container === "record" && failure === undefined);
    steps.push({ key, container, from, nullable, type, failure });
  }
  const last = steps[steps.length - 1];
  const mayMiss = last !== undefined && (last.container === "map" || last.container === "dynamic") && keys.length - 1 + taken > 0;
  return { steps, type: start === undefined ? undefined : type, failsAt, infallible: infallible && start !== undefined, dynamic, fieldsAndKeys: fieldsAndKeys && start !== undefined, mayMiss };
}

/** A name bound by `any`/`all`. */
export interface BoundName {
  readonly name: string;
  readonly role: "default" | "index" | "value";
  /** Its static type; undefined when not known. */
  readonly type: Type | undefined;
  /** The value of `any k as k, v { … }` (or of a name that hides the collection): reading it fails. */
  readonly hidden: boolean;
}

/** Names in scope, innermost last. */
export type Scope<B extends { readonly name: string } = BoundName> = readonly B[];

/** The innermost bound name `name`, if any. */
export function lookup<B extends { readonly name: string }>(scope: Scope<B>, name: string | undefined): B | undefined {
  for (let i = scope.length - 1; i >= 0; i--) if (scope[i]!.name === name) return scope[i];
  return undefined;
}

/**
 * The reference's placeholder rules that end an evaluation (go-bexpr evaluate.go,
 * `evaluateCollectionExpression` and `getValue`):
 * - `any S as a, a { … }` fails as soon as S has an element (the check sits inside the loop): `both`;
 * - `any k as k, v { … }` (the index named like the first step of the selector): the value stands for
 *   the path `k/<index>`, which `getValue` resolves through the index placeholder `k` and fails
 *   (`/k references a int so /k/0 is invalid`) wherever `v` is read: `hidden`.
 */
export function placeholderClash(b: Binding, selector: Selector): { readonly both: boolean; readonly hidden: boolean } {
  if (b.mode !== "index-value") return { both: false, hidden: false };
  return { both: b.index === b.value, hidden: b.index === selector.segments[0]?.name };
}

/**
 * The static type of a name in role `role` bound over a value of type `over` (undefined: not
 * known): a list's element and int index, a map's value and string key; over `any`, `any`.
 */
export function boundType(role: BoundName["role"], over: Type | undefined): Type | undefined {
  if (over === undefined) return undefined;
  const c = concrete(over);
  if (c.kind === "any") return ANY;
  if (c.kind !== "list" && c.kind !== "map") return undefined;
  if (role === "value" || (role === "default" && c.kind === "list")) return elementType(c);
  return c.kind === "list" ? { kind: "int" } : { kind: "string" };
}

/** The names a collection binds over a value of type `over`, in binding order. */
export function bind(binding: Binding, selector: Selector, over: Type | undefined): BoundName[] {
  const clash = placeholderClash(binding, selector);
  return boundNames(binding).map(({ name, role }) => {
    const hidden = clash.hidden && role === "value";
    return { name, role, type: hidden ? undefined : boundType(role, over), hidden };
  });
}

/** A selector's path resolved in a scope. */
export interface Resolved<B extends { readonly name: string } = BoundName> extends StaticPath {
  /** The bound name the selector starts with (the reference looks it up by the first step of any selector, JSON Pointers included). */
  readonly bound: B | undefined;
  /** 1 when the selector starts with a bound name (its step is not one of `steps`), else 0. */
  readonly taken: 0 | 1;
}

/** The path of `keys` (a selector's steps) from `root`, or from the bound name it starts with. */
export function resolve<B extends { readonly name: string; readonly type: Type | undefined }>(keys: readonly string[], root: Type, scope: Scope<B>): Resolved<B> {
  const bound = scope.length === 0 ? undefined : lookup(scope, keys[0]);
  if (bound === undefined) return { ...pathFrom(root, keys), bound, taken: 0 };
  return { ...pathFrom(bound.type, keys.slice(1), 1), bound, taken: 1 };
}
