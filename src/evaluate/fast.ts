/**
 * Fused fast paths for the commonest matches: one field read and one test in a single closure, taken
 * when the datum is a plain object (so a key read is an own property or `undefined`). Everything else
 * (other data, other types, anything that could raise an error) goes to the general closure the fast
 * path was built on, so answers and errors stay identical.
 *
 * Each fast path comes in two forms: a closure per item (`evaluate`), and a loop over a chunk of
 * items (`filter`, `batch.ts`) that reads the field of every selected item into a column first
 * (`columns.ts`) and then tests the column, the test written out in the loop.
 */
import type { MatchExpr } from "../syntax/ast.js";
import { OPERATORS } from "../semantics/operators.js";
import { dispatchTest, readsEmpty, staticTest, type BaseOp, type StaticTest, type TestInput } from "../semantics/table.js";
import type { Type } from "../semantics/schema.js";
import { pathFrom } from "../semantics/path.js";
import { membershipFusable } from "../semantics/facts.js";
import { isFailure, type LiteralValue } from "../semantics/values.js";
import type { Batch } from "./batch.js";
import { NOT_PLAIN, columnReader } from "./columns.js";
import { FIELD_TESTS, KEYED_TESTS, type FieldTests } from "./generated/field-tests.js";
import type { Clones } from "./generated/clones.js";

/** A compiled predicate over the raw datum (the frame is passed through to the general closure). */
export type RawPredicate<F> = (datum: unknown, frame?: F) => boolean;

/** A fast path: its closure per item, and its loop over a chunk (built on first use). */
export interface Fused<F> {
  readonly run: RawPredicate<F>;
  readonly batch: () => Batch;
}

const OBJECT_PROTO = Object.prototype;

/**
 * `text` as V8's internalized (unique) copy, the one a property key of that name holds. The data's
 * strings mostly are (JSON.parse and literals internalize short strings), and `===` between two
 * internalized strings is one pointer comparison; a literal sliced from the expression's source is
 * not, and each comparison with it compares characters (measured on Q1: 2.0× a hand-written test
 * against 1.2×). The value is the same string.
 */
export function internalized(text: string): string {
  const o: Record<string, number> = Object.create(null);
  o[text] = 0;
  for (const k in o) return k;
  return text;
}

/** A value test for one field. */
type FieldTest = (v: unknown) => boolean;

/**
 * A datum is *plain* when it is an object whose prototype is `Object.prototype`: reading a key that
 * `Object.prototype` lacks then returns an own property or `undefined`. The check,
 * `v != null && (v as Proto).__proto__ === OBJECT_PROTO`, is written out in each closure (here, in
 * the generated ones and in the column steps) rather than called: V8 folds `__proto__` to a constant per object shape, but only while the load site sees few
 * shapes, and one shared helper would see them all. (An own data property named `__proto__` fails the
 * check, so the exact path is taken.)
 */
type Proto = { __proto__?: unknown };
type Rec = Record<string, unknown>;

/**
 * The fused predicate for `e` when its selector is one top-level key (not bound by a collection) and
 * its operator has a fast test for the field's static type (`root` is the schema's record) or for the
 * value's kind (`root` is `any`). `m` is the match's test input for its operand's static type, and
 * `known` the table's infallible test for it, if any. Returns undefined when no fast path applies.
 */
export function fastMatch<F>(
  e: MatchExpr,
  root: Type,
  negate: boolean,
  m: TestInput,
  known: StaticTest | undefined,
  general: RawPredicate<F>,
  clones: Clones,
): Fused<F> | undefined {
  const keys = e.selector.segments.map((s) => s.name);
  if (keys.some((k) => k in OBJECT_PROTO)) return undefined;
  const info = OPERATORS[e.op];
  const negated = info.negated !== negate;
  if (root.kind === "record") {
    // Every step a record field or a map key (through pointers); the last one's container decides
    // whether an absent key is a zero value (field) or a missing key (map).
    const path = pathFrom(root, keys);
    if (!path.fieldsAndKeys || path.type === undefined) return undefined;
    // Only tests the table says cannot fail on the field's type (they read raw values as `typed` does).
    const test = path.type === m.type ? known : staticTest(info.base, { ...m, type: path.type });
    if (!test) return undefined;
    const absentIsZero = path.steps[keys.length - 1]!.container === "record";
    return typedField(keys, absentIsZero, info.base, path.type, m.lit, test.test, negated, general, clones) ?? pathPredicate(keys, absentIsZero, test.test, negated, general, clones);
  }
  if (root.kind === "any") {
    if (keys.length === 1 && info.base === "equal") return dynamicEquals(keys[0]!, m.lit, negated, general);
    if (keys.length === 1 && info.base === "empty") return dynamicEmpty(keys[0]!, negated, general);
    if (keys.length === 1 && info.base === "in") return dynamicIn(keys[0]!, internalized(m.lit.text), !m.lit.raw, negated, general);
    // The table's test dispatching on the JSON value's kind: its errors are the general closure's.
    return pathPredicate(keys, false, dispatchTest(info.base, { ...m, type: ANY }), negated, general, clones);
  }
  return undefined;
}

