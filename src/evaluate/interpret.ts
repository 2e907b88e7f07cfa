/**
 * The plain tree-walking interpreter: the executable specification of the language. It favours
 * clarity over speed; the compiler must agree with it on every answer and every error class.
 */
import type { CollectionExpr, Expr, Literal, MatchExpr } from "../syntax/ast.js";
import { selectorSource } from "../syntax/parser.js";
import {
  COLLECTION_MISSING,
  OPERATORS,
  applyOperator,
  describeKind,
  evalError,
  literalValue,
  type LiteralValue,
  type Site,
} from "../semantics/operators.js";
import { ANY, type Type } from "../semantics/schema.js";
import { MISSING, elementType, kindOf, typed, walk, type Typed } from "../semantics/select.js";
import { charge, iterationSteps, levelMatches, type EvaluationBudget } from "./budget.js";
import { bothPlaceholderError, boundNames, hiddenPlaceholderError, placeholderClash, selectorKeys, walkReporter, type EvaluateOptions } from "./common.js";
import { compilePattern, type Pattern } from "./regex.js";

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
  readonly options: EvaluateOptions;
  readonly patterns: Map<Literal, Pattern>;
  /** The budget being charged, if any, and the outermost collection being iterated (its span). */
  readonly budget: EvaluationBudget | undefined;
  outermost: CollectionExpr | undefined;
}

/**
 * Evaluates `ast` (parsed from `source`) against `datum` seen through `type` (`ANY` for plain JSON).
 * Throws `FilterEvaluationError` where the reference fails. With a `budget`, evaluation takes its steps
 * from it (see `budget.ts`) and throws `too-expensive` when it runs out.
 */
export function interpret(ast: Expr, source: string, datum: unknown, type: Type = ANY, options: EvaluateOptions = {}, budget?: EvaluationBudget): boolean {
  const ctx: Context = { source, root: { type, value: typed(type, datum) }, options, patterns: new Map(), budget, outermost: undefined };
  if (budget !== undefined) charge(budget, levelMatches(ast), source, ast.span);
  return evaluate(ast, ctx, undefined);
}

function evaluate(e: Expr, ctx: Context, scope: Scope | undefined): boolean {
  switch (e.kind) {
    case "not": {
      // A run of `not`s is one negation or none (no recursion per `not`).
      let x: Expr = e;
      let negated = false;
      while (x.kind === "not") {
        x = x.operand;
        negated = !negated;
      }
      return evaluate(x, ctx, scope) !== negated;
    }
    case "and":
      for (const o of e.operands) if (!evaluate(o, ctx, scope)) return false;
      return true;
    case "or":
      for (const o of e.operands) if (evaluate(o, ctx, scope)) return true;
      return false;
    case "match":
      return evaluateMatch(e, ctx, scope);
    case "collection":
      return evaluateCollection(e, ctx, scope);
  }
}

/** Resolves a selector from the datum, or from a bound name when its first step is one. */
function select(e: MatchExpr | CollectionExpr, ctx: Context, scope: Scope | undefined): Typed | typeof MISSING {
  const keys = selectorKeys(e.selector);
  const unknown = "unknownValue" in ctx.options ? { value: ctx.options.unknownValue } : undefined;
  const site = { source: ctx.source, span: e.span };
  // The reference looks placeholders up by the first step of any selector, JSON Pointers included.
  for (let s = scope; s; s = s.next) {
    if (s.name === keys[0]) {
      if (s.hidden) throw hiddenPlaceholderError(site, s.hidden.path, keys.slice(1), s.hidden.index);
      return walk(s.value, keys.slice(1), walkReporter(site, e.selector, 1), unknown, 1);
    }
  }
  return walk(ctx.root, keys, walkReporter(site, e.selector), unknown);
}

function evaluateMatch(e: MatchExpr, ctx: Context, scope: Scope | undefined): boolean {
  const info = OPERATORS[e.op];
  const target = select(e, ctx, scope);
  if (target === MISSING) return info.missing;
  const site: Site = { source: ctx.source, span: e.span, selector: selectorSource(e.selector), op: e.op };
  const lit: LiteralValue = literalValue(e.value?.text ?? "");
  const result = applyOperator(info.base, site, target.type, target.value, lit, info.base === "matches" ? pattern(e.value!, ctx) : undefined);
  return info.negated ? !result : result;
}

function pattern(lit: Literal, ctx: Context): Pattern {
  let p = ctx.patterns.get(lit);
  if (!p) ctx.patterns.set(lit, (p = compilePattern(lit.text)));
  return p;
}

function evaluateCollection(e: CollectionExpr, ctx: Context, scope: Scope | undefined): boolean {
  const target = select(e, ctx, scope);
  if (target === MISSING) return COLLECTION_MISSING[e.quantifier];
  const kind = kindOf(target.type, target.value);
  if (kind !== "list" && kind !== "map") {
    throw evalError({ source: ctx.source, span: e.selector.span }, "not-a-collection", `${selectorSource(e.selector)} is ${describeKind(kind)}, not a list or a map; ${e.quantifier} needs one`);
  }
  const elemType = elementType(target.type);
  const names = boundNames(e.binding);
  const any = e.quantifier === "any";
  const clash = placeholderClash(e.binding, e.selector);
  const path = clash.hidden ? selectorKeys(e.selector) : [];
  // A collection outside every collection body is the outermost one being iterated.
  if (scope === undefined) ctx.outermost = e;
  const budget = ctx.budget;
  const steps = budget === undefined ? 0 : iterationSteps(e.body);
  const visit = (index: Typed, element: Typed, isList: boolean): boolean => {
    if (budget !== undefined) charge(budget, steps, ctx.source, ctx.outermost!.span);
    if (clash.both) throw bothPlaceholderError({ source: ctx.source, span: e.span }, names[0]!.name);
    let inner = scope;
    for (const n of names) {
      const value = n.role === "index" ? index : n.role === "value" ? element : isList ? element : index;
      inner = clash.hidden && n.role === "value" ? { name: n.name, value, next: inner, hidden: { path, index: index.value as number | string } } : { name: n.name, value, next: inner };
    }
    return evaluate(e.body, ctx, inner);
  };
  if (kind === "list") {
    const list = (target.value ?? []) as unknown[];
    for (let i = 0; i < list.length; i++) {
      const r = visit({ type: { kind: "int" }, value: i }, { type: elemType, value: typed(elemType, list[i]) }, true);
      if (r === any) return any;
    }
  } else {
    const map = (target.value ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(map)) {
      const r = visit({ type: { kind: "string" }, value: key }, { type: elemType, value: typed(elemType, map[key]) }, false);
      if (r === any) return any;
    }
  }
  return !any;
}
