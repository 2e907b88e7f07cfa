/**
 * Each match operator on one kind of value, as the three predicates (predicates.ts). The behaviour is
 * that of the operator table (`semantics/table.ts`), which decides the accepted kinds, the literal
 * conversions and the zero values; this module writes the SQL for the rest.
 */
import type { Pattern } from "../semantics/pattern.js";
import { OPERATIONS, kindTest, type BaseOp } from "../semantics/table.js";
import type { Site } from "../semantics/match-errors.js";
import { concrete } from "../semantics/path.js";
import type { Kind } from "../semantics/select.js";
import { isFailure, type LiteralValue } from "../semantics/values.js";
import { wellFormed, type Dialect, type Ref } from "./dialects.js";
import type { KindCase } from "./path.js";
import { between, chain, constant, ERROR, exactly, loose, UNKNOWN, type Triple } from "./predicates.js";
import { and, FALSE, not, or, TRUE, type Cond } from "./sql.js";

const TWO_53 = 2n ** 53n;
const ELEMENT: Ref = { base: "element" };

/** A site for building the table's tests: their errors are only ever read as "an error". */
const NO_SITE: Site = { source: "", span: { start: 0, end: 0 }, selector: "", op: "==" };

/**
 * The base operation (not negated) on the value of one kind case. Whether the kind is accepted, the
 * literal's conversion and the answer on the kind's zero value come from the operator table
 * (`semantics/table.ts`); only the SQL text per kind is written here.
 */
export function operate(base: BaseOp, c: KindCase, lit: LiteralValue, pattern: Pattern | undefined, d: Dialect): Triple {
  const fixed = settled(base, c, lit, pattern);
  if (fixed !== undefined) return fixed;
  switch (base) {
    case "equal":
      return equal(c, lit, d);
    case "in":
      return contains(c, lit, d);
    case "empty":
      return empty(c, d);
    case "nil":
      return nil(c);
    case "matches":
      return matches(c, pattern!, d);
    default:
      // A base operation with no SQL of its own: any row may match or fail (the evaluator decides).
      return UNKNOWN;
  }
}

/**
 * The answer of the operator table alone, when it settles the case: an error (the kind is not
 * accepted, the literal does not convert, the test cannot be built) or the answer on the kind's zero
 * value. Undefined when the SQL must look at the value.
 */
function settled(base: BaseOp, c: KindCase, lit: LiteralValue, pattern: Pattern | undefined): Triple | undefined {
  const entry = OPERATIONS[base].kinds[c.kind];
  if (entry?.literal !== undefined && isFailure(lit[entry.literal])) return ERROR;
  if (entry?.test === undefined) return ERROR;
  let test: (v: unknown) => boolean;
  try {
    // Building fails for every value of the kind (elements that do not compare, an invalid pattern).
    test = kindTest(base, c.kind, { site: NO_SITE, type: c.type, lit, pattern });
  } catch {
    return ERROR;
  }
  // The table's tests read `undefined` as the kind's zero value.
  return c.zero ? constant(test(undefined)) : undefined;
}

/**
 * `S == v1 or S == v2 or …` on one kind case: the terms in order up to the first that fails on this
 * kind (after it the chain is an error, or true where a term before it is). The strings compared
 * become one membership test (`= ANY`, `IN`), and so do the numbers a double holds exactly.
 */
export function equalAny(c: KindCase, lits: readonly LiteralValue[], d: Dialect): Triple {
  const terms: Triple[] = [];
  const strings = new Set<string>();
  const numbers = new Set<number>();
  let failed = false;
  for (const lit of lits) {
    const fixed = settled("equal", c, lit, undefined);
    if (fixed === ERROR) {
      failed = true;
      break;
    }
    if (fixed !== undefined) terms.push(fixed);
    else if (c.kind === "string" && d.canBind(lit.text)) strings.add(lit.text);
    else if (c.kind === "int" || c.kind === "uint" || c.kind === "float") {
      const v = lit[c.kind];
      if (isFailure(v)) throw new Error("unreachable: a failed conversion is settled");
      if (typeof v === "number" ? !Number.isNaN(v) : v < TWO_53 && v > -TWO_53) numbers.add(Number(v));
      else terms.push(equal(c, lit, d));
    } else terms.push(equal(c, lit, d));
  }
  if (failed && terms.length === 0 && strings.size === 0 && numbers.size === 0) return ERROR;
  if (strings.size > 0) terms.push(exactly(d.strIn(c.ref, [...strings])));
  if (numbers.size > 0) {
    const t = d.numIn(c.ref, [...numbers]);
    terms.push(between(t.u, t.l));
  }
  // Terms that cannot fail: their order does not matter.
  const t = chain("or", terms);
  return failed ? chain("or", [t, UNKNOWN]) : t;
}

