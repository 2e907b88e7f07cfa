/**
 * The plain tree-walking interpreter: the executable specification of the language. It favours
 * clarity over speed; the compiler must agree with it on every answer and every error class.
 */
import type { Span } from "../errors.js";
import { notRun, type AndExpr, type CollectionExpr, type Expr, type Literal, type MatchExpr, type OrExpr } from "../syntax/ast.js";
import { selectorSource } from "../syntax/print.js";
import { COLLECTION_MISSING, OPERATORS } from "../semantics/operators.js";
import { applyOperator } from "../semantics/table.js";
import { notACollection, type Site } from "../semantics/match-errors.js";
import { literalValue, type LiteralValue } from "../semantics/values.js";
import { ANY, type Type } from "../semantics/schema.js";
import { elementType, placeholderClash, selectorKeys } from "../semantics/path.js";
import { MISSING, kindOf, typed, walk, type Typed } from "../semantics/select.js";
import { charge, iterationSteps, meteredPattern, type EvaluationBudget } from "./budget.js";
import { levelMatches } from "../semantics/facts.js";
import { boundNames } from "../syntax/reads.js";
import { bothPlaceholderError, hiddenPlaceholderError, walkReporter } from "./common.js";
import type { EvaluationRules } from "../semantics/rules.js";
import { compilePattern, type Pattern } from "../semantics/pattern.js";
import { FilterEvaluationError } from "../errors.js";
import type { Explanation, WitnessLeaf } from "./explain.js";

/** Names bound by enclosing collection expressions, innermost first. */
interface Scope {
  readonly name: string;
  readonly value: Typed;
  readonly next: Scope | undefined;
  /** Set for the value placeholder of `any k as k, v`: its path (selector steps), which reading fails. */
  readonly hidden?: { readonly path: readonly string[]; readonly index: number | string };
}

interface Context {
  readonly source: string;
  readonly root: Typed;
  readonly options: EvaluationRules;
  readonly patterns: Map<Literal, Pattern>;
  /** The budget being charged, if any, and the outermost collection being iterated (its span). */
  readonly budget: EvaluationBudget | undefined;
  outermost: CollectionExpr | undefined;
  /** The whole expression's span (where a budget runs out outside every collection). */
  readonly top: Span;
  /** Set by `explainInterpreted`: the witness is kept as the evaluation goes. */
  readonly trace?: { failing: WitnessLeaf | undefined };
}

/**
 * Evaluates `ast` (parsed from `source`) against `datum` seen through `type` (`ANY` for plain JSON).
 * Throws `FilterEvaluationError` where the reference fails. With a `budget`, evaluation takes its steps
 * from it (see `budget.ts`) and throws `too-expensive` when it runs out.
 */
export function interpret(ast: Expr, source: string, datum: unknown, type: Type = ANY, options: EvaluationRules = {}, budget?: EvaluationBudget): boolean {
  const ctx: Context = { source, root: { type, value: typed(type, datum) }, options, patterns: new Map(), budget, outermost: undefined, top: ast.span };
  if (budget !== undefined) charge(budget, levelMatches(ast), source, ast.span);
  return evaluate(ast, ctx, undefined);
}

/**
 * Evaluates as `interpret` does and keeps the witness of the answer (explain.ts): the answer, or the
 * error as a value with the leaf that raised it.
 */
export function explainInterpreted(ast: Expr, source: string, datum: unknown, type: Type = ANY, options: EvaluationRules = {}, budget?: EvaluationBudget): Explanation {
  const trace = { failing: undefined as WitnessLeaf | undefined };
  const ctx: Context = { source, root: { type, value: typed(type, datum) }, options, patterns: new Map(), budget, outermost: undefined, top: ast.span, trace };
  const witness: WitnessLeaf[] = [];
  try {
    if (budget !== undefined) charge(budget, levelMatches(ast), source, ast.span);
    return { result: evaluate(ast, ctx, undefined, witness), witness };
  } catch (e) {
    if (!(e instanceof FilterEvaluationError)) throw e;
    return { result: e, witness: trace.failing === undefined ? [] : [trace.failing] };
  }
}

