/**
 * `explain` compiled: closures that evaluate in the reference's order (no reordering, no fused
 * memberships, no De Morgan: the witness follows the order the expression is written in) and record
 * the witness as they go. Each match is the compiler's reader and its operator's test (`matchDecision`),
 * so that the value read is kept.
 *
 * Every leaf evaluated is recorded; junctions and collections cut the record back to what decides
 * them, as `explain.ts` states the rules. Two recorders, both kept from one call to the next (the
 * `WitnessLeaf` objects are built at the end, only for the leaves that remain):
 * - `Marks`, for `and`/`or`/`not` over at most 30 matches: a slot and a bit per match, a witness a
 *   set of bits that junctions combine;
 * - `Trail`, for the rest (collections): the leaves in evaluation order, in parallel arrays, cut back.
 * A match whose selector is a path of record fields and map keys (or of JSON keys) reads plain
 * objects directly, as `evaluate`'s fast paths do, and anything else with the compiler's reader.
 *
 * Errors, budgets and nesting deeper than closures may are left to the interpreter
 * (`explainInterpreted`), which the caller runs when this answers `undefined`: an error's witness is
 * the leaf that raised it, which the interpreter finds exactly, and a budget is charged where the
 * interpreter charges it.
 */
import { notRun, type CollectionExpr, type Expr, type MatchExpr } from "../syntax/ast.js";
import { selectorSource } from "../syntax/print.js";
import { COLLECTION_MISSING } from "../semantics/operators.js";
import { notACollection } from "../semantics/match-errors.js";
import type { Type } from "../semantics/schema.js";
import { MISSING, kindOf, typed, type Typed } from "../semantics/select.js";
import { elementType, lookup, pathFrom, selectorKeys } from "../semantics/path.js";
import { FilterEvaluationError } from "../errors.js";
import { bothPlaceholderError } from "./common.js";
import type { EvaluationRules } from "../semantics/rules.js";
import { bindListElement, bindMapEntry, collectionParts, matchDecision, newEnv, type Env, type Frame, type MatchDecision } from "./compile.js";
import { closable, collectionDepth, levelMatches } from "../semantics/facts.js";
import type { Clones } from "./generated/clones.js";
import type { Explanation, WitnessLeaf } from "./explain.js";

/** A compiled explain: the explanation, or `undefined` when evaluation raised an error. */
export type Tracer = (datum: unknown) => Explanation | undefined;

/** What a leaf is, whatever the datum: the parts of its `WitnessLeaf` that the expression fixes. */
interface LeafInfo {
  readonly kind: WitnessLeaf["kind"];
  readonly span: WitnessLeaf["span"];
  readonly selector: string;
  readonly op: string;
  readonly literal: string | undefined;
}

const NO_ELEMENTS: readonly (number | string)[] = Object.freeze([]);
const MISSING_READ = Object.freeze({ missing: true as const });

/**
 * The witness so far: the leaves evaluated, which junctions and collections cut back to what decides
 * them. A leaf is recorded as what varies (its value read, its outcome, the elements it was evaluated
 * for) beside what the expression fixes (its `LeafInfo`), in arrays kept from one call to the next;
 * the `WitnessLeaf` objects are built at the end, for the leaves that remain.
 *
 * One `Trail` per tracer, reused: `busy` while a call runs (a datum's own accessor property could call
 * `explain` again; such a call gets a `Trail` of its own).
 */
class Trail {
  /** The leaves recorded are `[0 … n-1]` of the arrays (cutting moves them down). */
  n = 0;
  /** The highest `n` cut back since the last call (the values up to there are cleared at the end). */
  high = 0;
  busy = false;
  readonly infos: LeafInfo[] = [];
  readonly values: unknown[] = [];
  readonly outcomes: boolean[] = [];
  readonly elements: (readonly (number | string)[])[] = [];
  /** The elements being visited by the enclosing collections, outermost first. */
  readonly path: (number | string)[] = [];
  /** A copy of `path` for the leaves recorded at the current element (shared by them), made when first needed. */
  snapshot: readonly (number | string)[] | undefined = NO_ELEMENTS;

  /** Records a leaf evaluated: its value read (`MISSING` for none) and its outcome; answers its place. */
  push(info: LeafInfo, value: unknown, outcome: boolean): number {
    const i = this.n++;
    this.infos[i] = info;
    this.values[i] = value;
    this.outcomes[i] = outcome;
    this.elements[i] = this.snapshot ?? (this.snapshot = this.path.slice());
    return i;
  }

