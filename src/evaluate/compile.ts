/**
 * The optimizing compiler: AST → closures (no `eval`, no `new Function`). Every step keeps the
 * interpreter's results and errors (the property tests compare the two):
 * - a literal is converted to a Go type once, the first time it meets one;
 * - selector paths become own-property reads specialised by the static type of each step, and, for
 *   plain objects, fused with the operator's test in one closure (`fast.ts`);
 * - `not` is folded into the operator (`not a == 1` ≡ `a != 1`, missing keys included), double
 *   negation disappears, and De Morgan pushes negation through `and`/`or`;
 * - each operator gets a closure specialised to the static type of its operand (with a schema, type
 *   checks that cannot fail are dropped);
 * - `K == "a" or K == "b"` becomes one membership test; `and`/`or` chains run as flat calls, and runs
 *   of operands that can never raise an error are reordered cheapest first;
 * - regular expressions are compiled once, with exact fast paths (`regex.ts`).
 */
import type { Span } from "../errors.js";
import { notRun, type CollectionExpr, type Expr, type MatchExpr } from "../syntax/ast.js";
import { selectorSource } from "../syntax/print.js";
import { COLLECTION_MISSING, OPERATORS } from "../semantics/operators.js";
import { dispatchTest, staticTest, type BaseOp, type Test, type TestInput } from "../semantics/table.js";
import { notACollection, stepError, type Site } from "../semantics/match-errors.js";
import { literalValue } from "../semantics/values.js";
import type { RecordType, Type } from "../semantics/schema.js";
import { MISSING, isObject, kindOf, step, typed, walk, type Typed } from "../semantics/select.js";
import { concrete, elementType, lookup, pathFrom, placeholderClash, selectorKeys, type StaticPath } from "../semantics/path.js";
import { charge, meteredPattern, type EvaluationBudget } from "./budget.js";
import { boundNames } from "../syntax/reads.js";
import { bothPlaceholderError, hiddenPlaceholderError, selectorPrefix, walkReporter } from "./common.js";
import type { EvaluationRules } from "../semantics/rules.js";
import { allOf, anyOf, filterInChunks, perItem, type Batch } from "./batch.js";
import { fastMatch, fastMembership } from "./fast.js";
import { nextClones, type Clones } from "./generated/clones.js";
import { interpret } from "./interpret.js";
import { interpretedFacts, bindingType, closable, collectionNode, disjunctRuns, equalityTexts, junctionFacts, matchNode, MAX_COMPILED_NESTING, membershipKey, membershipNode, negatedNode, reorderBy, type PlanFacts } from "../semantics/facts.js";
import { compilePattern, type Pattern } from "../semantics/pattern.js";

/** Values bound by collection expressions, by slot (allocated by the outermost collection). */
export type Frame = Typed[];
/** A compiled predicate over the raw datum. */
export type Predicate = (datum: unknown, frame?: Frame) => boolean;
/** A compiled selector: the typed value it reaches, or `MISSING`. */
export type Reader = (datum: unknown, frame?: Frame) => unknown;

/** A readable description of the compiled plan, for `--explain` (labels are built when read); `String(plan)` draws it as an indented tree. */
export interface PlanNode extends PlanFacts {
  readonly label: string;
  /** Relative cost estimate used to order operands. */
  readonly cost: number;
  /** True when the node can never raise an evaluation error. */
  readonly infallible: boolean;
  /**
   * True when its cost depends on the data (a regular expression's test, charged to a budget by the
   * length of the text): the compiler keeps such a node where it is, so that a budget is charged at
   * the same tests as the interpreter charges it.
   */
  readonly metered: boolean;
  readonly children: readonly PlanNode[];
}

