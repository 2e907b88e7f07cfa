/**
 * What a filter means statically, per node of its plan, found without building closures: its cost,
 * whether it can fail, whether its cost depends on the data (metered), what it charges a budget at its
 * level, whether its work grows with the datum; and for the whole filter (`filterFacts`, the public
 * `Filter.facts`) its top-level conjuncts and its key leaf. The tree has the compiled plan's shape
 * (`not` runs folded, De Morgan applied, memberships fused, operands that cannot fail reordered
 * cheapest first). The rules are here once: the compiler builds each plan node with this module's
 * node rules (`matchNode`, `junctionFacts`, `membershipNode`, …), reorders with `reorderBy`, fuses
 * with `membershipKey`, and charges budgets by `charge`; `FilterSet`, `split` and the server read
 * `filterFacts`, which takes no slot of closure copies. Selectors' static types come from `path.ts`.
 * The property tests compare this tree with `compileAst`'s plan.
 */
import type { CollectionExpr, Expr, MatchExpr } from "../syntax/ast.js";
import { notRun } from "../syntax/ast.js";
import { OPERATORS } from "./operators.js";
import { OPERATIONS, staticTest, type BaseOp } from "./table.js";
import type { Site } from "./match-errors.js";
import { literalValue } from "./values.js";
import type { Type } from "./schema.js";
import { bind, boundType, concrete, lookup, pathFrom, selectorKeys, type Scope } from "./path.js";
import { compilePattern } from "./pattern.js";
import type { EvaluationRules } from "./rules.js";

/** A node of the compiled plan as far as cost and failure go: `PlanNode` without its label. */
export interface PlanFacts {
  /** Relative cost estimate used to order operands. */
  readonly cost: number;
  /** True when the node can never raise an evaluation error. */
  readonly infallible: boolean;
  /** True when its cost depends on the data (a regular expression's test): it is never reordered. */
  readonly metered: boolean;
  /**
   * The steps it charges an evaluation's budget at its own level: one per match test outside the
   * bodies of `any`/`all` (a body charges its own, per element).
   */
  readonly charge: number;
  /** True when its work can grow with the datum: it holds an `any`/`all` (over a list's length) or a regular expression (over a text's length). */
  readonly grows: boolean;
  readonly children: readonly PlanFacts[];
}

/** Nesting of collection bodies the compiler turns into closures (the reference's budget allows about 1,500). */
export const MAX_COMPILED_NESTING = 2000;

/** False when collections nest deeper than closures may (the program then runs the interpreter). */
export function closable(ast: Expr, source: string): boolean {
  return source.length <= MAX_COMPILED_NESTING * 10 || collectionDepth(ast) <= MAX_COMPILED_NESTING;
}

/** The deepest nesting of collection bodies in `e`, found without recursion. */
export function collectionDepth(e: Expr): number {
  let max = 0;
  const stack: [Expr, number][] = [[e, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    switch (x.kind) {
      case "not":
        stack.push([x.operand, d]);
        break;
      case "and":
      case "or":
        for (const o of x.operands) stack.push([o, d]);
        break;
      case "collection":
        if (d + 1 > max) max = d + 1;
        stack.push([x.body, d + 1]);
        break;
      case "match":
        break;
    }
  }
  return max;
}

/** The facts of the plan of `ast` when it runs the interpreter (collections nested too deep). */
export function interpretedFacts(ast: Expr): PlanFacts {
  return { cost: 20, infallible: false, metered: false, charge: levelMatches(ast), grows: true, children: [] };
}

/** The number of match tests of `e`'s own level: not inside collection bodies. Iterative (no recursion). */
export function levelMatches(e: Expr): number {
  let count = 0;
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    switch (x.kind) {
      case "match":
        count++;
        break;
      case "not":
        stack.push(x.operand);
        break;
      case "and":
      case "or":
        for (const o of x.operands) stack.push(o);
        break;
      case "collection":
        break;
    }
  }
  return count;
}

/**
 * The facts of each node of the plan `compileAst(ast, source, root, options)` would build, equal to
 * its plan's `cost`, `infallible` and `metered` node by node, without compiling.
 */
export function planFacts(ast: Expr, source: string, root: Type, options: EvaluationRules = {}): PlanFacts {
  if (!closable(ast, source)) return interpretedFacts(ast);
  return exprFacts(ast, { source, root, options, scope: [] }, false);
}