  /** Keeps only the leaves from `from` on, moved to `to` (what decided a junction or collection). */
  cut(to: number, from: number): void {
    const n = this.n;
    if (n > this.high) this.high = n;
    const { infos, values, outcomes, elements } = this;
    for (let i = from; i < n; i++, to++) {
      infos[to] = infos[i]!;
      values[to] = values[i];
      outcomes[to] = outcomes[i]!;
      elements[to] = elements[i]!;
    }
    this.n = to;
  }

  /** The witness: the leaves recorded, as `WitnessLeaf`s; the trail is then empty and free. */
  take(): WitnessLeaf[] {
    const n = this.n;
    const { infos, values, outcomes, elements } = this;
    let out: WitnessLeaf[];
    if (n === 1) out = [witnessLeaf(infos[0]!, values[0], outcomes[0]!, elements[0]!)];
    else if (n === 2) out = [witnessLeaf(infos[0]!, values[0], outcomes[0]!, elements[0]!), witnessLeaf(infos[1]!, values[1], outcomes[1]!, elements[1]!)];
    else {
      out = [];
      for (let i = 0; i < n; i++) out.push(witnessLeaf(infos[i]!, values[i], outcomes[i]!, elements[i]!));
    }
    this.clear(n);
    return out;
  }

  /** Empties the trail (after a call, or an error part way) and frees it. */
  clear(n: number): void {
    // The values read are dropped, not kept alive until the next call.
    const top = n > this.high ? n : this.high;
    const values = this.values;
    for (let i = 0; i < top; i++) values[i] = undefined;
    this.n = 0;
    this.high = 0;
    if (this.path.length !== 0) this.path.length = 0;
    this.snapshot = NO_ELEMENTS;
    this.busy = false;
  }
}

/** A leaf of the witness: what the expression fixes, and what was read, answered and visited. */
function witnessLeaf(info: LeafInfo, value: unknown, outcome: boolean, elements: readonly (number | string)[]): WitnessLeaf {
  return {
    kind: info.kind,
    span: info.span,
    selector: info.selector,
    op: info.op,
    read: value === MISSING ? MISSING_READ : { value },
    literal: info.literal,
    outcome,
    elements,
  };
}

type TraceFn = (d: unknown, f: Frame | undefined, r: Trail) => boolean;

/** Compiles the trace of `ast` (parsed from `source`) for data of type `root`, in the filter's own slot of closure copies (`clones`). */
export function compileTrace(ast: Expr, source: string, root: Type, options: EvaluationRules, clones: Clones): Tracer {
  if (!closable(ast, source)) return () => undefined;
  let run: TraceFn;
  try {
    if (collectionDepth(ast) === 0 && levelMatches(ast) <= MAX_FLAT_LEAVES) return compileFlat(ast, newEnv(ast, source, root, options, clones));
    run = traceExpr(ast, newEnv(ast, source, root, options, clones));
  } catch (e) {
    // Nesting deeper than the stack allows (the interpreter's stack is on the heap).
    if (e instanceof RangeError) return () => undefined;
    throw e;
  }
  const trail = new Trail();
  return (datum) => {
    const r = trail.busy ? new Trail() : trail;
    r.busy = true;
    try {
      const result = run(datum, undefined, r);
      return { result, witness: r.take() };
    } catch (e) {
      r.clear(r.n);
      if (e instanceof FilterEvaluationError || e instanceof RangeError) return undefined;
      throw e;
    }
  };
}

function traceExpr(e: Expr, env: Env): TraceFn {
  switch (e.kind) {
    case "not": {
      const { operand, negated } = notRun(e);
      const inner = traceExpr(operand, env);
      return negated ? (d, f, r) => !inner(d, f, r) : inner;
    }
    case "match":
      return traceMatch(e, env);
    case "collection":
      return traceCollection(e, env);
    case "and":
    case "or": {
      const ops = e.operands.map((o) => traceExpr(o, env));
      return e.kind === "and" ? traceAnd(ops) : traceOr(ops);
    }
  }
}

// A false `and` is decided by its first false operand, whose witness alone is kept (the leaves from
// where it started); a true one, by every operand's. `or` is the mirror.