const ANY: Type = { kind: "any" };

/** The fused test `name` for one key: generated for the built-in schemas' field names, else reading the key as a variable. */
function testsOf<K extends keyof FieldTests>(key: string, name: K): FieldTests[K] {
  return FIELD_TESTS.get(key)?.[name] ?? KEYED_TESTS[name];
}

/**
 * A path of plain objects (one key or more) read in one loop, then tested; anything else takes the
 * general closure: a non-plain object on the way, and an absent last key when `absentIsZero` is false
 * (a key missing from a map, or from a JSON object: the general closure knows the operator's fixed
 * answer or the error). Typed record fields pass `absentIsZero`: their tests read `undefined` as the
 * zero value.
 */
function pathPredicate<F>(keys: readonly string[], absentIsZero: boolean, test: FieldTest, negated: boolean, general: RawPredicate<F>, clones: Clones): Fused<F> {
  return { run: pathRun(keys, absentIsZero, test, negated, general, clones), batch: () => columnLoop(keys, absentIsZero, general, (x) => test(x) !== negated) };
}

/** The closure per item of `pathPredicate`: the program's copy of the path read of that length. */
function pathRun<F>(keys: readonly string[], absentIsZero: boolean, test: FieldTest, negated: boolean, general: RawPredicate<F>, clones: Clones): RawPredicate<F> {
  const [k0, k1, k2, k3] = keys as [string, string, string, string];
  switch (keys.length) {
    case 1:
      return clones.path1(k0, absentIsZero, test, negated, general);
    case 2:
      return clones.path2(k0, k1, absentIsZero, test, negated, general);
    case 3:
      return clones.path3(k0, k1, k2, absentIsZero, test, negated, general);
    case 4:
      return clones.path4(k0, k1, k2, k3, absentIsZero, test, negated, general);
    default:
      return clones.pathN(keys, absentIsZero, test, negated, general);
  }
}

/**
 * The loop over a chunk that tests the column of `keys` with `accept`; entries the fast path does not
 * decide (`NOT_PLAIN`, and `undefined` unless `absentIsZero`) go to `general`. For tests that are not
 * written out in a loop of their own.
 */
function columnLoop<F>(keys: readonly string[], absentIsZero: boolean, general: RawPredicate<F>, accept: (x: unknown) => boolean): Batch {
  const column = columnReader(keys);
  return (items, sel, n) => {
    const col = column(items, sel, n);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const x = col[i];
      if (x === NOT_PLAIN || (x === undefined && !absentIsZero) ? general(items[sel[i]!]) : accept(x)) sel[k++] = sel[i]!;
    }
    return k;
  };
}

/**
 * A typed field (one key), or a path of record fields and map keys, with the commonest of the table's
 * tests (equal on strings, bools and integers, empty on strings, in on lists of strings) written out,
 * so that no test function is called: per item, the field's generated closure (`field-tests.ts`,
 * whose property reads see one field's objects); per chunk, a loop over the column. Taken only where
 * the table's test cannot fail; the differential law checks each against the table's. Absent or
 * mistyped values read as the field's zero value, as `typed` reads them. A path of more than one key
 * is read per item by `pathRun`, with `test` (the table's test for the type).
 */
