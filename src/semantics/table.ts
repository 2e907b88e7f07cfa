/**
 * The one table of operator semantics: for each base operation (`OPERATORS` maps the twelve match
 * operators onto five) and each kind of value, whether the kind is accepted, the literal conversion
 * it needs first, the test built once from the converted literal, whether that test can still fail,
 * and its cost. The interpreter (`applyOperator`), the static checker (`impossibleOn`), the compiler
 * and its fast paths (`kindTest`, `dispatchTest`, `staticTest`) read it; nothing else restates what
 * an operator means on a kind. Adding a base operation or a kind is one entry here.
 */
import type { EvaluationErrorCode } from "../errors.js";
import { evaluationError } from "../messages.js";
import { bytesInclude } from "../syntax/strings.js";
import type { Pattern } from "./pattern.js";
import { typeName, type Type } from "./schema.js";
import { concrete } from "./path.js";
import { isObject, kindOf, typed, type Kind } from "./select.js";
import { isFailure, type LiteralValue } from "./values.js";
import { conversionError, describeKind, regexError, type Site } from "./match-errors.js";

/** A test of one value: true/false, or throws an evaluation error. */
export type Test = (v: unknown) => boolean;

/** The Go types a literal converts to. */
export type LiteralTarget = "int" | "uint" | "float" | "bool";

/** What a test is built from, once per match. */
export interface TestInput {
  readonly site: Site;
  /** The static type of the value (`any` for JSON); lists read their elements through it. */
  readonly type: Type;
  readonly lit: LiteralValue;
  /** The compiled pattern, for `matches`. */
  readonly pattern: Pattern | undefined;
}

/** What one base operation does on values of one kind. */
export interface KindEntry {
  /**
   * The literal is converted to this Go type before anything else (the reference converts first):
   * a failure is an `invalid-literal` error, even on a kind that is not accepted.
   */
  readonly literal?: LiteralTarget;
  /**
   * Absent: the kind is not accepted (the operation's error). Else builds the test from the converted
   * literal (`converted`, of the `literal` type). The test reads values as `typed` gives them, and also
   * raw values of a record field (absent or mistyped values read as the kind's zero value). Building
   * throws the error that every value of the kind would raise (a list whose elements are not comparable).
   */
  readonly test?: (m: TestInput, converted: bigint | number | boolean | undefined) => Test;
  /** The built test can throw on some values of static type `type` (list elements known only at run time). */
  readonly fallible?: (type: Type) => boolean;
  /** Relative cost of the built test, for ordering operands that cannot fail. */
  readonly cost: number | ((type: Type) => number);
  /** The list's elements are tested by this operation's entry for their kind (checked statically too). */
  readonly elements?: "equal";
}

