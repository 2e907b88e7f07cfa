/**
 * `explain` compiled: closures that evaluate in the reference's order (no reordering, no fused
 * memberships, no De Morgan: the witness follows the order the expression is written in) and record
 * the witness as they go. Each match is the compiler's reader and its operator's test (`matchDecision`),
 * so that the value read is kept.
 *
 * Every leaf evaluated is recorded; junctions and collections cut the record back to what decides
 * them, as `explain.ts` states the rules.
 *
 * Errors, budgets and nesting deeper than closures may are left to the interpreter
 * (`explainInterpreted`), which the caller runs when this answers `undefined`: an error's witness is
 * the leaf that raised it, which the interpreter finds exactly, and a budget is charged where the
 * interpreter charges it.
 */
import { notRun, type CollectionExpr, type Expr, type MatchExpr } from "../syntax/ast.js";
import { selectorSource } from "../syntax/print.js";
import { COLLECTION_MISSING, notACollection } from "../semantics/operators.js";
import type { Type } from "../semantics/schema.js";
import { MISSING, elementType, kindOf, typed, type Typed } from "../semantics/select.js";
import { FilterEvaluationError } from "../errors.js";
import { bothPlaceholderError, type EvaluationRules } from "./common.js";
import { bindListElement, bindMapEntry, closable, collectionParts, matchDecision, newEnv, type Env, type Frame } from "./compile.js";
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

/** The witness so far: the leaves evaluated, which junctions and collections cut back to what decides them. */
class Trail {
  /** The leaves recorded are `leaves[0 … n-1]` (cutting moves them down without resizing the array). */
  n = 0;
  readonly leaves: WitnessLeaf[] = [];
  /** The elements being visited by the enclosing collections, outermost first. */
  readonly path: (number | string)[] = [];

  /** Records a leaf evaluated: its value read (`MISSING` for none) and its outcome. */
  push(info: LeafInfo, value: unknown, outcome: boolean): number {
    const i = this.n++;
    this.leaves[i] = {
      kind: info.kind,
      span: info.span,
      selector: info.selector,
      op: info.op,
      read: value === MISSING ? MISSING_READ : { value },
      literal: info.literal,
      outcome,
      elements: this.path.length === 0 ? NO_ELEMENTS : this.path.slice(),
    };
    return i;
  }

  /** Keeps only the leaves from `from` on, moved to `to` (what decided a junction or collection). */
  cut(to: number, from: number): void {
    if (to === from) return;
    const leaves = this.leaves;
    const n = this.n;
    for (let i = from; i < n; i++, to++) leaves[to] = leaves[i]!;
    this.n = to;
  }

  /** The witness: the leaves recorded. */
  witness(): WitnessLeaf[] {
    const leaves = this.leaves;
    if (leaves.length !== this.n) leaves.length = this.n;
    return leaves;
  }
}

type TraceFn = (d: unknown, f: Frame | undefined, r: Trail) => boolean;

/** Compiles the trace of `ast` (parsed from `source`) for data of type `root`. */
export function compileTrace(ast: Expr, source: string, root: Type, options: EvaluationRules): Tracer {
  if (!closable(ast, source)) return () => undefined;
  let run: TraceFn;
  try {
    run = traceExpr(ast, newEnv(ast, source, root, options));
  } catch (e) {
    // Nesting deeper than the stack allows (the interpreter's stack is on the heap).
    if (e instanceof RangeError) return () => undefined;
    throw e;
  }
  return (datum) => {
    const r = new Trail();
    try {
      return { result: run(datum, undefined, r), witness: r.witness() };
    } catch (e) {
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
      const n = ops.length;
      // and stops at its first false operand, or at its first true: that operand's witness alone
      // decides it; otherwise every operand's does.
      const stop = e.kind === "or";
      return (d, f, r) => {
        const start = r.n;
        for (let i = 0; i < n; i++) {
          const mark = r.n;
          if (ops[i]!(d, f, r) === stop) {
            r.cut(start, mark);
            return stop;
          }
        }
        return !stop;
      };
    }
  }
}

function leafInfo(e: MatchExpr | CollectionExpr, kind: WitnessLeaf["kind"], op: string, literal: string | undefined): LeafInfo {
  return { kind, span: e.span, selector: selectorSource(e.selector), op, literal };
}

function traceMatch(e: MatchExpr, env: Env): TraceFn {
  const { read, dynamic, decide } = matchDecision(e, env);
  const info = leafInfo(e, "match", e.op, e.value?.text);
  return (d, f, r) => {
    const value = read(d, f);
    const outcome = decide(value);
    r.push(info, dynamic && value !== MISSING ? (value as Typed).value : value, outcome);
    return outcome;
  };
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
    r.path.push(0);
    try {
      for (let i = 0; i < length; i++) {
        if (clash.both) throw bothPlaceholderError({ source, span: e.span }, names[0]!.name);
        if (keys === undefined) {
          r.path[r.path.length - 1] = i;
          bindListElement(f, parts, i, { type: et, value: typed(et, (v as unknown[])[i]) });
        } else {
          const key = keys[i]!;
          r.path[r.path.length - 1] = key;
          bindMapEntry(f, parts, key, et, (v as Record<string, unknown>)[key]);
        }
        const elementStart = r.n;
        if (body(d, f, r) === any) {
          // Decided by this element: the collection and this element's witness.
          r.cut(mark, elementStart);
          r.leaves[own] = { ...r.leaves[own]!, outcome: any };
          return any;
        }
      }
    } finally {
      r.path.pop();
    }
    return !any;
  };
}