/** An and/or whose operands are being evaluated, left to right. */
interface JunctionFrame {
  readonly e: AndExpr | OrExpr;
  readonly scope: Scope | undefined;
  readonly negated: boolean;
  i: number;
  /** With a trace: the witnesses of the operands that did not decide it. */
  readonly seen: WitnessLeaf[];
}

/** An any/all whose elements are being visited. */
interface CollectionFrame {
  readonly e: CollectionExpr;
  readonly scope: Scope | undefined;
  readonly negated: boolean;
  readonly any: boolean;
  readonly list: readonly unknown[] | undefined;
  readonly map: Record<string, unknown> | undefined;
  readonly keys: readonly string[];
  readonly elemType: Type;
  readonly names: ReturnType<typeof boundNames>;
  readonly clash: ReturnType<typeof placeholderClash>;
  readonly path: readonly string[];
  readonly steps: number;
  i: number;
  /** With a trace: the collection's own leaf, then the witnesses of the elements that did not decide it. */
  readonly seen: WitnessLeaf[];
}

/**
 * Evaluates an expression with an explicit stack: nesting (runs of `not`, collection bodies,
 * parentheses) costs heap, not JavaScript stack, so every expression within the reference's parse
 * budget evaluates (its deepest, about 1,500 nested collections, too).
 */
function evaluate(root: Expr, ctx: Context, rootScope: Scope | undefined, witness?: WitnessLeaf[]): boolean {
  const stack: (JunctionFrame | CollectionFrame)[] = [];
  let e: Expr = root;
  let scope = rootScope;
  let result: boolean;
  /** With a trace: the witness of `result`. */
  let w: WitnessLeaf[] = [];
  const tracing = ctx.trace !== undefined;
  /** The scope of an any/all's next element; with a trace, a failure there is the collection's. */
  const enter = (c: CollectionFrame): Scope | undefined => (tracing ? traced(ctx, () => ({ ...c.seen[0]!, outcome: "error" }), () => visit(c, ctx)) : visit(c, ctx));
  for (;;) {
    // Descend into e: a run of `not`s is one negation or none.
    const run = notRun(e);
    const negated = run.negated;
    e = run.operand;
    descend: {
      if (e.kind === "match") {
        if (tracing) {
          const leaf = traceMatch(e, ctx, scope, stack);
          result = leaf.outcome !== negated;
          w = [leaf];
        } else {
          result = evaluateMatch(e, ctx, scope) !== negated;
        }
      } else if (e.kind === "and" || e.kind === "or") {
        stack.push({ e, scope, negated, i: 0, seen: [] });
        e = e.operands[0]!;
        continue;
      } else {
        const f = tracing ? traceCollection(e, ctx, scope, negated, stack) : startCollection(e, ctx, scope, negated);
        if (typeof f === "boolean") {
          result = f !== negated;
          if (tracing) w = [collectionLeaf(e, stack, MISSING, f)];
        } else if (f.i < (f.list ?? f.keys).length) {
          stack.push(f);
          scope = enter(f);
          e = f.e.body;
          continue;
        } else {
          result = !f.any !== negated;
          if (tracing) w = [{ ...f.seen[0]!, outcome: !f.any }];
        }
      }
      // Ascend: hand the result to the frames above until one has more to evaluate.
      for (;;) {
        const f = stack[stack.length - 1];
        if (f === undefined) {
          witness?.push(...w);
          return result;
        }
        if ("operands" in f.e) {
          const j = f as JunctionFrame;
          const or = j.e.kind === "or";
          // and stops at the first false, or at the first true; either way the last result decides.
          if (result !== or && ++j.i < j.e.operands.length) {
            if (tracing) j.seen.push(...w);
            e = j.e.operands[j.i]!;
            scope = j.scope;
            break descend;
          }
          stack.pop();
          // Decided by this operand: its witness alone; else every operand's.
          if (tracing && result !== or) w = [...j.seen, ...w];
          result = result !== j.negated;
        } else {
          const c = f as CollectionFrame;
          if (result !== c.any && ++c.i < (c.list ?? c.keys).length) {
            if (tracing) c.seen.push(...w);
            scope = enter(c);
            e = c.e.body;
            break descend;
          }
          stack.pop();
          const answer = result === c.any ? c.any : !c.any;
          // Decided by this element: the collection and its witness; else every element's.
          if (tracing) {
            const [own, ...elements] = c.seen;
            w = [{ ...own!, outcome: answer }, ...(result === c.any ? w : [...elements, ...w])];
          }
          result = answer !== c.negated;
        }
      }
    }
  }
}

