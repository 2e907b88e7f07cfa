/**
 * The templates of the generated closures (scripts/field-code.ts writes src/evaluate/generated/ from
 * them), written as TypeScript so that they are type-checked where they are written. This module is
 * never run: the generator reads its text with the TypeScript parser and copies each template's
 * closure, its placeholders replaced: `READ` by the property read of a field's value in the plain
 * datum `d` (`(d as Rec)["Status"]`), `KEY` by a field name's literal; `OBJECT_PROTO` is a parameter of
 * each generated file's closures (`Object.prototype`), `NOT_PLAIN` the column-steps file's own symbol.
 */
import type { Clones } from "../src/evaluate/generated/clones.js";
import type { EvaluationBudget } from "../src/evaluate/budget.js";
import { readsEmpty } from "../src/semantics/table.js";

// The generated files' own aliases, under the same names.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type General = (d: unknown, f?: any) => boolean;
type Entry = (d: unknown, budget?: EvaluationBudget) => boolean;
type Proto = { __proto__?: unknown };
type Rec = Record<string, unknown>;

/** Placeholders (see above). */
declare const OBJECT_PROTO: object;
declare const READ: unknown;
declare const KEY: string;
declare const NOT_PLAIN: unique symbol;

/**
 * The fused tests of `evaluate` (`fast.ts`): each takes the test's constants and `general`, the closure
 * that decides whatever the test does not, and returns the test. Their doc comments are copied too.
 */
export const FIELD_TESTS = {
  /** A typed string field `== text` (text not empty: an absent field is "" and never equal). */
  equalString: (text: string, negated: boolean, general: General): General =>
    (d, f) => (d != null && (d as Proto).__proto__ === OBJECT_PROTO ? (READ === text) !== negated : general(d, f)),
  /** A typed bool field `== literal`; `flip` is the literal's value equal to the negation. */
  equalBool: (flip: boolean, general: General): General =>
    (d, f) => (d != null && (d as Proto).__proto__ === OBJECT_PROTO ? (READ === true) !== flip : general(d, f)),
  /** A typed integer field `== x` (`big` its exact value): numbers, bigints, absent as 0. */
  equalInteger: (x: number, big: bigint, negated: boolean, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        return (typeof v === "number" ? v === x : typeof v === "bigint" ? v === big : x === 0) !== negated;
      }
      return general(d, f);
    },
  /** A typed string field `is empty` (absent and mistyped values read as ""). */
  emptyString: (negated: boolean, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        return (typeof v !== "string" || v.length === 0) !== negated;
      }
      return general(d, f);
    },
  /** `text in` a typed list of strings (an element that is not a string reads as ""). */
  inStrings: (text: string, negated: boolean, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        return (Array.isArray(v) && (text === "" ? readsEmpty(v) : v.includes(text))) !== negated;
      }
      return general(d, f);
    },
  /** A typed string field in a set of texts (none empty). */
  memberString: (set: ReadonlySet<unknown>, general: General): General =>
    (d, f) => (d != null && (d as Proto).__proto__ === OBJECT_PROTO ? set.has(READ) : general(d, f)),
  /** A typed string field equal to one of three texts (none empty; repeat one for two): three comparisons beat a set's lookup. */
  memberFewStrings: (a: string, b: string, c: string, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        return v === a || v === b || v === c;
      }
      return general(d, f);
    },
  /** A JSON value `== literal`: strings, and numbers and bools where the literal converts (`x`, `b`). */
  jsonEquals: (text: string, x: number | undefined, b: boolean | undefined, negated: boolean, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "string") return (v === text) !== negated;
        if (typeof v === "number" && x !== undefined) return (v === x) !== negated;
        if (typeof v === "boolean" && b !== undefined) return (v === b) !== negated;
      }
      return general(d, f);
    },
  /** A JSON value `== literal` where the literal converts to the bool `b` (its text `text`, its number `x` if any): bools first. */
  jsonEqualsBool: (text: string, x: number | undefined, b: boolean, negated: boolean, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (v === true || v === false) return (v === b) !== negated;
        if (typeof v === "string") return (v === text) !== negated;
        if (typeof v === "number" && x !== undefined) return (v === x) !== negated;
      }
      return general(d, f);
    },
  /** A JSON value `== literal` where the literal converts to the number `x` and to no bool: numbers first. */
  jsonEqualsNumber: (text: string, x: number, negated: boolean, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "number") return (v === x) !== negated;
        if (typeof v === "string") return (v === text) !== negated;
      }
      return general(d, f);
    },
  /** `text in` a JSON value: a string (when `inStrings`: the text holds no raw bytes), or a list whose elements before the first equal to `text` are strings; anything else generally. */
  jsonIn: (text: string, inStrings: boolean, negated: boolean, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "string") {
          if (inStrings) return v.includes(text) !== negated;
        } else if (Array.isArray(v)) {
          for (let i = 0; i < v.length; i++) {
            const e: unknown = v[i];
            if (e === text) return !negated;
            if (typeof e !== "string") return general(d, f);
          }
          return negated;
        }
      }
      return general(d, f);
    },
  /** A JSON value `is empty`: strings and lists; anything else (and absent keys) generally. */
  jsonEmpty: (negated: boolean, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "string" || Array.isArray(v)) return (v.length === 0) !== negated;
      }
      return general(d, f);
    },
  /** A JSON value in a set of texts (none empty); values that are not strings generally. */
  memberJson: (set: ReadonlySet<unknown>, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "string") return set.has(v);
      }
      return general(d, f);
    },
  /** A JSON value equal to one of three texts (none empty; repeat one for two); values that are not strings generally. */
  memberFewJson: (a: string, b: string, c: string, general: General): General =>
    (d, f) => {
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO) {
        const v = READ;
        if (typeof v === "string") return v === a || v === b || v === c;
      }
      return general(d, f);
    },
};