/** What a filter means statically, found in one pass over its AST without building closures. */
export interface FilterFacts {
  /** It can raise an evaluation error on some datum (a missing key, a value of another type, a budget). */
  readonly canFail: boolean;
  /** Its cost depends on the data: it tests a regular expression (charged by the text's length). */
  readonly metered: boolean;
  /** Relative cost estimate of one evaluation (the compiled plan's). */
  readonly cost: number;
  /** The steps one evaluation charges a budget before anything runs: one per match test outside `any`/`all` bodies. */
  readonly levelCharge: number;
  /** Its work on one datum can grow with the datum: it holds an `any`/`all` or a regular expression. */
  readonly growsWithItems: boolean;
  /** The top-level conjuncts (nested `and`s flattened, `conjuncts`), in source order, each with its facts. */
  readonly conjuncts: readonly ConjunctFacts[];
  /**
   * The first conjunct that is an equality (`S == value`) and cannot fail, when every conjunct before
   * it cannot fail either: wherever it is false, the filter is false. An index of filters can key on it.
   */
  readonly keyLeaf: KeyLeaf | undefined;
}

/** A top-level conjunct and what it says. */
export interface ConjunctFacts {
  readonly expr: Expr;
  readonly canFail: boolean;
  readonly metered: boolean;
}

/** A filter's key leaf (`FilterFacts.keyLeaf`). */
export interface KeyLeaf {
  readonly match: MatchExpr;
  /** The selector reads a string field through records only (none behind a pointer): `value === text` decides it. */
  readonly stringField: boolean;
  /** A conjunct before it is metered: with a budget, it may fail there before the leaf is reached. */
  readonly afterMetered: boolean;
}

/** The facts of the filter `ast` (parsed from `source`) over `root` with `options`, as `compileAst` would plan it. */
export function filterFacts(ast: Expr, source: string, root: Type, options: EvaluationRules = {}): FilterFacts {
  const env: FactsEnv = { source, root, options, scope: [] };
  const conjuncts: ConjunctFacts[] = [];
  // The top-level and-chain as `exprFacts` walks it, keeping each conjunct's facts on the way.
  const top = (e: Expr): PlanFacts => {
    if (e.kind === "and") {
      const parts = e.operands.map(top);
      return parts.length === 1 ? parts[0]! : junctionFacts(reorderFacts(parts));
    }
    const f = closable(e, source) ? exprFacts(e, env, false) : interpretedFacts(e);
    conjuncts.push({ expr: e, canFail: !f.infallible, metered: f.metered });
    return f;
  };
  const whole = top(ast);
  const plan = closable(ast, source) ? whole : interpretedFacts(ast);
  return { canFail: !plan.infallible, metered: plan.metered, cost: plan.cost, levelCharge: plan.charge, growsWithItems: plan.grows, conjuncts, keyLeaf: keyLeafOf(conjuncts, root) };
}

function keyLeafOf(conjuncts: readonly ConjunctFacts[], root: Type): KeyLeaf | undefined {
  let afterMetered = false;
  for (const { expr: c, canFail, metered } of conjuncts) {
    if (canFail) return undefined;
    if (c.kind === "match" && c.op === "==" && c.value !== undefined) {
      const path = pathFrom(root, selectorKeys(c.selector));
      return { match: c, stringField: path.infallible && path.type?.kind === "string", afterMetered };
    }
    afterMetered ||= metered;
  }
  return undefined;
}

/** What the facts of a node depend on besides the node. */
interface FactsEnv {
  readonly source: string;
  readonly root: Type;
  readonly options: EvaluationRules;
  /** Bound names, innermost last. */
  readonly scope: Scope;
}

/** A node; metered when it says so or when one of its children is. */
function node<P extends PlanFacts>(cost: number, infallible: boolean, children: readonly P[], metered: boolean, charge: number, grows: boolean): PlanFacts & { readonly children: readonly P[] } {
  return { cost, infallible, metered: metered || children.some((c) => c.metered), charge, grows, children };
}

function exprFacts(e: Expr, env: FactsEnv, negate: boolean): PlanFacts {
  switch (e.kind) {
    case "not": {
      const { operand, negated } = notRun(e);
      return exprFacts(operand, env, negated !== negate);
    }
    case "match":
      return matchFacts(e, env);
    case "collection": {
      const c = collectionFacts(e, env);
      return negate ? negatedNode(c) : c;
    }
    case "and":
    case "or": {
      const isAnd = (e.kind === "and") !== negate;
      const parts = isAnd ? e.operands.map((o) => exprFacts(o, env, negate)) : disjunctFacts(e.operands, env, negate);
      return parts.length === 1 ? parts[0]! : junctionFacts(reorderFacts(parts));
    }
  }
}

/** The operands of an `or`, each run of `K == "text"` on one top-level key fused into one membership. */
function disjunctFacts(operands: readonly Expr[], env: FactsEnv, negate: boolean): PlanFacts[] {
  return disjunctRuns(operands, (o) => (negate ? undefined : equalityKey(o, env))).map(({ run, key }) => {
    if (key === undefined) return exprFacts(run[0]!, env, negate);
    const group = run.map((o) => exprFacts(o, env, negate));
    const general = junctionFacts(group);
    return membershipFusable(key, equalityTexts(run)) ? membershipNode(group, general) : general;
  });
}

