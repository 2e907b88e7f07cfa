/**
 * The operator table: each match operator's base behaviour, whether it negates it, and its fixed
 * answer when the selector's last step is a key missing from a map. The per-kind behaviour of the
 * four base operations lives here too, shared by the interpreter and the compiler.
 */
import { FilterEvaluationError, type EvaluationErrorCode, type Span } from "../errors.js";
import type { Pattern } from "./regex.js";
import type { MatchOp } from "../syntax/ast.js";
import { bytesInclude, hasRawBytes } from "../syntax/strings.js";
import { typeName, type Type } from "./schema.js";
import { concrete, kindOf, typed, type Kind, type StepFailure } from "./select.js";
import { isFailure, parseBool, parseFloat64, parseInt64, parseUint64, type ConversionFailure, type Converted } from "./values.js";

export type BaseOp = "equal" | "in" | "empty" | "nil" | "matches";

export interface OperatorInfo {
  readonly base: BaseOp;
  /** The operator is the negation of its base (errors are not negated). */
  readonly negated: boolean;
  /** The answer when the last step of the selector is a key missing from a map. */
  readonly missing: boolean;
}

export const OPERATORS = {
  "==": { base: "equal", negated: false, missing: false },
  "!=": { base: "equal", negated: true, missing: true },
  contains: { base: "in", negated: false, missing: false },
  "not contains": { base: "in", negated: true, missing: true },
  in: { base: "in", negated: false, missing: false },
  "not in": { base: "in", negated: true, missing: true },
  matches: { base: "matches", negated: false, missing: false },
  "not matches": { base: "matches", negated: true, missing: true },
  "is empty": { base: "empty", negated: false, missing: true },
  "is not empty": { base: "empty", negated: true, missing: false },
  "is nil": { base: "nil", negated: false, missing: true },
  "is not nil": { base: "nil", negated: true, missing: false },
} as const satisfies Record<MatchOp, OperatorInfo>;

/** The answer of `any`/`all` over a collection whose last step is a key missing from a map. */
export const COLLECTION_MISSING = { any: false, all: true } as const;

/** Where a match stands in the source, for its errors. */
export interface Site {
  readonly source: string;
  readonly span: Span;
  /** The selector as written. */
  readonly selector: string;
  readonly op: MatchOp;
}

export function evalError(site: Pick<Site, "source" | "span">, code: EvaluationErrorCode, summary: string): FilterEvaluationError {
  return new FilterEvaluationError(code, summary, site.source, site.span);
}

/** A literal's text with its conversions to each Go type, computed once. */
export interface LiteralValue {
  readonly text: string;
  /** True when the text holds raw bytes (not valid UTF-8; see syntax/strings.ts). */
  readonly raw: boolean;
  readonly bool: Converted<boolean>;
  readonly int: Converted<bigint>;
  readonly uint: Converted<bigint>;
  readonly float: Converted<number>;
}

/** Conversions are computed on first use and kept: most literals only ever meet one type. */
class LazyLiteral implements LiteralValue {
  private b?: Converted<boolean>;
  private i?: Converted<bigint>;
  private u?: Converted<bigint>;
  private f?: Converted<number>;
  private r?: boolean;
  constructor(readonly text: string) {}
  get raw(): boolean {
    return (this.r ??= hasRawBytes(this.text));
  }
  get bool(): Converted<boolean> {
    return (this.b ??= parseBool(this.text));
  }
  get int(): Converted<bigint> {
    return (this.i ??= parseInt64(this.text));
  }
  get uint(): Converted<bigint> {
    return (this.u ??= parseUint64(this.text));
  }
  get float(): Converted<number> {
    return (this.f ??= parseFloat64(this.text));
  }
}

export function literalValue(text: string): LiteralValue {
  return new LazyLiteral(text);
}

const KIND_WORDS: Readonly<Record<Kind, string>> = {
  string: "a string",
  int: "a signed integer",
  uint: "an unsigned integer",
  float: "a number",
  bool: "a bool",
  list: "a list",
  map: "a map",
  record: "a record",
  invalid: "nil",
};

/** "Priority (a signed integer)" */
export function describeKind(kind: Kind): string {
  return KIND_WORDS[kind];
}