/** The state of an any/all about to visit its first element, or its answer when there is none to visit. */
function startCollection(e: CollectionExpr, ctx: Context, scope: Scope | undefined, negated: boolean, target = select(e, ctx, scope)): CollectionFrame | boolean {
  if (target === MISSING) return COLLECTION_MISSING[e.quantifier];
  const kind = kindOf(target.type, target.value);
  if (kind !== "list" && kind !== "map") {
    throw notACollection({ source: ctx.source, span: e.selector.span }, selectorSource(e.selector), kind, e.quantifier);
  }
  const clash = placeholderClash(e.binding, e.selector);
  // A collection outside every collection body is the outermost one being iterated.
  if (scope === undefined) ctx.outermost = e;
  const list = kind === "list" ? ((target.value ?? []) as unknown[]) : undefined;
  const map = kind === "map" ? ((target.value ?? {}) as Record<string, unknown>) : undefined;
  return {
    e,
    scope,
    negated,
    any: e.quantifier === "any",
    list,
    map,
    keys: map ? Object.keys(map) : [],
    elemType: elementType(target.type),
    names: boundNames(e.binding),
    clash,
    path: clash.hidden ? selectorKeys(e.selector) : [],
    steps: ctx.budget === undefined ? 0 : iterationSteps(e.body),
    i: 0,
    seen: [],
  };
}

// ---------------------------------------------------------------------------------------------
// The trace of `explainInterpreted`

/** The elements of the collections being iterated around a leaf, outermost first. */
function elementsOf(stack: readonly (JunctionFrame | CollectionFrame)[]): (number | string)[] {
  const out: (number | string)[] = [];
  for (const f of stack) {
    if ("operands" in f.e) continue;
    const c = f as CollectionFrame;
    out.push(c.list ? c.i : c.keys[c.i]!);
  }
  return out;
}

function readOf(target: Typed | typeof MISSING | undefined): WitnessLeaf["read"] {
  return target === undefined ? undefined : target === MISSING ? { missing: true } : { value: target.value };
}

/** `f()`; should it throw, the leaf `failing()` gives is the one that raised the error. */
function traced<T>(ctx: Context, failing: () => WitnessLeaf, f: () => T): T {
  try {
    return f();
  } catch (e) {
    ctx.trace!.failing ??= failing();
    throw e;
  }
}

/** A match evaluated, as its leaf (the failing leaf when it throws). */
function traceMatch(e: MatchExpr, ctx: Context, scope: Scope | undefined, stack: readonly (JunctionFrame | CollectionFrame)[]): WitnessLeaf {
  const seen: { target?: Typed | typeof MISSING } = {};
  const leaf = (outcome: boolean | "error"): WitnessLeaf => ({
    kind: "match",
    span: e.span,
    selector: selectorSource(e.selector),
    op: e.op,
    read: readOf(seen.target),
    literal: e.value?.text,
    outcome,
    elements: elementsOf(stack),
  });
  return leaf(traced(ctx, () => leaf("error"), () => evaluateMatch(e, ctx, scope, seen)));
}

function collectionLeaf(e: CollectionExpr, stack: readonly (JunctionFrame | CollectionFrame)[], target: Typed | typeof MISSING | undefined, outcome: boolean | "error"): WitnessLeaf {
  return { kind: "collection", span: e.span, selector: selectorSource(e.selector), op: e.quantifier, read: readOf(target), literal: undefined, outcome, elements: elementsOf(stack) };
}

