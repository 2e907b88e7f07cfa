/**
 * A compiled filter (`Filter`) and how `compile` builds one from a parsed expression: apart from the
 * parse, so that the package's entry (src/index.ts, the full parser) and the web entry (src/web.ts,
 * the fast parser first) build the same filter.
 */
import { compileAst, type CompiledProgram, type PlanNode } from "./compile.js";
import { nextClones, type Clones } from "./generated/clones.js";
import type { EvaluationBudget } from "./budget.js";
import { evaluationRules, type EvaluateOptions } from "../semantics/rules.js";
import type { Target } from "../releases.js";
import { explainInterpreted, interpret } from "./interpret.js";
import type { Explanation } from "./explain.js";
import type { Filter } from "./filter.js";
import { compileTrace, type Tracer } from "./trace.js";
import { SETTINGS, type FilterSettings } from "./settings.js";
import { checkAst } from "../semantics/check.js";
import { filterFacts, type FilterFacts } from "../semantics/facts.js";
import { ANY, type Schema, type Type } from "../semantics/schema.js";
import type { Ast } from "../syntax/ast.js";
import type { ParseOptions } from "../syntax/parse-options.js";

/** Options of `compile`. */
export interface CompileOptions extends ParseOptions, EvaluateOptions {
  /**
   * The record type of the data (e.g. `schemas.job`). Without one, data is plain JSON as the reference
   * sees decoded JSON. With one, data is read as the reference reads the server's Go structs, and
   * mistakes that fail on every record are `FilterTypeError`s at compile time.
   */
  schema?: Schema;
  /**
   * Reject at compile time what fails on every record (`FilterTypeError`): with a schema, unknown
   * fields and operators or literals the field's type never accepts; in every mode, an invalid regular
   * expression that every record reaches. Default true; false keeps exactly the reference's behaviour
   * (the same mistakes fail at evaluation).
   */
  check?: boolean;
  /**
   * The step budget of one `evaluate` call that is given no budget of its own: one step per match test
   * and per element an `any`/`all` visits (see `EvaluationBudget`). Default: unlimited.
   */
  maxSteps?: number;
}

/**
 * A compiled filter. `compile` parses and checks; the closures are built on first use (a second
 * evaluation, `filter`, `count`, the plan; the first evaluation is interpreted), in the slot of closure
 * copies taken at `compile` (`clones.ts`): checking stays as cheap as parsing, and a filter that is
 * never run, or run once, costs no closures.
 */
export class CompiledFilter<T> implements Filter<T> {
  readonly expression: string;
  readonly ast: Ast;
  readonly schema: Schema | undefined;
  readonly evaluate: (datum: T, budget?: EvaluationBudget) => boolean;
  /** How it was compiled, for `FilterTable` (`evaluate/settings.ts`). */
  readonly [SETTINGS]: FilterSettings;
  readonly #clones: Clones;
  #program: CompiledProgram | undefined;
  /** The compiled `explain`, built on first use. */
  #trace: Tracer | undefined;
  #facts: FilterFacts | undefined;

  /** The text the AST's spans point into, and errors quote: the expression, or for a residual of `split` the filter it came from. */
  readonly #source: string;

  constructor(expression: string, ast: Ast, schema: Schema | undefined, settings: FilterSettings, source = expression) {
    this.expression = expression;
    this.#source = source;
    this.ast = ast;
    this.schema = schema;
    this[SETTINGS] = settings;
    const clones = (this.#clones = nextClones());
    // The first evaluation is interpreted (the same answers and errors: the property tests hold the
    // two together), unless the program is built already; the closures are built for the second.
    const run = clones.lazy(
      () => this.#compiled().run,
      (datum, budget) => (this.#program === undefined ? interpret(ast, source, datum, settings.root, settings.options, budget) : this.#program.run(datum, budget)),
    );
    const maxSteps = settings.maxSteps;
    this.evaluate = maxSteps === undefined ? run : (datum: T, budget?: EvaluationBudget) => run(datum, budget ?? { steps: maxSteps });
  }

  /** The optimized plan, for people (`filter-check --explain`). */
  get plan(): PlanNode {
    return this.#compiled().plan;
  }

  get facts(): FilterFacts {
    const { root, options } = this[SETTINGS];
    return (this.#facts ??= filterFacts(this.ast, this.#source, root, options));
  }

  #compiled(): CompiledProgram {
    const { root, options } = this[SETTINGS];
    return (this.#program ??= compileAst(this.ast, this.#source, root, options, this.#clones));
  }

  explain(datum: T, budget?: EvaluationBudget): Explanation {
    const { root, options, maxSteps } = this[SETTINGS];
    const steps = budget ?? (maxSteps === undefined ? undefined : { steps: maxSteps });
    // Compiled (`evaluate/trace.ts`) without a budget; the interpreter finds an error's leaf and charges a budget.
    if (steps === undefined) {
      const explained = (this.#trace ??= compileTrace(this.ast, this.#source, root, options, this.#clones))(datum);
      if (explained !== undefined) return explained;
    }
    return explainInterpreted(this.ast, this.#source, datum, root, options, steps);
  }

  filter<U extends T>(items: Iterable<U>): U[] {
    // Arrays are evaluated in chunks (`evaluate/batch.ts`); a step budget per item needs one call per item.
    if (Array.isArray(items) && this[SETTINGS].maxSteps === undefined) return this.#compiled().filter(items as readonly U[]);
    const run = this.evaluate;
    const out: U[] = [];
    for (const item of items) if (run(item)) out.push(item);
    return out;
  }

  count(items: Iterable<T>): number {
    if (Array.isArray(items) && this[SETTINGS].maxSteps === undefined) return this.#compiled().count(items);
    const run = this.evaluate;
    let n = 0;
    for (const item of items) if (run(item)) n++;
    return n;
  }
}

/**
 * `compile` after its parse: `ast` is `expression` parsed for `target` (the options' release,
 * resolved) with `options`. Checks and builds the filter: the same answers and errors whichever
 * parser found the AST (src/index.ts `compile`, src/web.ts).
 */
export function compileParsed<T>(expression: string, ast: Ast, options: CompileOptions, target: Target): Filter<T> {
  const type: Type = options.schema ?? ANY;
  const evaluateOptions = evaluationRules(options, target);
  if (options.check !== false) {
    const errors = checkAst(ast, expression, type, "unknownValue" in options ? WITH_UNKNOWN_VALUE : WITHOUT_UNKNOWN_VALUE);
    for (let i = 0; i < errors.length; i++) if (errors[i]!.alwaysFails) throw errors[i];
  }
  const settings: FilterSettings = { root: type, options: evaluateOptions, maxSteps: options.maxSteps, target };
  return new CompiledFilter<T>(expression, ast, options.schema, settings);
}

const WITH_UNKNOWN_VALUE = { unknownValue: true } as const;
const WITHOUT_UNKNOWN_VALUE = { unknownValue: false } as const;