function traceAnd(ops: readonly TraceFn[]): TraceFn {
  const [a, b, c] = ops as [TraceFn, TraceFn, TraceFn];
  switch (ops.length) {
    case 1:
      return a;
    case 2:
      return (d, f, r) => {
        const start = r.n;
        if (!a(d, f, r)) return false;
        const mark = r.n;
        if (b(d, f, r)) return true;
        r.cut(start, mark);
        return false;
      };
    case 3:
      return (d, f, r) => {
        const start = r.n;
        if (!a(d, f, r)) return false;
        let mark = r.n;
        if (!b(d, f, r)) {
          r.cut(start, mark);
          return false;
        }
        mark = r.n;
        if (c(d, f, r)) return true;
        r.cut(start, mark);
        return false;
      };
    default: {
      const n = ops.length;
      return (d, f, r) => {
        const start = r.n;
        for (let i = 0; i < n; i++) {
          const mark = r.n;
          if (!ops[i]!(d, f, r)) {
            if (mark !== start) r.cut(start, mark);
            return false;
          }
        }
        return true;
      };
    }
  }
}

function traceOr(ops: readonly TraceFn[]): TraceFn {
  const [a, b, c] = ops as [TraceFn, TraceFn, TraceFn];
  switch (ops.length) {
    case 1:
      return a;
    case 2:
      return (d, f, r) => {
        const start = r.n;
        if (a(d, f, r)) return true;
        const mark = r.n;
        if (!b(d, f, r)) return false;
        r.cut(start, mark);
        return true;
      };
    case 3:
      return (d, f, r) => {
        const start = r.n;
        if (a(d, f, r)) return true;
        let mark = r.n;
        if (b(d, f, r)) {
          r.cut(start, mark);
          return true;
        }
        mark = r.n;
        if (!c(d, f, r)) return false;
        r.cut(start, mark);
        return true;
      };
    default: {
      const n = ops.length;
      return (d, f, r) => {
        const start = r.n;
        for (let i = 0; i < n; i++) {
          const mark = r.n;
          if (ops[i]!(d, f, r)) {
            if (mark !== start) r.cut(start, mark);
            return true;
          }
        }
        return false;
      };
    }
  }
}

function leafInfo(e: MatchExpr | CollectionExpr, kind: WitnessLeaf["kind"], op: string, literal: string | undefined): LeafInfo {
  return { kind, span: e.span, selector: selectorSource(e.selector), op, literal };
}

function traceMatch(e: MatchExpr, env: Env): TraceFn {
  const decision = matchDecision(e, env);
  const { read, decide } = decision;
  const info = leafInfo(e, "match", e.op, e.value?.text);
  if (decision.dynamic) {
    return (d, f, r) => {
      const value = read(d, f);
      const outcome = decide(value);
      r.push(info, value === MISSING ? value : (value as Typed).value, outcome);
      return outcome;
    };
  }
  const plain = plainPath(e, env, decision.type!);
  if (plain !== undefined) {
    const { test, negated } = decision as Required<MatchDecision>;
    const { keys, absentIsZero, type } = plain;
    if (keys.length === 1) {
      const key = keys[0]!;
      return (d, f, r) => {
        let value: unknown;
        if (d != null && (d as Proto).__proto__ === OBJECT_PROTO && ((value = (d as Rec)[key]) !== undefined || absentIsZero)) {
          value = typed(type, value);
          const outcome = test(value) !== negated;
          r.push(info, value, outcome);
          return outcome;
        }
        value = read(d, f);
        const outcome = decide(value);
        r.push(info, value, outcome);
        return outcome;
      };
    }
    const walk = plainWalk(keys);
    return (d, f, r) => {
      let value = walk(d);
      let outcome: boolean;
      if (value !== NOT_PLAIN && (value !== undefined || absentIsZero)) {
        value = typed(type, value);
        outcome = test(value) !== negated;
      } else {
        value = read(d, f);
        outcome = decide(value);
      }
      r.push(info, value, outcome);
      return outcome;
    };
  }
  return (d, f, r) => {
    const value = read(d, f);
    const outcome = decide(value);
    r.push(info, value, outcome);
    return outcome;
  };
}

const OBJECT_PROTO = Object.prototype;
const getPrototypeOf = Object.getPrototypeOf;
/**
 * A datum read by one key is checked as `evaluate`'s fast paths check it (`fast.ts`): V8 folds
 * `__proto__` to a constant for the few shapes the data's records have; `plain` checks the objects a
 * longer path goes through (maps of many shapes) with `getPrototypeOf`, which no shape slows.
 */
type Proto = { __proto__?: unknown };
type Rec = Record<string, unknown>;

