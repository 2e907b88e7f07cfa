/**
 * A selector walked in SQL, as `semantics/select.ts` walks it in memory: every way the walk can end
 * (an error, the last key missing from a map, a value of some type) with the NULL-free condition
 * under which it ends that way. Values are seen through their static type: with a schema, an absent
 * or mistyped field reads as its zero value; under `any` the JSON type decides.
 */
import type { Type } from "../semantics/schema.js";
import { fieldOf } from "../semantics/schema.js";
import { concrete, type Kind } from "../semantics/select.js";
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
        { when: d.typeIs(ref, ["string"]), kind: "string", type, zero: false, ref },
        { when: d.typeIs(ref, ["number"]), kind: "float", type, zero: false, ref },
        { when: d.typeIs(ref, ["boolean"]), kind: "bool", type, zero: false, ref },
        { when: d.typeIs(ref, ["array"]), kind: "list", type, zero: false, ref },
        { when: d.typeIs(ref, ["object"]), kind: "map", type, zero: false, ref },
        // JSON null, or nothing at all.
        { when: not(d.typeIs(ref, ALL)), kind: "invalid", type, zero: false, ref },
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

/** How a selector walk ends. */
export interface Walk {
  /** The walk fails with an evaluation error. */
  readonly error: Cond;
  /** The last key is missing from a map (the operator's fixed answer). */
  readonly missing: Cond;
  /** A value is reached. */
  readonly values: readonly { readonly when: Cond; readonly type: Type; readonly ref: Ref }[];
}

/** Thrown when a path cannot be written in the dialect (the caller falls back to UNKNOWN). */
export class Untranslatable extends Error {}

function child(ref: Ref, step: PathStep, d: Dialect): Ref {
  if (ref.base !== "column") throw new Untranslatable("a path below a bound element");
  const next: Ref = { base: "column", steps: [...ref.steps, step] };
  if (!d.canPath(next)) throw new Untranslatable("a key the engine's path syntax cannot hold");
  return next;
}

/**
 * Walks `keys` from `start` (of type `type`). `taken` counts steps already taken (1 from a bound
 * name): a missing last key takes the operator's fixed answer only past the top.
 */
export function walkPath(type: Type, start: Ref, keys: readonly string[], d: Dialect, taken = 0): Walk {
  const errors: Cond[] = [];
  const missing: Cond[] = [];
  const values: { when: Cond; type: Type; ref: Ref }[] = [];
  let branches = 0;
  const go = (t: Type, ref: Ref, i: number, when: Cond): void => {
    if (when.k === "const" && !when.v) return;
    if (i === keys.length) {
      values.push({ when, type: t, ref });
      return;
    }
    if (++branches > 64) throw new Untranslatable("too many branches");
    const key = keys[i]!;
    const absent = i === keys.length - 1 && i + taken > 0 ? missing : errors;
    for (const c of kindCases(t, ref, d)) {
      const w = and(when, c.when);
      if (w.k === "const" && !w.v) continue;
      switch (c.kind) {
        case "map": {
          if (c.zero) {
            absent.push(w);
            break;
          }
          const ct = concrete(c.type);
          const has = d.hasKey(ref, key);
          go(ct.kind === "map" ? ct.value : ct, child(ref, { key }, d), i + 1, and(w, has));
          absent.push(and(w, not(has)));
          break;
        }
        case "record": {
          const ct = concrete(c.type);
          const field = ct.kind === "record" ? fieldOf(ct, key) : undefined;
          if (field === undefined) errors.push(w);
          // A record may hold an array in the JSON (it then reads as the zero record); PostgreSQL's
          // path would take a numeric field name as an index into it.
          else if (/^\s*[+-]?\d/.test(key)) throw new Untranslatable("a numeric field name");
          else go(field, child(ref, { key }, d), i + 1, w);
          break;
        }
        case "list": {
          const index = parseIndex(key);
          if (c.zero || index === undefined || index < 0) {
            errors.push(w);
            break;
          }
          const ct = concrete(c.type);
          const longer = d.longerThan(ref, index);
          go(ct.kind === "list" ? ct.elem : ct, child(ref, { index }, d), i + 1, and(w, longer));
          errors.push(and(w, not(longer)));
          break;
        }
        default:
          errors.push(w);
      }
    }
  };
  go(type, start, 0, TRUE);
  return { error: or(...errors), missing: or(...missing), values };
}