const TARGET_WORDS: Readonly<Record<ConversionFailure["target"], string>> = {
  bool: "bool (true, false, 1, 0, t, f, T, F, TRUE, FALSE, True, False)",
  int: "signed 64-bit integer",
  uint: "unsigned 64-bit integer",
  float: "number",
};

export function conversionError(site: Site, f: ConversionFailure): FilterEvaluationError {
  const why = f.failure === "range" ? "is out of range for" : "is not";
  return evalError(site, "invalid-literal", `${JSON.stringify(f.text)} ${why} a ${TARGET_WORDS[f.target]}, the type of ${site.selector}`);
}

/** The literal converted to a primitive kind, or an evaluation error. */
function convert(site: Site, lit: LiteralValue, kind: "int" | "uint" | "float" | "bool"): bigint | number | boolean {
  const v = lit[kind];
  if (isFailure(v)) throw conversionError(site, v);
  return v;
}

/** Exact equality of a data integer (number or bigint) with a converted literal. */
export function intEquals(data: unknown, lit: bigint): boolean {
  if (typeof data === "bigint") return data === lit;
  return typeof data === "number" && Number.isInteger(data) && BigInt(data) === lit;
}

/** `==`: the literal is converted to the value's kind (string, integer, number or bool). */
export function equal(site: Site, type: Type, value: unknown, lit: LiteralValue): boolean {
  const kind = kindOf(type, value);
  switch (kind) {
    case "string":
      return value === lit.text;
    case "int":
    case "uint":
      return intEquals(value, convert(site, lit, kind) as bigint);
    case "float":
      return Number(value) === convert(site, lit, "float");
    case "bool":
      return value === convert(site, lit, "bool");
    default:
      throw evalError(site, "not-comparable", `${site.selector} is ${describeKind(kind)}; ${site.op} compares only strings, numbers and bools`);
  }
}

/** Equality test of one element against the literal, for a known element kind. */
function elementTest(site: Site, kind: Kind, lit: LiteralValue): ((e: unknown) => boolean) | undefined {
  switch (kind) {
    case "string":
      return (e) => e === lit.text;
    case "int":
    case "uint": {
      const v = convert(site, lit, kind) as bigint;
      return (e) => intEquals(e, v);
    }
    case "float": {
      const v = convert(site, lit, "float") as number;
      return (e) => Number(e) === v;
    }
    case "bool": {
      const v = convert(site, lit, "bool");
      return (e) => e === v;
    }
    default:
      return undefined;
  }
}

/** `contains`/`in`: substring of a string, key of a map, element of a list. */
export function contains(site: Site, type: Type, value: unknown, lit: LiteralValue): boolean {
  const kind = kindOf(type, value);
  switch (kind) {
    case "string":
      // Go compares bytes: a literal with raw bytes (`"\xc3"`) may be part of a character.
      return lit.raw ? bytesInclude(value as string, lit.text) : (value as string).includes(lit.text);
    case "map":
      return value !== null && Object.prototype.hasOwnProperty.call(value, lit.text);
    case "list": {
      const c = concrete(type);
      const elemType = c.kind === "list" ? c.elem : c;
      const list = (value ?? []) as unknown[];
      if (concrete(elemType).kind === "any") return containsDynamic(site, list, lit);
      const elemKind = concrete(elemType).kind as Kind;
      const test = elementTest(site, elemKind, lit);
      if (test === undefined) {
        throw evalError(site, "not-comparable", `${site.selector} is a list of ${typeName(elemType)}; ${site.op} compares only strings, numbers and bools`);
      }
      for (const e of list) if (test(typed(elemType, e))) return true;
      return false;
    }
    case "int":
    case "uint":
    case "float":
    case "bool":
      // The reference converts the literal to the value's type first.
      convert(site, lit, kind);
      break;
  }
  throw evalError(site, "cannot-contain", `${site.selector} is ${describeKind(kind)}; ${site.op} needs a string, a list or a map`);
}