/** What `plainWalk` answers for a datum it does not read (an object on the way that is not plain). */
const NOT_PLAIN: unique symbol = Symbol("not plain");

/** An object whose prototype is `Object.prototype`: a key that `Object.prototype` lacks reads an own property or `undefined`. */
function plain(v: unknown): boolean {
  return v != null && getPrototypeOf(v) === OBJECT_PROTO;
}

/**
 * The read of `keys` through plain objects: the last key's value (`undefined` when absent), or
 * `NOT_PLAIN`. Written out for up to four keys, so that each step's reads are a site of their own.
 */
function plainWalk(keys: readonly string[]): (d: unknown) => unknown {
  const [k0, k1, k2, k3] = keys as [string, string, string, string];
  switch (keys.length) {
    case 2:
      return (d) => {
        if (!plain(d)) return NOT_PLAIN;
        const v = (d as Rec)[k0];
        return plain(v) ? (v as Rec)[k1] : NOT_PLAIN;
      };
    case 3:
      return (d) => {
        if (!plain(d)) return NOT_PLAIN;
        const v = (d as Rec)[k0];
        if (!plain(v)) return NOT_PLAIN;
        const w = (v as Rec)[k1];
        return plain(w) ? (w as Rec)[k2] : NOT_PLAIN;
      };
    case 4:
      return (d) => {
        if (!plain(d)) return NOT_PLAIN;
        const v = (d as Rec)[k0];
        if (!plain(v)) return NOT_PLAIN;
        const w = (v as Rec)[k1];
        if (!plain(w)) return NOT_PLAIN;
        const x = (w as Rec)[k2];
        return plain(x) ? (x as Rec)[k3] : NOT_PLAIN;
      };
    default: {
      const n = keys.length;
      return (d) => {
        let v = d;
        for (let i = 0; i < n; i++) {
          if (!plain(v)) return NOT_PLAIN;
          v = (v as Rec)[keys[i]!];
        }
        return v;
      };
    }
  }
}

/**
 * The keys of a match whose selector reads plain objects only (record fields and map keys from the
 * schema's record, or keys of JSON objects), with the static type of the value reached and whether an
 * absent last key reads as its zero value (a field) rather than as missing (a key).
 *
 * Through objects whose prototype is `Object.prototype`, a key that `Object.prototype` lacks reads
 * an own property or `undefined`; the value read is then the one the general reader answers, seen
 * through the static type as `typed` does (the evaluate's fast paths, `fast.ts`, read the same way).
 * Anything else (another object, an absent key that is not a zero value) takes the general reader.
 */
function plainPath(e: MatchExpr, env: Env, type: Type): { keys: readonly string[]; absentIsZero: boolean; type: Type } | undefined {
  const keys = selectorKeys(e.selector);
  const options = env.options;
  if ("unknownValue" in options || options.missingLeafIsError === true) return undefined;
  if (keys.some((k) => k in OBJECT_PROTO) || lookup(env.scope, keys[0]) !== undefined) return undefined;
  const root = env.root;
  if (root.kind === "any") return type.kind === "any" ? { keys: keys.map(internalized), absentIsZero: false, type } : undefined;
  if (root.kind !== "record") return undefined;
  const path = pathFrom(root, keys);
  if (!path.fieldsAndKeys || path.type !== type) return undefined;
  return { keys: keys.map(internalized), absentIsZero: path.steps[keys.length - 1]!.container === "record", type };
}

/**
 * `key` as V8 keeps property names (one copy of each text): a read by a key parsed out of the
 * expression then compares it by identity, not by its characters.
 */
function internalized(key: string): string {
  return Object.keys({ [key]: 0 })[0]!;
}

