/**
 * A selector walked in SQL, as `semantics/select.ts` walks it in memory: every way the walk can end
 * (an error, the last key missing from a map, a value of some type) with the NULL-free condition
 * under which it ends that way. Values are seen through their static type: with a schema, an absent
 * or mistyped field reads as its zero value; under `any` the JSON type decides.
 */
import type { Type } from "../semantics/schema.js";
import { fieldOf } from "../semantics/schema.js";
import { concrete } from "../semantics/path.js";
import type { Kind } from "../semantics/select.js";
import { parseIndex } from "../semantics/values.js";
import type { Dialect, JsonKind, PathStep, Ref } from "./dialects.js";
import { and, not, or, TRUE, type Cond } from "./sql.js";

/** One kind a value can have, under a condition. */
export interface KindCase {
  readonly when: Cond;
  readonly kind: Kind;
  /** The static type of the value (`any` for dynamic JSON). */
  readonly type: Type;
  /** The value is its type's zero value (the JSON holds something else, or nothing). */
  readonly zero: boolean;
  readonly ref: Ref;
  /** Under `any`: the JSON types of this case (null for JSON null or nothing). */
  readonly json?: JsonKind | "none";
}

/** The case's condition implies that the value exists (it tests for a JSON type). */
export function positive(c: KindCase): boolean {
  return c.json !== undefined ? c.json !== "none" : !c.zero && c.kind !== "record" && c.kind !== "invalid";
}

const ALL: readonly JsonKind[] = ["string", "number", "boolean", "array", "object"];

/** The kinds the value at `ref`, of static type `type`, can have. */
export function kindCases(type: Type, ref: Ref, d: Dialect): KindCase[] {
  const scalar = (kind: Kind, json: JsonKind): KindCase[] => {
    const is = d.typeIs(ref, [json]);
    return [
      { when: is, kind, type, zero: false, ref },
      { when: not(is), kind, type, zero: true, ref },
    ];
  };
  switch (type.kind) {
    case "any":
      return [
        { when: d.typeIs(ref, ["string"]), kind: "string", type, zero: false, ref, json: "string" },
        { when: d.typeIs(ref, ["number"]), kind: "float", type, zero: false, ref, json: "number" },
        { when: d.typeIs(ref, ["boolean"]), kind: "bool", type, zero: false, ref, json: "boolean" },
        { when: d.typeIs(ref, ["array"]), kind: "list", type, zero: false, ref, json: "array" },
        { when: d.typeIs(ref, ["object"]), kind: "map", type, zero: false, ref, json: "object" },
        // JSON null, or nothing at all.
        { when: not(d.typeIs(ref, ALL)), kind: "invalid", type, zero: false, ref, json: "none" },
      ];
    case "string":
      return scalar("string", "string");
    case "int":
    case "uint":
    case "float":
      return scalar(type.kind, "number");
    case "bool":
      return scalar("bool", "boolean");
    case "list":
      return scalar("list", "array");
    case "map":
      return scalar("map", "object");
    case "record":
      return [{ when: TRUE, kind: "record", type, zero: false, ref }];
    case "pointer": {
      const present = d.typeIs(ref, ALL);
      return [
        { when: not(present), kind: "invalid", type, zero: false, ref },
        ...kindCases(type.target, ref, d).map((c) => ({ ...c, when: and(present, c.when) })),
      ];
    }
  }
}

/**
 * The kind cases of one value, each with its answer, as few cases as there are distinct answers:
 * under `any`, cases with the same answer become one type test (`jsonb_typeof(x) IN (...)`).
 */
export function byAnswer<T>(kinds: readonly KindCase[], answer: (c: KindCase) => T, d: Dialect): { when: Cond; then: T; cases: KindCase[]; positive: boolean }[] {
  const groups = new Map<T, KindCase[]>();
  for (const c of kinds) {
    const a = answer(c);
    const g = groups.get(a);
    if (g) g.push(c);
    else groups.set(a, [c]);
  }
  return [...groups].map(([then, cs]) => {
    if (cs.every((c) => c.json !== undefined)) {
      const ref = cs[0]!.ref;
      const set = new Set(cs.map((c) => c.json));
      const when = set.has("none") ? not(d.typeIs(ref, ALL.filter((k) => !set.has(k)))) : d.typeIs(ref, ALL.filter((k) => set.has(k)));
      return { when, then, cases: cs, positive: !set.has("none") };
    }
    return { when: or(...cs.map((c) => c.when)), then, cases: cs, positive: cs.every(positive) };
  });
}

/** A value a walk reaches: `when` it does; `rest` is `when` but for the value's existence. */
export interface WalkValue {
  readonly when: Cond;
  readonly rest: Cond;
  readonly type: Type;
  readonly ref: Ref;
}