/** `in` over a JSON list: each element compared by its own kind; texts that do not parse are skipped. */
function containsDynamic(site: Site, list: readonly unknown[], lit: LiteralValue): boolean {
  for (const e of list) {
    switch (typeof e) {
      case "string":
        if (e === lit.text) return true;
        break;
      case "number":
      case "bigint": {
        const v = lit.float;
        if (isFailure(v)) {
          if (v.failure === "syntax") break;
          throw conversionError(site, v);
        }
        if (Number(e) === v) return true;
        break;
      }
      case "boolean": {
        const v = lit.bool;
        if (isFailure(v)) break;
        if (e === v) return true;
        break;
      }
      default: {
        const kind = kindOf({ kind: "any" }, e ?? null);
        throw evalError(site, "not-comparable", `${site.selector} holds ${describeKind(kind)}; ${site.op} compares only strings, numbers and bools`);
      }
    }
  }
  return false;
}

/** `is empty`: a string, list or map of length 0. */
export function isEmpty(site: Site, type: Type, value: unknown): boolean {
  const kind = kindOf(type, value);
  switch (kind) {
    case "string":
      return (value as string).length === 0;
    case "list":
      return value === null || (value as unknown[]).length === 0;
    case "map":
      if (value === null) return true;
      for (const k in value as object) if (Object.prototype.hasOwnProperty.call(value, k)) return false;
      return true;
    default:
      throw evalError(site, "cannot-test-empty", `${site.selector} is ${describeKind(kind)}; ${site.op} needs a string, a list or a map`);
  }
}

/** `is nil`: null, a nil pointer, list or map. */
export function isNil(site: Site, type: Type, value: unknown): boolean {
  const kind = kindOf(type, value);
  switch (kind) {
    case "invalid":
      return true;
    case "list":
    case "map":
      return value === null;
    case "record":
      return false;
    default:
      throw evalError(site, "cannot-test-nil", `${site.selector} is ${describeKind(kind)}; ${site.op} needs a record, a list, a map or a value that may be null`);
  }
}

/** `matches`: an RE2 search in a string. */
export function matches(site: Site, type: Type, value: unknown, pattern: Pattern): boolean {
  const kind = kindOf(type, value);
  if (kind !== "string") {
    throw evalError(site, "cannot-match", `${site.selector} is ${describeKind(kind)}; ${site.op} needs a string`);
  }
  if (pattern.error !== undefined) throw regexError(site, pattern);
  return pattern.test(value as string);
}

/**
 * The base operation `base` on a value of type `type` (the literal for equal/in, the pattern for
 * matches): the one dispatch both evaluators share.
 */
export function applyOperator(base: BaseOp, site: Site, type: Type, value: unknown, lit: LiteralValue, pattern: Pattern | undefined): boolean {
  switch (base) {
    case "equal":
      return equal(site, type, value, lit);
    case "in":
      return contains(site, type, value, lit);
    case "empty":
      return isEmpty(site, type, value);
    case "nil":
      return isNil(site, type, value);
    case "matches":
      return matches(site, type, value, pattern!);
  }
}

export function regexError(site: Pick<Site, "source" | "span">, pattern: Pattern): FilterEvaluationError {
  return evalError(site, "invalid-regex", `invalid regular expression ${JSON.stringify(pattern.source)}: ${pattern.error}`);
}

/** The error for a failed step of a selector walk. `parent` is the text of the path before the step. */
export function stepError(site: Pick<Site, "source" | "span">, parent: string, f: StepFailure): FilterEvaluationError {
  const where = parent === "" ? "the datum" : parent;
  switch (f.failure) {
    case "missing-key":
      return evalError(site, "missing-key", `${where} has no key ${JSON.stringify(f.key)}`);
    case "unknown-field":
      return evalError(site, "unknown-field", `${JSON.stringify(f.key)} is not a field of ${f.record}${parent ? ` (at ${parent})` : ""}`);
    case "index-out-of-range":
      return evalError(site, "index-out-of-range", `index ${f.index} is out of range for ${where} (length ${f.length})`);
    case "invalid-index":
      return evalError(site, "invalid-index", `${JSON.stringify(f.key)} is not a list index for ${where}`);
    case "invalid-path":
      return evalError(site, "invalid-path", `cannot select ${JSON.stringify(f.key)} in ${where}, which is ${describeKind(f.kind)}`);
  }
}