function traceCollection(e: CollectionExpr, env: Env): TraceFn {
  const parts = collectionParts(e, env);
  const { read, staticType, elemType, dynamic, names, clash, selectorText } = parts;
  const info = leafInfo(e, "collection", e.quantifier, undefined);
  const body = traceExpr(e.body, parts.inner);
  const layout = env.layout;
  const any = e.quantifier === "any";
  const source = env.source;
  return (d, outer, r) => {
    const got = read(d, outer);
    if (got === MISSING) {
      r.push(info, MISSING, COLLECTION_MISSING[e.quantifier]);
      return COLLECTION_MISSING[e.quantifier];
    }
    const type = dynamic ? (got as Typed).type : staticType;
    const v = dynamic ? (got as Typed).value : got;
    const kind = kindOf(type, v);
    if (kind !== "list" && kind !== "map") throw notACollection({ source, span: e.selector.span }, selectorText, kind, e.quantifier);
    const own = r.push(info, v, !any);
    const mark = r.n;
    const f = outer ?? new Array<Typed>(layout.slots);
    const et = dynamic ? elementType(type) : elemType;
    const keys = kind === "list" ? undefined : Object.keys((v ?? {}) as object);
    const length = keys === undefined ? ((v ?? []) as unknown[]).length : keys.length;
    // An error part way leaves the path as it is: the tracer clears the trail.
    const path = r.path;
    const depth = path.length;
    const outerElements = r.snapshot;
    path.push(0);
    for (let i = 0; i < length; i++) {
      if (clash.both) throw bothPlaceholderError({ source, span: e.span }, names[0]!.name);
      if (keys === undefined) {
        path[depth] = i;
        r.snapshot = undefined;
        bindListElement(f, parts, i, { type: et, value: typed(et, (v as unknown[])[i]) });
      } else {
        const key = keys[i]!;
        path[depth] = key;
        r.snapshot = undefined;
        bindMapEntry(f, parts, key, et, (v as Record<string, unknown>)[key]);
      }
      const elementStart = r.n;
      if (body(d, f, r) === any) {
        // Decided by this element: the collection and this element's witness.
        if (elementStart !== mark) r.cut(mark, elementStart);
        r.outcomes[own] = any;
        path.length = depth;
        r.snapshot = outerElements;
        return any;
      }
    }
    path.length = depth;
    r.snapshot = outerElements;
    return !any;
  };
}

// ---------------------------------------------------------------------------------------------
// Flat expressions: `and`, `or` and `not` over at most 30 matches (no collection). Each match is
// evaluated at most once, so it has a slot of its own (its value read and outcome) and a bit, and a
// witness is a set of bits: the junctions combine the bits of their operands (no record to cut).

/** Bits of a small integer (a V8 Smi), one a match. */
const MAX_FLAT_LEAVES = 30;

/**
 * The slots of a flat expression's matches, kept from one call to the next (`busy` while a call
 * runs: a datum's own accessor property could call `explain` again, and gets slots of its own).
 */
class Marks {
  /** The witness of the node evaluated last: a bit per match. */
  mask = 0;
  /** The matches evaluated in this call (their values are dropped at its end). */
  seen = 0;
  busy = false;
  readonly values: unknown[];
  readonly outcomes: boolean[];
  constructor(readonly infos: readonly LeafInfo[]) {
    this.values = infos.map(() => undefined);
    this.outcomes = infos.map(() => false);
  }

  /** The witness, in evaluation order (the order of the bits); the slots are then free. */
  take(): WitnessLeaf[] {
    const { infos, values, outcomes } = this;
    const mask = this.mask;
    const low = mask & -mask;
    const rest = mask ^ low;
    const i = 31 - Math.clz32(low);
    let out: WitnessLeaf[];
    if (rest === 0) {
      out = [witnessLeaf(infos[i]!, values[i], outcomes[i]!, NO_ELEMENTS)];
    } else if ((rest & (rest - 1)) === 0) {
      const j = 31 - Math.clz32(rest);
      out = [witnessLeaf(infos[i]!, values[i], outcomes[i]!, NO_ELEMENTS), witnessLeaf(infos[j]!, values[j], outcomes[j]!, NO_ELEMENTS)];
    } else {
      out = [];
      for (let bits = mask; bits !== 0; bits &= bits - 1) {
        const k = 31 - Math.clz32(bits & -bits);
        out.push(witnessLeaf(infos[k]!, values[k], outcomes[k]!, NO_ELEMENTS));
      }
    }
    this.clear();
    return out;
  }

  /** Frees the slots (after a call, or an error part way), the values read dropped. */
  clear(): void {
    const values = this.values;
    for (let bits = this.seen; bits !== 0; bits &= bits - 1) values[31 - Math.clz32(bits & -bits)] = undefined;
    this.seen = 0;
    this.mask = 0;
    this.busy = false;
  }
}

type FlatFn = (d: unknown, m: Marks) => boolean;

function compileFlat(ast: Expr, env: Env): Tracer {
  const infos: LeafInfo[] = [];
  const run = flatExpr(ast, env, infos);
  const marks = new Marks(infos);
  return (datum) => {
    const m = marks.busy ? new Marks(infos) : marks;
    m.busy = true;
    try {
      const result = run(datum, m);
      return { result, witness: m.take() };
    } catch (e) {
      m.clear();
      if (e instanceof FilterEvaluationError || e instanceof RangeError) return undefined;
      throw e;
    }
  };
}