function typedField<F>(
  keys: readonly string[],
  absentIsZero: boolean,
  base: BaseOp,
  type: Type,
  lit: LiteralValue,
  test: FieldTest,
  negated: boolean,
  general: RawPredicate<F>,
  clones: Clones,
): Fused<F> | undefined {
  const text = internalized(lit.text);
  const key = keys.length === 1 ? keys[0]! : undefined;
  const undecided = absentIsZero ? isNotPlain : isNotPlainOrAbsent;
  if (base === "equal" && type.kind === "string" && text !== "") {
    // The table's test for a text that is not empty (`v === text`), with the internalized text.
    const same = (v: unknown): boolean => v === text;
    return {
      run: key === undefined ? pathRun(keys, absentIsZero, same, negated, general, clones) : testsOf(key, "equalString")(key, text, negated, general),
      batch: () => identityLoop(keys, text, !negated, undecided, general),
    };
  }
  if (base === "equal" && type.kind === "bool" && !isFailure(lit.bool)) {
    const b = lit.bool === negated;
    return {
      run: key === undefined ? pathRun(keys, absentIsZero, test, negated, general, clones) : testsOf(key, "equalBool")(key, b, general),
      batch: () => identityLoop(keys, true, !b, undecided, general),
    };
  }
  if (base === "equal" && (type.kind === "int" || type.kind === "uint")) {
    const big = lit[type.kind];
    if (isFailure(big) || !Number.isSafeInteger(Number(big))) return undefined;
    const x = Number(big);
    return {
      run: key === undefined ? pathRun(keys, absentIsZero, test, negated, general, clones) : testsOf(key, "equalInteger")(key, x, big, negated, general),
      batch: () => {
        const column = columnReader(keys);
        const equal = (v: unknown): boolean => (typeof v === "bigint" ? v === big : x === 0);
        return (items, sel, n) => {
          const col = column(items, sel, n);
          let k = 0;
          for (let i = 0; i < n; i++) {
            const v = col[i];
            if (typeof v === "number" ? (v === x) !== negated : undecided(v) ? general(items[sel[i]!]) : equal(v) !== negated) sel[k++] = sel[i]!;
          }
          return k;
        };
      },
    };
  }
  if (base === "empty" && type.kind === "string") {
    return {
      run: key === undefined ? pathRun(keys, absentIsZero, test, negated, general, clones) : testsOf(key, "emptyString")(key, negated, general),
      batch: () => columnLoop(keys, absentIsZero, general, (v) => (typeof v !== "string" || v.length === 0) !== negated),
    };
  }
  if (base === "in" && type.kind === "list" && type.elem.kind === "string") {
    // An element of a typed list of strings that is not a string (null) reads as "", as in the reference.
    const empty = text === "";
    return {
      run: key === undefined ? pathRun(keys, absentIsZero, test, negated, general, clones) : testsOf(key, "inStrings")(key, text, negated, general),
      batch: () => columnLoop(keys, absentIsZero, general, (v) => (Array.isArray(v) && (empty ? readsEmpty(v) : v.includes(text))) !== negated),
    };
  }
  return undefined;
}

/**
 * The loop over a chunk for a test that is one identity: an entry that is `target` answers `hit`,
 * one the fast path does not decide goes to `general`, any other answers `!hit` (a typed string or
 * bool field, where every other value reads as a value that differs).
 */
function identityLoop<F>(keys: readonly string[], target: unknown, hit: boolean, undecided: (v: unknown) => boolean, general: RawPredicate<F>): Batch {
  const column = columnReader(keys);
  return (items, sel, n) => {
    const col = column(items, sel, n);
    let k = 0;
    for (let i = 0; i < n; i++) {
      const v = col[i];
      if (v === target ? hit : undecided(v) ? general(items[sel[i]!]) : !hit) sel[k++] = sel[i]!;
    }
    return k;
  };
}

/** Whether the general closure decides a column entry: for typed fields, where absent is zero. */
const isNotPlain = (v: unknown): boolean => v === NOT_PLAIN;
/** The same, for map keys and JSON, where absent is missing. */
const isNotPlainOrAbsent = (v: unknown): boolean => v === NOT_PLAIN || v === undefined;

/**
 * A chunk's loop over the column of one key whose entries `decide` answers (true, false), or leaves
 * to the general closure (undefined): for tests on JSON values, which decide only some kinds.
 */
function decidingLoop<F>(key: string, general: RawPredicate<F>, decide: (v: unknown) => boolean | undefined): Batch {
  const column = columnReader([key]);
  return (items, sel, n) => {
    const col = column(items, sel, n);
    let k = 0;
    for (let i = 0; i < n; i++) {
      if (decide(col[i]) ?? general(items[sel[i]!])) sel[k++] = sel[i]!;
    }
    return k;
  };
}