/** A plan node whose label is built only when someone reads it (compiling stays cheap). */
class LazyPlanNode implements PlanNode {
  private text: string | undefined;
  constructor(
    private readonly describe: () => string,
    readonly cost: number,
    readonly infallible: boolean,
    readonly children: readonly PlanNode[],
    readonly metered: boolean,
    readonly charge: number,
    readonly grows: boolean,
  ) {}
  get label(): string {
    return (this.text ??= this.describe());
  }
  toJSON(): { label: string; cost: number; infallible: boolean; metered: boolean; children: readonly PlanNode[] } {
    return { label: this.label, cost: this.cost, infallible: this.infallible, metered: this.metered, children: this.children };
  }
  /** The plan as an indented tree, a node a line: its label, its cost, whether it can fail, whether its cost depends on the data. */
  toString(): string {
    const lines: string[] = [];
    const visit = (node: PlanNode, indent: string): void => {
      lines.push(`${indent}${node.label}  (cost ${node.cost}${node.infallible ? ", cannot fail" : ""}${node.metered ? ", metered" : ""})`);
      for (const child of node.children) visit(child, `${indent}  `);
    };
    visit(this, "");
    return lines.join("\n");
  }
}

/** A plan node with `facts` (its cost, whether it can fail, whether it is metered: the rules of `facts.ts`). */
function planNode(label: () => string, facts: PlanFacts, children: readonly PlanNode[]): PlanNode {
  return new LazyPlanNode(label, facts.cost, facts.infallible, children, facts.metered, facts.charge, facts.grows);
}

interface Compiled {
  readonly run: Predicate;
  readonly plan: PlanNode;
  /** Its loop over a chunk of items (`batch.ts`), built on first use; without one, `run` per item. */
  readonly batch?: () => Batch;
}

/** The loop over a chunk of a node outside every collection. */
function batchOf(c: Compiled): Batch {
  return c.batch ? c.batch() : perItem(c.run);
}

export interface Env {
  readonly source: string;
  readonly root: Type;
  readonly options: EvaluationRules;
  /** Bound names → frame slot, innermost last. */
  readonly scope: readonly Bound[];
  /** Frame slots allocated so far (shared by the whole program). */
  readonly layout: { slots: number };
  /** Raw datum → typed root value. */
  readonly rootValue: (d: unknown) => unknown;
  /** The budget of the running evaluation (set by the program's `run`, read by collection loops). */
  readonly meter: { budget: EvaluationBudget | undefined };
  /** The outermost collection around the code being compiled, if any. */
  readonly outermost: CollectionExpr | undefined;
  /** The whole expression's span (where a budget runs out outside every collection). */
  readonly top: Span;
  /** This program's copies of the closures that call closures (`clones.ts`). */
  readonly clones: Clones;
}