function flatExpr(e: Expr, env: Env, infos: LeafInfo[]): FlatFn {
  switch (e.kind) {
    case "not": {
      const { operand, negated } = notRun(e);
      const inner = flatExpr(operand, env, infos);
      return negated ? (d, m) => !inner(d, m) : inner;
    }
    case "match":
      return flatMatch(e, env, infos);
    case "collection":
      throw new Error("a collection in a flat expression");
    case "and":
    case "or": {
      const ops = e.operands.map((o) => flatExpr(o, env, infos));
      return flatJunction(e.kind === "or", ops);
    }
  }
}

/**
 * An `and` (`stop` false) or an `or` (`stop` true): it stops at its first operand that answers
 * `stop`, whose witness alone decides it; otherwise every operand's does.
 */
function flatJunction(stop: boolean, ops: readonly FlatFn[]): FlatFn {
  const [a, b, c] = ops as [FlatFn, FlatFn, FlatFn];
  switch (ops.length) {
    case 1:
      return a;
    case 2:
      return stop
        ? (d, m) => {
            if (a(d, m)) return true;
            const w = m.mask;
            if (b(d, m)) return true;
            m.mask |= w;
            return false;
          }
        : (d, m) => {
            if (!a(d, m)) return false;
            const w = m.mask;
            if (!b(d, m)) return false;
            m.mask |= w;
            return true;
          };
    case 3:
      return stop
        ? (d, m) => {
            if (a(d, m)) return true;
            let w = m.mask;
            if (b(d, m)) return true;
            w |= m.mask;
            if (c(d, m)) return true;
            m.mask |= w;
            return false;
          }
        : (d, m) => {
            if (!a(d, m)) return false;
            let w = m.mask;
            if (!b(d, m)) return false;
            w |= m.mask;
            if (!c(d, m)) return false;
            m.mask |= w;
            return true;
          };
    default: {
      const n = ops.length;
      return (d, m) => {
        let w = 0;
        for (let i = 0; i < n; i++) {
          if (ops[i]!(d, m) === stop) return stop;
          w |= m.mask;
        }
        m.mask = w;
        return !stop;
      };
    }
  }
}

function flatMatch(e: MatchExpr, env: Env, infos: LeafInfo[]): FlatFn {
  const decision = matchDecision(e, env);
  const { read, decide } = decision;
  const i = infos.length;
  const bit = 1 << i;
  infos.push(leafInfo(e, "match", e.op, e.value?.text));
  // Outside every collection no name is bound: the value read is never dynamic.
  const plain = decision.dynamic ? undefined : plainPath(e, env, decision.type!);
  if (plain !== undefined && plain.keys.length === 1) {
    const { test, negated } = decision as Required<MatchDecision>;
    const { absentIsZero, type } = plain;
    const key = plain.keys[0]!;
    return (d, m) => {
      let value: unknown;
      let outcome: boolean;
      if (d != null && (d as Proto).__proto__ === OBJECT_PROTO && ((value = (d as Rec)[key]) !== undefined || absentIsZero)) {
        value = typed(type, value);
        outcome = test(value) !== negated;
      } else {
        value = read(d, undefined);
        outcome = decide(value);
      }
      m.values[i] = value;
      m.outcomes[i] = outcome;
      m.mask = bit;
      m.seen |= bit;
      return outcome;
    };
  }
  if (plain !== undefined) {
    const { test, negated } = decision as Required<MatchDecision>;
    const { absentIsZero, type } = plain;
    const walk = plainWalk(plain.keys);
    return (d, m) => {
      let value = walk(d);
      let outcome: boolean;
      if (value !== NOT_PLAIN && (value !== undefined || absentIsZero)) {
        value = typed(type, value);
        outcome = test(value) !== negated;
      } else {
        value = read(d, undefined);
        outcome = decide(value);
      }
      m.values[i] = value;
      m.outcomes[i] = outcome;
      m.mask = bit;
      m.seen |= bit;
      return outcome;
    };
  }
  const dynamic = decision.dynamic;
  return (d, m) => {
    let value = read(d, undefined);
    const outcome = decide(value);
    if (dynamic && value !== MISSING) value = (value as Typed).value;
    m.values[i] = value;
    m.outcomes[i] = outcome;
    m.mask = bit;
    m.seen |= bit;
    return outcome;
  };
}