/** One base operation. */
export interface Operation {
  /** The error when the value's kind is not accepted. */
  readonly code: EvaluationErrorCode;
  /** What the error says after `<selector> is <kind>; <op> `. */
  readonly needs: string;
  /** What the static checker says the operator needs (`<op> needs ...`). */
  readonly staticNeeds: string;
  /** The cost when the kind is known only at run time (the test dispatches on it). */
  readonly cost: number;
  readonly kinds: Readonly<Partial<Record<Kind, KindEntry>>>;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** The equality entries, shared by `equal` and the elements of lists under `in`. */
const EQUAL_KINDS: Readonly<Partial<Record<Kind, KindEntry>>> = {
  string: {
    cost: 1,
    test: ({ lit: { text } }) => (text === "" ? (v) => typeof v !== "string" || v === "" : (v) => v === text),
  },
  int: { literal: "int", cost: 1, test: (_, n) => intTest(n as bigint) },
  uint: { literal: "uint", cost: 1, test: (_, n) => intTest(n as bigint) },
  float: {
    literal: "float",
    cost: 1,
    test: (_, c) => {
      const x = c as number;
      return (v) => (typeof v === "number" || typeof v === "bigint" ? Number(v) === x : x === 0);
    },
  },
  bool: { literal: "bool", cost: 1, test: (_, b) => (b ? (v) => v === true : (v) => v !== true) },
};

/** Exact equality of an integer (number or bigint; anything else reads as 0) with `n`. */
function intTest(n: bigint): Test {
  const x = Number(n);
  // Beyond 2^53 a number cannot hold the literal: compare exactly through BigInt.
  if (!Number.isSafeInteger(x)) return (v) => (typeof v === "bigint" ? v === n : typeof v === "number" && Number.isInteger(v) && BigInt(v) === n);
  return (v) => (typeof v === "number" ? v === x : typeof v === "bigint" ? v === n : x === 0);
}

/** The table: one entry per base operation, one per kind inside it. */
const TABLE = {
  equal: {
    code: "not-comparable",
    needs: "compares only strings, numbers and bools",
    staticNeeds: "a string, number or bool",
    cost: 2,
    kinds: EQUAL_KINDS,
  },
  in: {
    code: "cannot-contain",
    needs: "needs a string, a list or a map",
    staticNeeds: "a string, a list or a map",
    cost: 5,
    kinds: {
      string: {
        cost: 2,
        // Go compares bytes: a literal with raw bytes (`"\xc3"`) may be part of a character.
        test: ({ lit: { text, raw } }) =>
          raw ? (v) => typeof v === "string" && bytesInclude(v, text) : text === "" ? () => true : (v) => typeof v === "string" && v.includes(text),
      },
      map: {
        cost: 2,
        // (`hasOwnProperty` stays fast on objects of many shapes, as maps are; a `__proto__` check does not.)
        test: ({ lit: { text } }) => (v) => isObject(v) && hasOwn.call(v, text),
      },
      list: { cost: 4, elements: "equal", fallible: (t) => concrete(elementOf(t)).kind === "any", test: (m) => listContains(m) },
      // The reference converts the literal to the value's type, then fails.
      int: { literal: "int", cost: 0 },
      uint: { literal: "uint", cost: 0 },
      float: { literal: "float", cost: 0 },
      bool: { literal: "bool", cost: 0 },
    },
  },
  empty: {
    code: "cannot-test-empty",
    needs: "needs a string, a list or a map",
    staticNeeds: "a string, a list or a map",
    cost: 2,
    kinds: {
      string: { cost: 2, test: () => (v) => typeof v !== "string" || v.length === 0 },
      list: { cost: 2, test: () => (v) => !Array.isArray(v) || v.length === 0 },
      map: {
        cost: 2,
        test: () => (v) => {
          if (!isObject(v)) return true;
          for (const k in v) if (hasOwn.call(v, k)) return false;
          return true;
        },
      },
    },
  },
  nil: {
    code: "cannot-test-nil",
    needs: "needs a record, a list, a map or a value that may be null",
    staticNeeds: "a record, a list, a map or a value that may be null",
    cost: 1,
    kinds: {
      invalid: { cost: 1, test: () => () => true },
      list: { cost: 1, test: () => (v) => !Array.isArray(v) },
      map: { cost: 1, test: () => (v) => !isObject(v) },
      record: { cost: 1, test: () => () => false },
    },
  },
  matches: {
    code: "cannot-match",
    needs: "needs a string",
    staticNeeds: "a string",
    cost: 10,
    kinds: {
      string: {
        cost: 10,
        test: ({ site, pattern }) => {
          if (pattern!.error !== undefined) throw regexError(site, pattern!);
          const p = pattern!;
          const empty = p.test("");
          return (v) => (typeof v === "string" ? p.test(v) : empty);
        },
      },
    },
  },
} satisfies Readonly<Record<string, Operation>>;

/** A base operation: a key of the table. */
export type BaseOp = keyof typeof TABLE;

/** The table, each entry read as an `Operation`. */
export const OPERATIONS: Readonly<Record<BaseOp, Operation>> = TABLE;


function elementOf(type: Type): Type {
  const c = concrete(type);
  return c.kind === "list" ? c.elem : c;
}

/** `in` on a list: an element equal to the literal, each element tested by its kind's `equal` entry. */
function listContains(m: TestInput): Test {
  const elemType = elementOf(m.type);
  const elem = concrete(elemType);
  if (elem.kind === "any") return containsDynamic(m);
  const entry = OPERATIONS.equal.kinds[elem.kind as Kind];
  const converted = entry?.literal === undefined ? undefined : convert(m.site, m.lit, entry.literal);
  if (entry?.test === undefined) {
    throw evaluationError(m.site, "not-comparable", { selector: m.site.selector, relation: "is a list of", kind: typeName(elemType), op: m.site.op, needs: OPERATIONS.equal.needs });
  }
  const test = entry.test(m, converted);
  if (elem.kind === "string" && elemType.kind === "string") {
    // An element that is not a string (null) reads as "", as in the reference.
    const text = m.lit.text;
    return text === "" ? (v) => Array.isArray(v) && readsEmpty(v) : (v) => Array.isArray(v) && v.includes(text);
  }
  if (elemType.kind === "pointer") {
    // A nil element equals no literal.
    return (v) => Array.isArray(v) && v.some((e) => e != null && test(typed(elemType, e)));
  }
  return (v) => Array.isArray(v) && v.some((e) => test(typed(elemType, e)));
}

/** True when an element of a list of strings reads as "": "" itself or anything that is not a string. */
export function readsEmpty(list: readonly unknown[]): boolean {
  for (let i = 0; i < list.length; i++) {
    const e = list[i];
    if (typeof e !== "string" || e === "") return true;
  }
  return false;
}

const ANY: Type = { kind: "any" };

/** `in` over a JSON list: each element compared by its own kind; texts that do not parse are skipped. */
function containsDynamic({ site, lit }: TestInput): Test {
  const text = lit.text;
  return (v) => {
    if (!Array.isArray(v)) return false;
    for (const e of v) {
      switch (typeof e) {
        case "string":
          if (e === text) return true;
          break;
        case "number":
        case "bigint": {
          const x = lit.float;
          if (isFailure(x)) {
            if (x.failure === "syntax") break;
            throw conversionError(site, x);
          }
          if (Number(e) === x) return true;
          break;
        }
        case "boolean": {
          const b = lit.bool;
          if (!isFailure(b) && e === b) return true;
          break;
        }
        default:
          throw evaluationError(site, "not-comparable", { selector: site.selector, relation: "holds", kind: describeKind(kindOf(ANY, e ?? null)), op: site.op, needs: OPERATIONS.equal.needs });
      }
    }
    return false;
  };
}

/** The literal converted to `target`, or the evaluation error. */
function convert(site: Site, lit: LiteralValue, target: LiteralTarget): bigint | number | boolean {
  const v = lit[target];
  if (isFailure(v)) throw conversionError(site, v);
  return v;
}

/**
 * The test of `base` for values of kind `kind` (the interpreter and the compiler's per-kind tests):
 * converts the literal, raises the operation's error for a kind it does not accept, and builds the
 * entry's test. Throws the evaluation error every value of the kind would raise.
 */
export function kindTest(base: BaseOp, kind: Kind, m: TestInput): Test {
  const op = OPERATIONS[base];
  const entry = op.kinds[kind];
  const converted = entry?.literal === undefined ? undefined : convert(m.site, m.lit, entry.literal);
  if (entry?.test === undefined) throw evaluationError(m.site, op.code, { selector: m.site.selector, relation: "is", kind: describeKind(kind), op: m.site.op, needs: op.needs });
  return entry.test(m, converted);
}

/** `kindTest`, with a building error turned into a test that raises it. */
function lazyKindTest(base: BaseOp, kind: Kind, m: TestInput): Test {
  try {
    return kindTest(base, kind, m);
  } catch (err) {
    return () => {
      throw err;
    };
  }
}

/**
 * The base operation `base` on one value of type `type`: the interpreter's dispatch (it builds the
 * test for the value's kind each time; compiled code builds it once).
 */
export function applyOperator(base: BaseOp, site: Site, type: Type, value: unknown, lit: LiteralValue, pattern: Pattern | undefined): boolean {
  return kindTest(base, kindOf(type, value), { site, type, lit, pattern })(value);
}

/**
 * A test for values of static type `m.type` whose kind is found at run time (JSON values, nullable
 * values): each kind's test is built on first use and kept.
 */
export function dispatchTest(base: BaseOp, m: TestInput): Test {
  const type = m.type;
  const tests: Partial<Record<Kind, Test>> = {};
  if (type.kind === "any") {
    let s: Test | undefined, f: Test | undefined, b: Test | undefined, l: Test | undefined, o: Test | undefined;
    return (v) => {
      switch (typeof v) {
        case "string":
          return (s ??= lazyKindTest(base, "string", m))(v);
        case "number":
        case "bigint":
          return (f ??= lazyKindTest(base, "float", m))(v);
        case "boolean":
          return (b ??= lazyKindTest(base, "bool", m))(v);
        case "object":
          if (v !== null) return Array.isArray(v) ? (l ??= lazyKindTest(base, "list", m))(v) : (o ??= lazyKindTest(base, "map", m))(v);
      }
      return (tests.invalid ??= lazyKindTest(base, "invalid", m))(v);
    };
  }
  return (v) => {
    const kind = kindOf(type, v);
    return (tests[kind] ??= lazyKindTest(base, kind, m))(v);
  };
}

/** The kinds a value of static type `type` can have, or undefined for `any`. */
function kindsOf(type: Type): Kind[] | undefined {
  const c = concrete(type);
  if (c.kind === "any") return undefined;
  const kind = c.kind as Kind;
  return type.kind === "pointer" ? ["invalid", kind] : [kind];
}

/** A test that cannot fail, and its cost. */
export interface StaticTest {
  readonly test: Test;
  readonly cost: number;
}

/**
 * The test of `base` on static type `m.type` when it can never throw (every kind the type allows is
 * accepted, its literal converts, its test cannot fail), with its cost; undefined otherwise.
 */
export function staticTest(base: BaseOp, m: TestInput): StaticTest | undefined {
  const type = m.type;
  const c = concrete(type);
  if (c.kind === "any") return undefined;
  const one = knownKindTest(base, c.kind as Kind, m);
  if (one === undefined || type.kind !== "pointer") return one;
  const nil = knownKindTest(base, "invalid", m);
  if (nil === undefined) return undefined;
  const [n, other] = [nil.test, one.test];
  return { test: (v) => (v == null ? n(v) : other(v)), cost: Math.max(nil.cost, one.cost) };
}

/** The entry's test for `kind` when it is accepted, its literal converts, and it cannot fail on `m.type`. */
function knownKindTest(base: BaseOp, kind: Kind, m: TestInput): StaticTest | undefined {
  const entry = OPERATIONS[base].kinds[kind];
  if (entry?.test === undefined || entry.fallible?.(m.type)) return undefined;
  let test: Test;
  try {
    test = kindTest(base, kind, m);
  } catch {
    return undefined;
  }
  return { test, cost: typeof entry.cost === "number" ? entry.cost : entry.cost(m.type) };
}

/** Why a match of `base` can never evaluate without error on static type `type`, if it cannot. */
export type Impossibility =
  | { readonly problem: "not-applicable"; readonly needs: string }
  | { readonly problem: "invalid-literal"; readonly target: LiteralTarget };

/**
 * The static checker's question: can `base` with literal `lit` never succeed on a value of static
 * type `type`? Not applicable when no kind the type allows is accepted; an invalid literal when the
 * only kind (not nullable) needs a conversion that fails. Nullable values and JSON are not judged
 * on their literal (a null may answer first).
 */
export function impossibleOn(base: BaseOp, type: Type, lit: LiteralValue): Impossibility | undefined {
  const kinds = kindsOf(type);
  if (kinds === undefined) return undefined;
  const op = OPERATIONS[base];
  if (kinds.every((k) => op.kinds[k]?.test === undefined)) return { problem: "not-applicable", needs: op.staticNeeds };
  if (kinds.length > 1) return undefined;
  const entry = op.kinds[kinds[0]!]!;
  if (entry.literal !== undefined && isFailure(lit[entry.literal])) return { problem: "invalid-literal", target: entry.literal };
  if (entry.elements !== undefined) {
    const elem = concrete(elementOf(type));
    if (elem.kind === "any") return undefined;
    const e = OPERATIONS[entry.elements].kinds[elem.kind as Kind];
    if (e?.test === undefined) return { problem: "not-applicable", needs: `a list of ${ELEMENT_NEEDS[entry.elements]}` };
    if (e.literal !== undefined && isFailure(lit[e.literal])) return { problem: "invalid-literal", target: e.literal };
  }
  return undefined;
}

const ELEMENT_NEEDS: Readonly<Partial<Record<BaseOp, string>>> = { equal: "strings, numbers or bools" };