/** The column step of one field (`KEY`): replaces each entry of a column by the value of the key in it when it is a plain object, else by `NOT_PLAIN`. */
export const COLUMN_STEP = (col: unknown[], n: number): void => {
    for (let i = 0; i < n; i++) {
      const v = col[i];
      col[i] = v != null && (v as Proto).__proto__ === OBJECT_PROTO ? (v as Rec)[KEY] : NOT_PLAIN;
    }
  };

/** One slot of closure copies (`Clones`): each factory's returned arrow is the site that is copied. */
export const CLONE_SLOT: Clones = {
  entry: (run, slow, meter) => (d, budget) => (budget === undefined && meter.budget === undefined ? run(d) : slow(d, budget)),
  // The compiled entry is a parameter (a `let` would cost a check for its temporal dead zone at each
  // call); one declared parameter, so that `evaluate(d)` passes as many arguments as it declares
  // (fewer make V8 pad the call): a budget, when given, is the second argument.
  // The first call answers through `first` (the interpreter: a filter run once costs no closures),
  // the second compiles the program.
  lazy: (compile, first) =>
    ((run: Entry | undefined, calls: number) =>
      function (this: unknown, d: unknown): boolean {
        // eslint-disable-next-line prefer-rest-params
        const budget = arguments.length > 1 ? (arguments[1] as EvaluationBudget | undefined) : undefined;
        if (run === undefined) {
          if (calls++ === 0) return first(d, budget);
          run = compile();
        }
        return run(d, budget);
      } as Entry)(undefined, 0),
  count: (run) => (items) => {
    let n = 0;
    for (let i = 0; i < items.length; i++) if (run(items[i])) n++;
    return n;
  },
  and2: (a, b) => (d, f) => a(d, f) && b(d, f),
  or2: (a, b) => (d, f) => a(d, f) || b(d, f),
  and3: (a, b, c) => (d, f) => a(d, f) && b(d, f) && c(d, f),
  or3: (a, b, c) => (d, f) => a(d, f) || b(d, f) || c(d, f),
  and4: (a, b, c, e) => (d, f) => a(d, f) && b(d, f) && c(d, f) && e(d, f),
  or4: (a, b, c, e) => (d, f) => a(d, f) || b(d, f) || c(d, f) || e(d, f),
  andN: (runs) => (d, f) => {
    for (let i = 0; i < runs.length; i++) if (!runs[i]!(d, f)) return false;
    return true;
  },
  orN: (runs) => (d, f) => {
    for (let i = 0; i < runs.length; i++) if (runs[i]!(d, f)) return true;
    return false;
  },
  not: (run) => (d, f) => !run(d, f),
  path1: (k0, absentIsZero, test, negated, general) => (d, f) => {
    if (!(d != null && (d as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
    const x = (d as Rec)[k0];
    return x === undefined && !absentIsZero ? general(d, f) : test(x) !== negated;
  },
  path2: (k0, k1, absentIsZero, test, negated, general) => (d, f) => {
    if (!(d != null && (d as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
    const v = (d as Rec)[k0];
    if (!(v != null && (v as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
    const x = (v as Rec)[k1];
    return x === undefined && !absentIsZero ? general(d, f) : test(x) !== negated;
  },
  path3: (k0, k1, k2, absentIsZero, test, negated, general) => (d, f) => {
    if (!(d != null && (d as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
    const v = (d as Rec)[k0];
    if (!(v != null && (v as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
    const w = (v as Rec)[k1];
    if (!(w != null && (w as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
    const x = (w as Rec)[k2];
    return x === undefined && !absentIsZero ? general(d, f) : test(x) !== negated;
  },
  path4: (k0, k1, k2, k3, absentIsZero, test, negated, general) => (d, f) => {
    if (!(d != null && (d as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
    const v = (d as Rec)[k0];
    if (!(v != null && (v as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
    const w = (v as Rec)[k1];
    if (!(w != null && (w as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
    const y = (w as Rec)[k2];
    if (!(y != null && (y as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
    const x = (y as Rec)[k3];
    return x === undefined && !absentIsZero ? general(d, f) : test(x) !== negated;
  },
  pathN: (keys, absentIsZero, test, negated, general) => {
    const n = keys.length - 1;
    const last = keys[n]!;
    return (d, f) => {
      let v: unknown = d;
      for (let i = 0; i < n; i++) {
        if (!(v != null && (v as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
        v = (v as Rec)[keys[i]!];
      }
      if (!(v != null && (v as Proto).__proto__ === OBJECT_PROTO)) return general(d, f);
      const x = (v as Rec)[last];
      return x === undefined && !absentIsZero ? general(d, f) : test(x) !== negated;
    };
  },
};