/** The condition under which a value is reached and has one of the kinds of `a`. */
export function reachedAs(v: WalkValue, a: { when: Cond; positive: boolean }): Cond {
  return and(a.positive ? v.rest : v.when, a.when);
}

/** How a selector walk ends. */
export interface Walk {
  /** The walk fails with an evaluation error. */
  readonly error: Cond;
  /** The last key is missing from a map (the operator's fixed answer). */
  readonly missing: Cond;
  /** A value is reached. */
  readonly values: readonly WalkValue[];
}

/** Thrown when a path cannot be written in the dialect (the caller falls back to UNKNOWN). */
export class Untranslatable extends Error {}

function child(ref: Ref, step: PathStep, d: Dialect): Ref {
  const next: Ref = ref.base === "column" ? { base: "column", steps: [...ref.steps, step] } : { ...ref, steps: [...(ref.steps ?? []), step] };
  if (!d.canPath(next)) throw new Untranslatable("a key the engine's path syntax cannot hold");
  return next;
}

/** A conjunct of a walk's condition; `implied` when a longer path through object keys existing implies it. */
interface Conjunct {
  readonly c: Cond;
  readonly implied: boolean;
  /** The test that the path so far exists. */
  readonly exists?: boolean;
}

const conjunction = (list: readonly Conjunct[]): Cond => and(...list.map((x) => x.c));
const frozen = (list: readonly Conjunct[]): Conjunct[] => list.map((x) => ({ c: x.c, implied: false }));

/**
 * Walks `keys` from `start` (of type `type`). `taken` counts steps already taken (1 from a bound
 * name): a missing last key takes the operator's fixed answer only past the top. Along object keys
 * the conditions collapse into one: the deepest path exists (which implies each container on the way
 * was an object holding the next key).
 */
export function walkPath(type: Type, start: Ref, keys: readonly string[], d: Dialect, taken = 0): Walk {
  const errors: Cond[] = [];
  const missing: Cond[] = [];
  const values: WalkValue[] = [];
  let branches = 0;
  const go = (t: Type, ref: Ref, i: number, list: readonly Conjunct[]): void => {
    if (i === keys.length) {
      values.push({ when: conjunction(list), rest: conjunction(list.filter((x) => !x.exists)), type: t, ref });
      return;
    }
    if (++branches > 64) throw new Untranslatable("too many branches");
    const key = keys[i]!;
    const absent = i === keys.length - 1 && i + taken > 0 ? missing : errors;
    const index = parseIndex(key);
    const category = (c: KindCase): string => {
      if (c.kind === "map") return c.zero ? "absent" : "map";
      if (c.kind === "record") return "record";
      if (c.kind === "list" && !c.zero && index !== undefined && index >= 0) return "list";
      return "error";
    };
    for (const g of byAnswer(kindCases(t, ref, d), category, d)) {
      const c = g.cases[0]!;
      const base = g.positive ? list.filter((x) => !x.exists) : list;
      const w: Conjunct[] = [...base, { c: g.when, implied: g.then === "map" || g.then === "record" || (g.then === "list" && d.indexImpliesArray) }];
      const when = conjunction(w);
      if (when.k === "const" && !when.v) continue;
      switch (g.then) {
        case "absent":
          absent.push(when);
          break;
        case "error":
          errors.push(when);
          break;
        case "map": {
          const ct = concrete(c.type);
          const has = d.hasKey(ref, key);
          const next = child(ref, { key }, d);
          const valueType = ct.kind === "map" ? ct.value : ct;
          if (d.keyImpliesObject(key)) go(valueType, next, i + 1, [...w.filter((x) => !x.implied), { c: d.exists(next), implied: true, exists: true }]);
          else go(valueType, next, i + 1, [...frozen(w), { c: has, implied: false }]);
          absent.push(and(when, not(has)));
          break;
        }
        case "record": {
          const ct = concrete(c.type);
          const field = ct.kind === "record" ? fieldOf(ct, key) : undefined;
          if (field === undefined) errors.push(when);
          // A record may hold an array in the JSON (it then reads as the zero record); PostgreSQL's
          // path would take a numeric field name as an index into it.
          else if (/^\s*[+-]?\d/.test(key)) throw new Untranslatable("a numeric field name");
          else go(field, child(ref, { key }, d), i + 1, w);
          break;
        }
        case "list": {
          const ct = concrete(c.type);
          const longer = d.longerThan(ref, index!);
          const next = child(ref, { index: index! }, d);
          const elemType = ct.kind === "list" ? ct.elem : ct;
          if (d.indexImpliesArray) go(elemType, next, i + 1, [...w, { c: longer, implied: true }]);
          else go(elemType, next, i + 1, [...frozen(w), { c: longer, implied: false }]);
          errors.push(and(when, not(longer)));
          break;
        }
      }
    }
  };
  go(type, start, 0, []);
  return { error: or(...errors), missing: or(...missing), values };
}