/** The result of compiling a whole expression. */
export interface CompiledProgram {
  /** With a `budget`, evaluation takes its steps from it as the interpreter does (`budget.ts`). */
  readonly run: (datum: unknown, budget?: EvaluationBudget) => boolean;
  /** The items `run` accepts, in order, evaluated in chunks (`batch.ts`); the first error (in item order) throws. */
  readonly filter: <T>(items: readonly T[]) => T[];
  /** How many items `run` accepts, as `filter(items).length` (errors alike), with no array built. */
  readonly count: (items: ArrayLike<unknown>) => number;
  readonly plan: PlanNode;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Compiles `ast` (parsed from `source`) for data of type `root`. */
export function compileAst(ast: Expr, source: string, root: Type, options: EvaluationRules = {}, clones: Clones = nextClones()): CompiledProgram {
  // Closures nest as deep as the collections do; past this depth (beyond what the reference's parse
  // budget lets through) the program runs the interpreter, whose stack is on the heap.
  if (!closable(ast, source)) {
    const run = (d: unknown, budget?: EvaluationBudget) => interpret(ast, source, d, root, options, budget);
    return {
      run,
      filter: (items) => items.filter((d) => run(d)),
      count: (items) => {
        let n = 0;
        for (let i = 0; i < items.length; i++) if (run(items[i])) n++;
        return n;
      },
      plan: planNode(() => `interpreted: collections nested deeper than ${MAX_COMPILED_NESTING}`, interpretedFacts(ast), []),
    };
  }
  const env = newEnv(ast, source, root, options, clones);
  const meter = env.meter;
  const c = compileExpr(ast, env, false);
  const run = c.run;
  // The steps a budget is charged outside every collection.
  const topSteps = c.plan.charge;
  const slow = (d: unknown, budget?: EvaluationBudget): boolean => {
    if (budget === undefined && meter.budget === undefined) return run(d);
    if (budget !== undefined) charge(budget, topSteps, source, ast.span);
    const previous = meter.budget;
    meter.budget = budget;
    try {
      return run(d);
    } finally {
      meter.budget = previous;
    }
  };
  // The entry checks for a budget in this program's own copy, then calls the program (inlined by V8).
  const budgeted = env.clones.entry(run, slow, meter);
  let batch: Batch | undefined;
  const filter = <T>(items: readonly T[]): T[] => filterInChunks(items, (batch ??= batchOf(c)), run);
  // Counting calls the program per item, in this program's copy of the loop (V8 inlines the program
  // into it): per item it costs what `evaluate` costs, where chunks cost a column per leaf (measured:
  // Q4 2.5× a hand-written loop in chunks, 1.1× per item). The first error in item order throws, as
  // it does in chunks.
  const count = env.clones.count(run);
  return { run: budgeted, filter, count, plan: c.plan };
}

/** The environment of a whole expression: no bound names, no frame slots yet, no budget running. */
export function newEnv(ast: Expr, source: string, root: Type, options: EvaluationRules, clones: Clones = nextClones()): Env {
  return { source, root, options, scope: [], layout: { slots: 0 }, rootValue: rootNormalizer(root), meter: { budget: undefined }, outermost: undefined, top: ast.span, clones };
}

function rootNormalizer(root: Type): (d: unknown) => unknown {
  if (root.kind === "record") return (d) => (isObject(d) ? d : typed(root, undefined));
  return (d) => typed(root, d);
}

function compileExpr(e: Expr, env: Env, negate: boolean): Compiled {
  switch (e.kind) {
    case "not": {
      // A run of `not`s folds into one negation.
      const { operand, negated } = notRun(e);
      return compileExpr(operand, env, negated !== negate);
    }
    case "match":
      return compileMatch(e, env, negate);
    case "collection": {
      const c = compileCollection(e, env);
      if (!negate) return c;
      const p = c.plan;
      return { run: env.clones.not(c.run), plan: planNode(() => `not ${p.label}`, negatedNode(p), p.children) };
    }
    case "and":
    case "or": {
      // De Morgan keeps negation at the leaves: not (a and b) ≡ not a or not b, errors included.
      const isAnd = (e.kind === "and") !== negate;
      const parts = isAnd ? e.operands.map((o) => compileExpr(o, env, negate)) : compileDisjuncts(e.operands, env, negate);
      // A chain fused into one test (a membership) needs no junction around it.
      return parts.length === 1 ? parts[0]! : junction(isAnd, reorder(parts), env);
    }
  }
}

/**
 * The operands of an `or`, with each run of `K == "text"` on the same top-level key fused into one
 * membership test (`Namespace == "prod" or Namespace == "dev"`).
 */
function compileDisjuncts(operands: readonly Expr[], env: Env, negate: boolean): Compiled[] {
  return disjunctRuns(operands, (o) => (negate ? undefined : equalityKey(o, env))).map(({ run, key }) => {
    if (key === undefined) return compileExpr(run[0]!, env, negate);
    const group = run.map((o) => compileExpr(o, env, negate));
    const general = junction(false, group, env);
    const texts = equalityTexts(run);
    const typedString = env.root.kind === "record";
    const fused = fastMembership(key, texts, typedString, general.run);
    const p = general.plan;
    // One read of the key and up to three comparisons cost what one of the equalities costs.
    const facts = membershipNode(group.map((g) => g.plan), p);
    return fused ? { run: fused.run, batch: fused.batch, plan: planNode(() => `${key} in {${texts.map((t) => JSON.stringify(t)).join(", ")}}`, facts, p.children) } : general;
  });
}

/** The key of `K == "text"` when K is one top-level key the membership fast path can read (`facts.ts`). */
function equalityKey(e: Expr, env: Env): string | undefined {
  return membershipKey(e, env.root, env.options, (name) => lookup(env.scope, name) !== undefined);
}

/** Sorts each run of consecutive infallible operands by cost; fallible and metered ones keep their place (`facts.ts`). */
function reorder(parts: Compiled[]): Compiled[] {
  return reorderBy(parts, (p) => p.plan);
}

function junction(isAnd: boolean, parts: Compiled[], env: Env): Compiled {
  // One pass over the parts (compiling stays cheap): their plans and the closures to join.
  const plans: PlanNode[] = [];
  const runs: Predicate[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    plans.push(p.plan);
    runs.push(p.run);
  }
  const plan = planNode(isAnd ? AND_LABEL : OR_LABEL, junctionFacts(plans), plans);
  const batch = () => (isAnd ? allOf : anyOf)(parts.map(batchOf));
  return { run: junctionRun(isAnd, runs, env.clones), plan, batch };
}

const AND_LABEL = (): string => "and";
const OR_LABEL = (): string => "or";

/** The closure per item of an `and` (or `or`) of `runs`, short-circuiting in order (this program's copies). */
function junctionRun(isAnd: boolean, runs: Predicate[], clones: Clones): Predicate {
  const [a, b, c, e] = runs as [Predicate, Predicate, Predicate, Predicate];
  switch (runs.length) {
    case 2:
      return isAnd ? clones.and2(a, b) : clones.or2(a, b);
    case 3:
      return isAnd ? clones.and3(a, b, c) : clones.or3(a, b, c);
    case 4:
      return isAnd ? clones.and4(a, b, c, e) : clones.or4(a, b, c, e);
    default:
      return isAnd ? clones.andN(runs) : clones.orN(runs);
  }
}

// ---------------------------------------------------------------------------------------------
// Selectors

/** Raw → typed value for a static type, specialised. */
function normalizer(type: Type): (raw: unknown) => unknown {
  switch (type.kind) {
    case "string":
      return (v) => (typeof v === "string" ? v : "");
    case "bool":
      return (v) => (typeof v === "boolean" ? v : false);
    case "any":
      return (v) => (v === undefined ? null : v);
    default:
      return (v) => typed(type, v);
  }
}

interface CompiledSelector {
  readonly read: Reader;
  /** The static type of the value read (`any` when only known at run time). */
  readonly type: Type;
  /** True when reading can neither fail nor miss (a chain of record fields from the root). */
  readonly infallible: boolean;
  /** True when the type is known only at run time: `read` then returns a `Typed`. */
  readonly dynamic: boolean;
}

/** One compiled step: typed value in, typed value (or `MISSING`) out; throws on failure. */
type StepFn = (v: unknown) => unknown;

export function compileSelector(owner: MatchExpr | CollectionExpr, env: Env): CompiledSelector {
  const sel = owner.selector;
  const keys = selectorKeys(sel);
  const site = { source: env.source, span: owner.span };
  const unknown = "unknownValue" in env.options ? { value: env.options.unknownValue } : undefined;
  const strict = env.options.missingLeafIsError === true;

  // A selector that starts with a bound name reads from the frame.
  // (JSON Pointers too: the reference looks placeholders up by the first step of any selector.)
  const bound = lookup(env.scope, keys[0]);
  if (bound?.hidden) {
    const { path, indexSlot } = bound.hidden;
    const rest = keys.slice(1);
    const fail: Reader = (_d, f) => {
      throw hiddenPlaceholderError(site, path, rest, f![indexSlot]!.value as number | string);
    };
    return { read: fail, type: ANY_TYPE, infallible: false, dynamic: true };
  }
  if (bound) {
    const rest = keys.slice(1);
    const slot = bound.slot;
    const report = walkReporter(site, sel, 1);
    const readTyped: Reader = (_d, f) => walk(f![slot]!, rest, report, unknown, 1, strict);
    const type = unknown ? undefined : pathFrom(bound.type, rest, 1).type;
    if (type === undefined) return { read: readTyped, type: ANY_TYPE, infallible: false, dynamic: true };
    const read: Reader = rest.length === 0 ? (_d, f) => f![slot]!.value : (d, f) => {
      const r = readTyped(d, f) as Typed | typeof MISSING;
      return r === MISSING ? r : r.value;
    };
    return { read, type, infallible: false, dynamic: false };
  }

  if (unknown || strict) {
    // With an unknown value, the first missing key or field ends the walk with that value, whatever
    // steps follow (the reference's walk); strictly (0.1.11), a missing last key fails like any
    // other: one general walk, exactly the interpreter's.
    const report = walkReporter(site, sel);
    const { root, rootValue } = env;
    return { read: (d) => walk({ type: root, value: rootValue(d) }, keys, report, unknown, 0, strict), type: ANY_TYPE, infallible: false, dynamic: true };
  }

  // The static type and infallibility now; the steps' closures when a first datum needs them (a
  // fused fast path may never need them: compiling stays cheap).
  const path = pathFrom(env.root, keys);
  const type = path.type ?? ANY_TYPE;
  let read: Reader | undefined;
  const rootValue = env.rootValue;
  const build = (): Reader => chain(stepClosures(path, (i, f) => { throw stepError(site, selectorPrefix(sel, i), f); }));
  return { read: (d) => (read ??= build())(rootValue(d)), type, infallible: path.infallible, dynamic: false };
}

/**
 * The closures of a path's steps (typed value in, typed value or `MISSING` out), each step as the
 * path says it reads; `fail` throws a step's error.
 */
function stepClosures(path: StaticPath, fail: (step: number, f: Parameters<typeof stepError>[2]) => never): StepFn[] {
  const count = path.steps.length;
  return path.steps.map(({ key, container, from, nullable, type: fieldType }, i): StepFn => {
    const missing = i === count - 1 && i > 0;
    const nilFails = (): never => fail(i, { failure: "invalid-path", key, kind: "invalid" });
    switch (container) {
      case "record": {
        const c = concrete(from!) as RecordType;
        // A nil pointer fails before its record's fields are looked at.
        if (fieldType === undefined) return (v) => (nullable && v === null ? nilFails() : fail(i, { failure: "unknown-field", key, record: c.name }));
        const norm = normalizer(fieldType);
        if (nullable) return (v) => (v === null ? nilFails() : norm(hasOwn.call(v, key) ? (v as Record<string, unknown>)[key] : undefined));
        return (v) => norm(hasOwn.call(v, key) ? (v as Record<string, unknown>)[key] : undefined);
      }
      case "map": {
        const norm = normalizer(fieldType!);
        return (v) => {
          if (v !== null && hasOwn.call(v, key)) return norm((v as Record<string, unknown>)[key]);
          if (nullable && v === null) return nilFails();
          return missing ? MISSING : fail(i, { failure: "missing-key", key });
        };
      }
      case "dynamic":
      case "unknown":
        // Past a step that fails on every value, nothing is read: the dynamic step stands in.
        return (v) => {
          if (typeof v === "object" && v !== null && !Array.isArray(v)) {
            if (hasOwn.call(v, key)) {
              const x = (v as Record<string, unknown>)[key];
              return x === undefined ? null : x;
            }
            return missing ? MISSING : fail(i, { failure: "missing-key", key });
          }
          const s = step(ANY_TYPE, v, key);
          return "failure" in s ? fail(i, s) : s.value;
        };
      default: {
        // Lists and scalars: the general walk, one step.
        const stepType = from!;
        return (v) => {
          const r = walk({ type: stepType, value: v }, [key], (f) => fail(i, f), undefined, i);
          return r === MISSING ? r : r.value;
        };
      }
    }
  });
}

const ANY_TYPE: Type = { kind: "any" };


/** A bound name: its frame slot and static type; `hidden` for the value of `any k as k, v` (reading fails). */
interface Bound {
  readonly name: string;
  readonly slot: number;
  readonly type: Type | undefined;
  readonly hidden?: { readonly path: readonly string[]; readonly indexSlot: number };
}

function chain(steps: StepFn[]): Reader {
  switch (steps.length) {
    case 1: {
      const [a] = steps as [StepFn];
      return (d) => a(d);
    }
    case 2: {
      const [a, b] = steps as [StepFn, StepFn];
      return (d) => {
        const v = a(d);
        return v === MISSING ? v : b(v);
      };
    }
    case 3: {
      const [a, b, c] = steps as [StepFn, StepFn, StepFn];
      return (d) => {
        let v = a(d);
        if (v === MISSING) return v;
        v = b(v);
        return v === MISSING ? v : c(v);
      };
    }
    default:
      return (d) => {
        let v = d;
        for (const s of steps) {
          v = s(v);
          if (v === MISSING) return v;
        }
        return v;
      };
  }
}

// ---------------------------------------------------------------------------------------------
// Matches

export function compileMatch(e: MatchExpr, env: Env, negate: boolean): Compiled {
  const { info, sel, m } = matchInput(e, env);
  const negated = info.negated !== negate;
  const missing = negate ? !info.missing : info.missing;
  if (sel.dynamic) {
    const decide = dynamicDecision(info.base, m, negated, missing);
    const read = sel.read;
    return { run: (d, f) => decide(read(d, f)), plan: planNode(() => `${matchText(e)}   [${info.base} on a bound value]`, matchNode(info.base, sel, undefined), []) };
  }
  const known = staticTest(info.base, m);
  // The operator's test from the table: built once (`known`) when every kind the static type allows is
  // accepted and cannot fail, else a test that dispatches on the value's kind.
  const facts = matchNode(info.base, sel, known);
  const plan = planNode(() => `${negate ? `not (${matchText(e)})` : matchText(e)}   [${info.base} on ${typeLabel(sel.type)}${facts.infallible ? ", cannot fail" : ""}]`, facts, []);
  const general = (): Predicate => generalMatch(sel, known?.test ?? dispatchTest(info.base, m), negated, missing);
  const bound = lookup(env.scope, e.selector.segments[0]!.name) !== undefined;
  if (!bound && !("unknownValue" in env.options)) {
    // The general closure is built the first time the fast path needs it.
    let slow: Predicate | undefined;
    const fused = fastMatch<Frame>(e, env.root, negate, m, known, (d, f) => (slow ??= general())(d, f), env.clones);
    if (fused) return { run: fused.run, batch: fused.batch, plan };
  }
  return { run: general(), plan };
}

/** A match read by `sel` and tested by `test` (the operator's test for the operand's static type). */
function generalMatch(sel: CompiledSelector, test: Test, negated: boolean, missing: boolean): Predicate {
  const read = sel.read;
  if (sel.infallible) return negated ? (d, f) => !test(read(d, f)) : (d, f) => test(read(d, f));
  if (negated) {
    return (d, f) => {
      const v = read(d, f);
      return v === MISSING ? missing : !test(v);
    };
  }
  return (d, f) => {
    const v = read(d, f);
    return v === MISSING ? missing : test(v);
  };
}

/** A match's site, its selector's text written only when a message needs it (compiling stays cheap). */
class MatchSite implements Site {
  readonly span: Span;
  readonly op: MatchExpr["op"];
  #selector: string | undefined;
  constructor(
    readonly source: string,
    private readonly match: MatchExpr,
  ) {
    this.span = match.span;
    this.op = match.op;
  }
  get selector(): string {
    return (this.#selector ??= selectorSource(this.match.selector));
  }
}

/** A match's operator, its selector compiled, and the input of its operator's test. */
function matchInput(e: MatchExpr, env: Env): { info: (typeof OPERATORS)[keyof typeof OPERATORS]; sel: CompiledSelector; m: TestInput } {
  const info = OPERATORS[e.op];
  const sel = compileSelector(e, env);
  const site: Site = new MatchSite(env.source, e);
  const pattern = info.base === "matches" ? budgetedPattern(e, env) : undefined;
  return { info, sel, m: { site, type: sel.type, lit: literalValue(e.value?.text ?? ""), pattern } };
}

/**
 * The answer of a match whose operand's type is known only at run time (a bound name of a dynamic
 * collection), from what its selector read (a `Typed`, or `MISSING`).
 */
function dynamicDecision(base: BaseOp, m: TestInput, negated: boolean, missing: boolean): (read: unknown) => boolean {
  // The bound values of one collection share a type: the dispatching test is rebuilt only when it changes.
  let lastType: Type | undefined;
  let test: Test = () => false;
  return (read) => {
    if (read === MISSING) return missing;
    const r = read as Typed;
    if (r.type !== lastType) test = dispatchTest(base, { ...m, type: (lastType = r.type) });
    return test(r.value) !== negated;
  };
}

/**
 * A match as a reader and a decision on what it read (for the trace of `explain`, which keeps the
 * value): the reader's value (a `Typed` when `dynamic`, or `MISSING`) in, the match's answer out.
 */
export function matchDecision(e: MatchExpr, env: Env): MatchDecision {
  const { info, sel, m } = matchInput(e, env);
  const { base, negated, missing } = info;
  if (sel.dynamic) return { read: sel.read, dynamic: true, decide: dynamicDecision(base, m, negated, missing), negated, missing };
  const test = staticTest(base, m)?.test ?? dispatchTest(base, m);
  return { read: sel.read, dynamic: false, decide: (v) => (v === MISSING ? missing : test(v) !== negated), type: sel.type, test, negated, missing };
}

/**
 * `matchDecision`'s answer. Unless `dynamic`, `decide` is `test` on the value read (of static type
 * `type`) `!== negated`, and `missing` for `MISSING` (the trace may apply them to a value it read).
 */
export interface MatchDecision {
  readonly read: Reader;
  readonly dynamic: boolean;
  readonly decide: (read: unknown) => boolean;
  readonly type?: Type;
  readonly test?: Test;
  readonly negated: boolean;
  readonly missing: boolean;
}

/** The match's pattern, its tests charged to the running evaluation's budget (`meteredPattern`). */
function budgetedPattern(e: MatchExpr, env: Env): Pattern {
  const span = env.outermost?.span ?? env.top;
  return meteredPattern(compilePattern(e.value!.text), () => env.meter.budget, env.source, () => span);
}

function matchText(e: MatchExpr): string {
  const sel = selectorSource(e.selector);
  if (!e.value) return `${sel} ${e.op}`;
  return e.op === "in" || e.op === "not in" ? `${e.value.raw} ${e.op} ${sel}` : `${sel} ${e.op} ${e.value.raw}`;
}

function typeLabel(t: Type): string {
  const c = concrete(t);
  return t.kind === "pointer" ? `nullable ${c.kind}` : c.kind;
}

// ---------------------------------------------------------------------------------------------
// Collections

/** What a loop over a collection's elements needs: here, and in the trace's (`trace.ts`). */
export interface CollectionParts {
  readonly read: Reader;
  /** The collection's static type, and its elements' (used unless `dynamic`). */
  readonly staticType: Type;
  readonly elemType: Type;
  /** True when the collection's type is known only at run time: `read` then returns a `Typed`. */
  readonly dynamic: boolean;
  readonly names: ReturnType<typeof boundNames>;
  /** Each bound name's frame slot. */
  readonly slots: readonly number[];
  readonly clash: ReturnType<typeof placeholderClash>;
  /** The environment of the body (its bound names in scope). */
  readonly inner: Env;
  readonly selectorText: string;
}

/** The selector, bound names and body environment of a collection expression. */
export function collectionParts(e: CollectionExpr, env: Env): CollectionParts {
  const sel = compileSelector(e, env);
  const staticType = sel.type;
  const elemType = elementType(staticType);
  const names = boundNames(e.binding);
  const slots = names.map(() => env.layout.slots++);
  const clash = placeholderClash(e.binding, e.selector);
  const inner: Env = {
    ...env,
    outermost: env.outermost ?? e,
    scope: [
      ...env.scope,
      ...names.map((n, i): Bound => {
        const b = { name: n.name, slot: slots[i]!, type: bindingType(n.role, staticType, sel.dynamic) };
        return clash.hidden && n.role === "value" ? { ...b, hidden: { path: selectorKeys(e.selector), indexSlot: slots[0]! } } : b;
      }),
    ],
  };
  return { read: sel.read, staticType, elemType, dynamic: sel.dynamic, names, slots, clash, inner, selectorText: selectorSource(e.selector) };
}

/** Binds element `i` of a list to the collection's names in frame `f`. */
export function bindListElement(f: Frame, p: CollectionParts, i: number, element: Typed): void {
  const { slots, names } = p;
  for (let j = 0; j < slots.length; j++) f[slots[j]!] = names[j]!.role === "index" ? { type: INT, value: i } : element;
}

/** Binds entry `key` of a map (its raw value `raw`, of type `et`) to the collection's names in frame `f`. */
export function bindMapEntry(f: Frame, p: CollectionParts, key: string, et: Type, raw: unknown): void {
  const { slots, names } = p;
  const keyValue: Typed = { type: STRING, value: key };
  for (let j = 0; j < slots.length; j++) f[slots[j]!] = names[j]!.role === "value" ? { type: et, value: typed(et, raw) } : keyValue;
}

function compileCollection(e: CollectionExpr, env: Env): Compiled {
  const parts = collectionParts(e, env);
  const { read, staticType, elemType, dynamic, names, clash, inner, selectorText } = parts;
  const body = compileExpr(e.body, inner, false);
  const bodyRun = body.run;
  const layout = env.layout;
  const any = e.quantifier === "any";
  const source = env.source;
  const meter = env.meter;
  // Each iteration charges one step, and one per match test of the body's level.
  const steps = 1 + body.plan.charge;
  const span = inner.outermost!.span;
  const run: Predicate = (d, outer) => {
    const budget = meter.budget;
    const r = read(d, outer);
    if (r === MISSING) return COLLECTION_MISSING[e.quantifier];
    // The outermost collection allocates the frame for every bound name of the program.
    const f = outer ?? new Array<Typed>(layout.slots);
    const type = dynamic ? (r as Typed).type : staticType;
    const v = dynamic ? (r as Typed).value : r;
    const kind = kindOf(type, v);
    if (kind !== "list" && kind !== "map") {
      throw notACollection({ source, span: e.selector.span }, selectorText, kind, e.quantifier);
    }
    const et = dynamic ? elementType(type) : elemType;
    if (kind === "list") {
      const list = (v ?? []) as unknown[];
      for (let i = 0; i < list.length; i++) {
        if (budget !== undefined) charge(budget, steps, source, span);
        if (clash.both) throw bothPlaceholderError({ source, span: e.span }, names[0]!.name);
        bindListElement(f, parts, i, { type: et, value: typed(et, list[i]) });
        if (bodyRun(d, f) === any) return any;
      }
    } else {
      const map = (v ?? {}) as Record<string, unknown>;
      for (const key of Object.keys(map)) {
        if (budget !== undefined) charge(budget, steps, source, span);
        if (clash.both) throw bothPlaceholderError({ source, span: e.span }, names[0]!.name);
        bindMapEntry(f, parts, key, et, map[key]);
        if (bodyRun(d, f) === any) return any;
      }
    }
    return !any;
  };
  return {
    run,
    plan: planNode(() => `${e.quantifier} ${selectorText} as ${names.map((n) => n.name).join(", ")}`, collectionNode(body.plan), [body.plan]),
  };
}

const INT: Type = { kind: "int" };
const STRING: Type = { kind: "string" };