/**
 * The operands of an `or` in runs, as the compiler fuses them: two or more consecutive operands with
 * the same membership key (`keyOf`: `membershipKey`, or undefined under a negation) are one run with
 * that key; any other operand is a run of its own, without a key.
 */
export function disjunctRuns(operands: readonly Expr[], keyOf: (e: Expr) => string | undefined): { readonly run: readonly Expr[]; readonly key: string | undefined }[] {
  const runs: { run: readonly Expr[]; key: string | undefined }[] = [];
  let i = 0;
  while (i < operands.length) {
    const key = keyOf(operands[i]!);
    let j = i + 1;
    while (key !== undefined && j < operands.length && keyOf(operands[j]!) === key) j++;
    runs.push({ run: operands.slice(i, j), key: j - i > 1 ? key : undefined });
    i = j;
  }
  return runs;
}

/** True when the membership fast path fuses `key == texts[0] or …` (the key is no property of every object, no text is empty). */
export function membershipFusable(key: string, texts: readonly string[]): boolean {
  return !(key in Object.prototype || texts.some((t) => t === ""));
}

/** The texts of a run of `K == "text"` (`disjunctRuns`). */
export const equalityTexts = (run: readonly Expr[]): string[] => run.map((o) => (o as MatchExpr).value!.text);

/**
 * The key of `K == "text"` when K is one top-level key the membership fast path can read (with no
 * unknown value, not a bound name, a string field of a record or a key of JSON).
 */
export function membershipKey(e: Expr, root: Type, options: EvaluationRules, isBound: (name: string) => boolean): string | undefined {
  if (e.kind !== "match" || e.op !== "==" || e.selector.segments.length !== 1 || !e.value) return undefined;
  const key = e.selector.segments[0]!.name;
  if (options.unknownValue !== undefined || "unknownValue" in options || isBound(key)) return undefined;
  if (root.kind === "record") return pathFrom(root, [key]).type?.kind === "string" ? key : undefined;
  return root.kind === "any" ? key : undefined;
}

function equalityKey(e: Expr, env: FactsEnv): string | undefined {
  return membershipKey(e, env.root, env.options, (name) => lookup(env.scope, name) !== undefined);
}

/** An operand that may run earlier or later than written: it cannot fail and its cost does not depend on the data. */
export function movable(p: { readonly infallible: boolean; readonly metered: boolean }): boolean {
  return p.infallible && !p.metered;
}

/**
 * Sorts each run of consecutive movable operands by cost (stable); the others keep their place.
 * `factsOf` gives an operand's facts. Returns `parts` itself when it is in order already.
 */
export function reorderBy<P>(parts: P[], factsOf: (p: P) => { readonly cost: number; readonly infallible: boolean; readonly metered: boolean }): P[] {
  // Most chains are in order already: no copy then.
  let sorted = true;
  for (let i = 1; i < parts.length && sorted; i++) {
    const a = factsOf(parts[i - 1]!);
    const b = factsOf(parts[i]!);
    sorted = !(movable(b) && movable(a) && a.cost > b.cost);
  }
  if (sorted) return parts;
  const out = parts.slice();
  // A stable insertion sort within each run (operands are few): a part moves left past costlier
  // parts of its own run only.
  for (let i = 1; i < out.length; i++) {
    const p = out[i]!;
    const pf = factsOf(p);
    if (!movable(pf)) continue;
    let j = i;
    while (j > 0 && movable(factsOf(out[j - 1]!)) && factsOf(out[j - 1]!).cost > pf.cost) {
      out[j] = out[j - 1]!;
      j--;
    }
    out[j] = p;
  }
  return out;
}

function reorderFacts(parts: PlanFacts[]): PlanFacts[] {
  return reorderBy(parts, (p) => p);
}

/**
 * The plan's rules for each kind of node, from the facts of its children: the compiler builds its
 * plan nodes with them (`compile.ts`), and `planFacts` its tree of facts.
 */

/** An `and` or `or` of `parts` (in their order, reordered already): costs and charges add up; it fails if one can, is metered (grows) if one is. */
export function junctionFacts<P extends PlanFacts>(parts: readonly P[]): PlanFacts & { readonly children: readonly P[] } {
  let cost = 0;
  let infallible = true;
  let metered = false;
  let charge = 0;
  let grows = false;
  for (const p of parts) {
    cost += p.cost;
    infallible &&= p.infallible;
    metered ||= p.metered;
    charge += p.charge;
    grows ||= p.grows;
  }
  return { cost, infallible, metered, charge, grows, children: parts };
}