/**
 * Equality of a number at `ref` with a converted literal: an integer (int, uint) compares exactly, a
 * float (and an integer within ±2^53, which a double holds exactly) as the float64 reading of the data.
 */
function numberEquals(ref: Ref, v: bigint | number, d: Dialect): Triple {
  if (typeof v === "bigint") {
    if (v < TWO_53 && v > -TWO_53) return numberEquals(ref, Number(v), d);
    const t = d.bigIntEq(ref, v);
    return between(t.u, t.l);
  }
  if (Number.isNaN(v)) return constant(false);
  const t = d.numEq(ref, v);
  return between(t.u, t.l);
}

function equal(c: KindCase, lit: LiteralValue, d: Dialect): Triple {
  switch (c.kind) {
    case "string":
      return d.canBind(lit.text) ? exactly(d.strEq(c.ref, lit.text)) : between(TRUE, FALSE);
    case "int":
    case "uint": {
      const v = lit[c.kind];
      if (isFailure(v)) return ERROR;
      return numberEquals(c.ref, v, d);
    }
    case "float": {
      const v = lit.float;
      if (isFailure(v)) return ERROR;
      return numberEquals(c.ref, v, d);
    }
    case "bool": {
      const v = lit.bool;
      if (isFailure(v)) return ERROR;
      return exactly(d.boolIs(c.ref, v));
    }
    default:
      return ERROR;
  }
}

/** The element test of a typed list (the `equal` entries of the operator table, `semantics/table.ts`), over the element `e`. */
function typedElement(kind: Kind, lit: LiteralValue, d: Dialect): "error" | { u: Cond; l: Cond } {
  switch (kind) {
    case "string": {
      if (!d.canBind(lit.text)) return { u: TRUE, l: FALSE };
      // A non-string element reads as "".
      const c = lit.text === "" ? or(not(d.typeIs(ELEMENT, ["string"])), d.strEq(ELEMENT, "")) : d.strEq(ELEMENT, lit.text);
      return { u: c, l: c };
    }
    case "int":
    case "uint":
    case "float": {
      const v = kind === "float" ? lit.float : lit[kind];
      if (isFailure(v)) return "error";
      const t = numberEquals(ELEMENT, v, d);
      const zero = v === 0 || v === 0n ? not(d.typeIs(ELEMENT, ["number"])) : FALSE;
      return { u: or(t.u, zero), l: or(t.l, zero) };
    }
    case "bool": {
      const v = lit.bool;
      if (isFailure(v)) return "error";
      const c = v ? d.boolIs(ELEMENT, true) : not(d.boolIs(ELEMENT, true));
      return { u: c, l: c };
    }
    default:
      return "error";
  }
}

function contains(c: KindCase, lit: LiteralValue, d: Dialect): Triple {
  switch (c.kind) {
    case "string":
      return d.canBind(lit.text) ? exactly(d.strHas(c.ref, lit.text, "anywhere")) : between(TRUE, FALSE);
    case "map":
      return d.canBind(lit.text) ? exactly(d.hasKey(c.ref, lit.text)) : between(TRUE, FALSE);
    case "list": {
      const ct = concrete(c.type);
      const elemType = ct.kind === "list" ? ct.elem : ct;
      if (elemType.kind === "any") return dynamicContains(c.ref, lit, d);
      if (elemType.kind === "pointer") return UNKNOWN;
      const test = typedElement(elemType.kind, lit, d);
      if (test === "error") return ERROR; // the literal does not convert, or the elements do not compare
      if (elemType.kind === "string" && lit.text !== "" && d.canBind(lit.text)) return exactly(d.arrayHasString(c.ref, lit.text));
      return between(d.someElement(c.ref, test.u), d.someElement(c.ref, test.l));
    }
    case "int":
    case "uint":
    case "float":
    case "bool":
    default:
      // Converting the literal may fail first, but either way it is an error.
      return ERROR;
  }
}