/** `key is empty` on JSON: strings and lists inline; anything else (and absent keys) generally. */
function dynamicEmpty<F>(key: string, negated: boolean, general: RawPredicate<F>): Fused<F> {
  return {
    run: testsOf(key, "jsonEmpty")(key, negated, general),
    batch: () => decidingLoop(key, general, (v) => (typeof v === "string" || Array.isArray(v) ? (v.length === 0) !== negated : undefined)),
  };
}

/**
 * `text in key` (and `key contains text`) on JSON: a string (the table's substring test, unless the
 * text holds raw bytes, which Go compares byte by byte), and a list of strings inline (the table's
 * test compares each element by its own kind, and a string only by equality); anything else
 * generally, from the element that is not a string.
 */
function dynamicIn<F>(key: string, text: string, inStrings: boolean, negated: boolean, general: RawPredicate<F>): Fused<F> {
  return {
    run: testsOf(key, "jsonIn")(key, text, inStrings, negated, general),
    batch: () =>
      decidingLoop(key, general, (v) => {
        if (typeof v === "string") return inStrings ? v.includes(text) !== negated : undefined;
        if (!Array.isArray(v)) return undefined;
        for (let i = 0; i < v.length; i++) {
          const e: unknown = v[i];
          if (e === text) return !negated;
          if (typeof e !== "string") return undefined;
        }
        return negated;
      }),
  };
}

/** `key == literal` on JSON: strings (the common case) inline; numbers and bools by their conversions. */
function dynamicEquals<F>(key: string, lit: LiteralValue, negated: boolean, general: RawPredicate<F>): Fused<F> {
  const text = internalized(lit.text);
  const x = isFailure(lit.float) ? undefined : lit.float;
  const b = isFailure(lit.bool) ? undefined : lit.bool;
  const batch = (): Batch => {
    const read = columnReader([key]);
    /** The answer for a value that is not a string, or undefined when the general closure decides. */
    const answer = (v: unknown): boolean | undefined => {
      if (typeof v === "number" && x !== undefined) return (v === x) !== negated;
      if (typeof v === "boolean" && b !== undefined) return (v === b) !== negated;
      return undefined;
    };
    return (items, sel, n) => {
      const col = read(items, sel, n);
      let k = 0;
      for (let i = 0; i < n; i++) {
        const v = col[i];
        if (typeof v === "string" ? (v === text) !== negated : (answer(v) ?? general(items[sel[i]!]))) sel[k++] = sel[i]!;
      }
      return k;
    };
  };
  // The kind the literal names is tested first (the field likely holds it): a bool word, a number, else a string.
  const run =
    b !== undefined
      ? testsOf(key, "jsonEqualsBool")(key, text, x, b, negated, general)
      : x !== undefined
        ? testsOf(key, "jsonEqualsNumber")(key, text, x, negated, general)
        : testsOf(key, "jsonEquals")(key, text, x, b, negated, general);
  return { run, batch };
}

/**
 * `K == "a" or K == "b" or ...` on one top-level key (typed string field, or JSON): a membership test
 * in one closure. With a plain datum and a string value every operand's answer is an equality, so the
 * chain's answer is membership; anything else takes the general closure of the chain.
 */
export function fastMembership<F>(key: string, texts: readonly string[], typedString: boolean, general: RawPredicate<F>): Fused<F> | undefined {
  if (!membershipFusable(key, texts)) return undefined;
  texts = texts.map(internalized);
  const set = new Set<unknown>(texts);
  // Up to three texts are compared one by one (the third repeats the last when there are two).
  const few = set.size <= 3 ? ([texts[0]!, texts[1]!, texts[2] ?? texts[1]!] as const) : undefined;
  if (typedString) {
    return {
      run: few ? testsOf(key, "memberFewStrings")(key, ...few, general) : testsOf(key, "memberString")(key, set, general),
      batch: () => columnLoop([key], true, general, (v) => set.has(v)),
    };
  }
  return {
    run: few ? testsOf(key, "memberFewJson")(key, ...few, general) : testsOf(key, "memberJson")(key, set, general),
    batch: () => decidingLoop(key, general, (v) => (typeof v === "string" ? set.has(v) : undefined)),
  };
}