/** `startCollection` with the collection's own leaf first in the frame's `seen` (its outcome the quantifier's empty answer until decided). */
function traceCollection(e: CollectionExpr, ctx: Context, scope: Scope | undefined, negated: boolean, stack: readonly (JunctionFrame | CollectionFrame)[]): CollectionFrame | boolean {
  const target = traced(ctx, () => collectionLeaf(e, stack, undefined, "error"), () => select(e, ctx, scope));
  const leaf = collectionLeaf(e, stack, target, e.quantifier === "all");
  const f = traced(ctx, () => ({ ...leaf, outcome: "error" }), () => startCollection(e, ctx, scope, negated, target));
  if (typeof f !== "boolean") f.seen.push(leaf);
  return f;
}

/** Takes the steps of element `f.i` and returns the scope its body runs in. */
function visit(f: CollectionFrame, ctx: Context): Scope | undefined {
  const budget = ctx.budget;
  if (budget !== undefined) charge(budget, f.steps, ctx.source, ctx.outermost!.span);
  if (f.clash.both) throw bothPlaceholderError({ source: ctx.source, span: f.e.span }, f.names[0]!.name);
  const isList = f.list !== undefined;
  const key = isList ? f.i : f.keys[f.i]!;
  const index: Typed = isList ? { type: { kind: "int" }, value: key } : { type: { kind: "string" }, value: key };
  const raw = isList ? f.list![f.i] : f.map![key as string];
  const element: Typed = { type: f.elemType, value: typed(f.elemType, raw) };
  let inner = f.scope;
  for (const n of f.names) {
    const value = n.role === "index" ? index : n.role === "value" ? element : isList ? element : index;
    inner = f.clash.hidden && n.role === "value" ? { name: n.name, value, next: inner, hidden: { path: f.path, index: key } } : { name: n.name, value, next: inner };
  }
  return inner;
}

/** Resolves a selector from the datum, or from a bound name when its first step is one. */
function select(e: MatchExpr | CollectionExpr, ctx: Context, scope: Scope | undefined): Typed | typeof MISSING {
  const keys = selectorKeys(e.selector);
  const unknown = "unknownValue" in ctx.options ? { value: ctx.options.unknownValue } : undefined;
  const strict = ctx.options.missingLeafIsError === true;
  const site = { source: ctx.source, span: e.span };
  // The reference looks placeholders up by the first step of any selector, JSON Pointers included.
  for (let s = scope; s; s = s.next) {
    if (s.name === keys[0]) {
      if (s.hidden) throw hiddenPlaceholderError(site, s.hidden.path, keys.slice(1), s.hidden.index);
      return walk(s.value, keys.slice(1), walkReporter(site, e.selector, 1), unknown, 1, strict);
    }
  }
  return walk(ctx.root, keys, walkReporter(site, e.selector), unknown, 0, strict);
}

function evaluateMatch(e: MatchExpr, ctx: Context, scope: Scope | undefined, seen?: { target?: Typed | typeof MISSING }): boolean {
  const info = OPERATORS[e.op];
  const target = select(e, ctx, scope);
  if (seen !== undefined) seen.target = target;
  if (target === MISSING) return info.missing;
  const site: Site = { source: ctx.source, span: e.span, selector: selectorSource(e.selector), op: e.op };
  const lit: LiteralValue = literalValue(e.value?.text ?? "");
  const result = applyOperator(info.base, site, target.type, target.value, lit, info.base === "matches" ? pattern(e.value!, ctx, scope) : undefined);
  return info.negated ? !result : result;
}

/** The literal's pattern, compiled once per evaluation, its tests charged to the budget (`meteredPattern`). */
function pattern(lit: Literal, ctx: Context, scope: Scope | undefined): Pattern {
  let p = ctx.patterns.get(lit);
  if (!p) {
    // A literal lies at the top level or inside one outermost collection, whichever evaluates it.
    const span = scope === undefined ? ctx.top : ctx.outermost!.span;
    ctx.patterns.set(lit, (p = meteredPattern(compilePattern(lit.text), () => ctx.budget, ctx.source, () => span)));
  }
  return p;
}