/** What a selector's reading is, statically: the compiler's `compileSelector` without its reader. */
interface SelectorFacts {
  /** The static type of the value read (`any` when only known at run time). */
  readonly type: Type;
  /** True when reading can neither fail nor miss. */
  readonly infallible: boolean;
  /** True when the type is known only at run time. */
  readonly dynamic: boolean;
}

const ANY_TYPE: Type = { kind: "any" };
const DYNAMIC: SelectorFacts = { type: ANY_TYPE, infallible: false, dynamic: true };

function selectorFacts(owner: MatchExpr | CollectionExpr, env: FactsEnv): SelectorFacts {
  const keys = selectorKeys(owner.selector);
  const unknown = "unknownValue" in env.options;
  const strict = env.options.missingLeafIsError === true;
  const bound = lookup(env.scope, keys[0]);
  if (bound?.hidden) return DYNAMIC;
  if (bound) {
    const type = unknown ? undefined : pathFrom(bound.type, keys.slice(1), 1).type;
    return type === undefined ? DYNAMIC : { type, infallible: false, dynamic: false };
  }
  if (unknown || strict) return DYNAMIC;
  // Where a step fails on every value, the type is `any`: nothing is read past it.
  const path = pathFrom(env.root, keys);
  return { type: path.type ?? ANY_TYPE, infallible: path.infallible, dynamic: false };
}

/** A site for the operator table's static test (its messages are never built here). */
function siteOf(e: MatchExpr, env: FactsEnv): Site {
  return { source: env.source, span: e.span, op: e.op, selector: "" };
}

function matchFacts(e: MatchExpr, env: FactsEnv): PlanFacts {
  const base = OPERATORS[e.op].base;
  const sel = selectorFacts(e, env);
  const metered = base === "matches";
  if (sel.dynamic) return matchNode(base, sel, undefined);
  const pattern = metered ? compilePattern(e.value!.text) : undefined;
  return matchNode(base, sel, staticTest(base, { site: siteOf(e, env), type: sel.type, lit: literalValue(e.value?.text ?? ""), pattern }));
}

/**
 * A match of `base` whose selector reads as `sel` says: with `known`, the operator's test for the
 * static type (every kind it allows accepted, none failing), it costs that test's cost, and cannot
 * fail when reading cannot either; a regular expression's test is metered.
 */
export function matchNode(base: BaseOp, sel: { readonly infallible: boolean; readonly dynamic: boolean }, known: { readonly cost: number } | undefined): PlanFacts {
  const metered = base === "matches";
  if (sel.dynamic) return node(OPERATIONS[base].cost, false, [], metered, 1, metered);
  return node(known?.cost ?? OPERATIONS[base].cost, known !== undefined && sel.infallible, [], metered, 1, metered);
}

/** A collection expression over `body`: it costs 20 more than its body and can always fail (a value that is no collection). */
export function collectionNode<P extends PlanFacts>(body: P): PlanFacts & { readonly children: readonly P[] } {
  return node(20 + body.cost, false, [body], false, 0, true);
}

/** The negation of a collection expression `c`: the same facts. */
export function negatedNode<P extends PlanFacts>(c: PlanFacts & { readonly children: readonly P[] }): PlanFacts & { readonly children: readonly P[] } {
  return node(c.cost, c.infallible, c.children, false, c.charge, c.grows);
}

/**
 * A run of `K == "text"` fused into one membership test, from its equalities (`group`) and their `or`
 * (`general`): up to three texts cost what one equality costs (so that reordering does not move it
 * after the operands written after it); a longer set, what they all do.
 */
export function membershipNode<P extends PlanFacts>(group: readonly PlanFacts[], general: PlanFacts & { readonly children: readonly P[] }): PlanFacts & { readonly children: readonly P[] } {
  return node(group.length <= 3 ? group[0]!.cost : general.cost, general.infallible, general.children, false, general.charge, general.grows);
}

function collectionFacts(e: CollectionExpr, env: FactsEnv): PlanFacts {
  const sel = selectorFacts(e, env);
  const names = bind(e.binding, e.selector, sel.type).map((n) => ({ ...n, type: n.hidden ? undefined : bindingType(n.role, sel.type, sel.dynamic) }));
  const inner: FactsEnv = { ...env, scope: [...env.scope, ...names] };
  return collectionNode(exprFacts(e.body, inner, false));
}

/**
 * The static type of a bound name as the compiled program reads it: when the collection's type is
 * known at compile time to be a list or a map, its element's or index's; otherwise (`dynamic`, or
 * `any`) undefined: the frame holds values typed at run time.
 */
export function bindingType(role: "default" | "index" | "value", over: Type, dynamic: boolean): Type | undefined {
  const kind = concrete(over).kind;
  return dynamic || (kind !== "list" && kind !== "map") ? undefined : boundType(role, over);
}