/**
 * `in` over a JSON list: each element by its own kind, texts that do not convert skipped; an element
 * that is null, a list or a map is an error if the search reaches it (a match before it wins).
 */
function dynamicContains(ref: Ref, lit: LiteralValue, d: Dialect): Triple {
  const u: Cond[] = [];
  const l: Cond[] = [];
  const bad: Cond[] = [d.typeIs(ELEMENT, ["null", "array", "object"])];
  if (d.canBind(lit.text)) {
    const s = d.strEq(ELEMENT, lit.text);
    u.push(s);
    l.push(s);
  } else u.push(d.typeIs(ELEMENT, ["string"]));
  const f = lit.float;
  if (!isFailure(f)) {
    if (!Number.isNaN(f)) {
      const t = d.numEq(ELEMENT, f);
      u.push(t.u);
      l.push(t.l);
    }
  } else if (f.failure === "range") bad.push(d.typeIs(ELEMENT, ["number"]));
  const b = lit.bool;
  if (!isFailure(b)) {
    const t = d.boolIs(ELEMENT, b);
    u.push(t);
    l.push(t);
  }
  const anyBad = d.someElement(ref, or(...bad));
  return loose(or(d.someElement(ref, or(...u)), anyBad), and(d.someElement(ref, or(...l)), not(anyBad)), anyBad);
}

function empty(c: KindCase, d: Dialect): Triple {
  switch (c.kind) {
    case "string":
      return exactly(d.strEq(c.ref, ""));
    case "list":
      return exactly(d.isEmptyArray(c.ref));
    case "map":
      return exactly(d.isEmptyObject(c.ref));
    default:
      return ERROR;
  }
}

function nil(c: KindCase): Triple {
  switch (c.kind) {
    case "invalid":
      return constant(true);
    case "list":
    case "map":
      return constant(c.zero);
    case "record":
      return constant(false);
    default:
      return ERROR;
  }
}

const META = /[\\.+*?()|[\]{}^$]/;

function matches(c: KindCase, pattern: Pattern, d: Dialect): Triple {
  if (c.kind !== "string" || pattern.error !== undefined) return ERROR;
  const source = pattern.source;
  // The function reads both as bytes (U+FFFD included: it decodes a lone surrogate as the filter does).
  const exact = wellFormed(source) ? d.regex?.(c.ref, source) : undefined;
  if (exact !== undefined) return exactly(exact);
  if (pattern.engine === "literal") {
    // The same reading as regex.ts's literal matcher: `lit`, `^lit`, `lit$`, `^lit$`.
    const start = source.startsWith("^");
    const end = source.endsWith("$") && source.length > (start ? 1 : 0);
    const body = source.slice(start ? 1 : 0, end ? -1 : undefined);
    if (!META.test(body) && d.canBind(body)) {
      if (start && end) return exactly(d.strEq(c.ref, body));
      return exactly(d.strHas(c.ref, body, start ? "start" : end ? "end" : "anywhere"));
    }
  }
  const prefix = literalPrefix(source);
  const u = prefix !== "" && d.canBind(prefix) ? d.strHas(c.ref, prefix, "start") : TRUE;
  return between(u, FALSE);
}

/**
 * A literal every match must start with: the characters after a leading `^` up to the first
 * metacharacter (the last one dropped when a quantifier may repeat or skip it). "" when the pattern
 * has an alternation or starts otherwise.
 */
export function literalPrefix(source: string): string {
  if (!source.startsWith("^") || source.includes("|")) return "";
  let i = 1;
  while (i < source.length && !META.test(source[i]!)) i++;
  let prefix = source.slice(1, i);
  const next = source[i];
  if (next === "*" || next === "?" || next === "{") prefix = prefix.slice(0, -1);
  return prefix;
}
