/**
 * filter-expr: the scheduler's filter-expression language (go-bexpr), compiled to fast closures that
 * answer exactly as the reference library does.
 *
 * ```ts
 * import { compile, schemas } from "filter-expr";
 * const f = compile('Status == "running" and "dc1" in Datacenters', { schema: schemas.job });
 * const running = f.filter(jobs);
 * ```
 */
import { compileAst, type CompiledProgram, type PlanNode } from "./evaluate/compile.js";
import { nextClones, type Clones } from "./evaluate/generated/clones.js";
import type { EvaluationBudget } from "./evaluate/budget.js";
import { evaluationRules, type EvaluateOptions } from "./semantics/rules.js";
import { NEWEST_TARGET, resolveTarget, type Target } from "./releases.js";
import { splitFilter } from "./targets/split.js";
import { explainInterpreted, interpret } from "./evaluate/interpret.js";
import type { Explanation } from "./evaluate/explain.js";
import type { Filter } from "./evaluate/filter.js";
import { compileTrace, type Tracer } from "./evaluate/trace.js";
import { SETTINGS, settingsOf, type FilterSettings } from "./evaluate/settings.js";
import { checkAst } from "./semantics/check.js";
import { filterFacts, type FilterFacts } from "./semantics/facts.js";
import { ANY, type Schema, type Type } from "./semantics/schema.js";
import type { Ast } from "./syntax/ast.js";
import { DEFAULT_PARSE_OPTIONS, parse, type ParseOptions } from "./syntax/parse.js";
import { print, printBinding } from "./syntax/print.js";

export { parse, print, printBinding, DEFAULT_PARSE_OPTIONS };
export type { ParseOptions };
export type { Ast, Binding, CollectionExpr, Expr, Literal, MatchExpr, MatchOp, Segment, Selector, Span, AndExpr, OrExpr, NotExpr } from "./syntax/ast.js";
export {
  FilterError,
  FilterSyntaxError,
  FilterTypeError,
  FilterEvaluationError,
  renderCodeFrame,
  lineColumn,
  type FilterErrorCode,
  type SyntaxErrorCode,
  type TypeErrorCode,
  type TypeErrorDetail,
  type EvaluationErrorCode,
} from "./errors.js";
export { ERROR_CODES } from "./messages.js";
export { schemas, t, typeName, fieldOf, type Schema, type Type, type RecordType } from "./semantics/schema.js";
export { schemaFromJson, SchemaJsonError } from "./semantics/schema-json.js";
export type { JobListStub, JobSummary, JobChildrenSummary, TaskGroupSummary, Multiregion, Deployment, DeploymentState } from "./semantics/records.js";
export { checkAst } from "./semantics/check.js";
export { interpret } from "./evaluate/interpret.js";
export { leafReading, type Explanation, type WitnessLeaf } from "./evaluate/explain.js";
export { nearMissFilters, type NearMissFilter } from "./syntax/near-miss.js";
export { selectorsRead, boundNames, type SelectorRead } from "./syntax/reads.js";
export { KEYWORDS, keywordsOf, type Keyword, type KeywordRole } from "./syntax/words.js";
export type { EvaluateOptions, EvaluationRules } from "./semantics/rules.js";
export { BEXPR_VERSIONS, FEATURES, UnknownTargetError, knownTargets, nomadReleases, resolveTarget, type BexprVersion, type Feature, type Target } from "./releases.js";
export type { EvaluationBudget } from "./evaluate/budget.js";
export type { PlanNode } from "./evaluate/compile.js";
export type { Filter } from "./evaluate/filter.js";
export type { FilterFacts, ConjunctFacts, KeyLeaf, PlanFacts } from "./semantics/facts.js";
export { parseJson, stringifyJson } from "./json.js";

// Diagnostics with fixes, literals from user input, selector types for editors (docs/api.md, "Diagnostics and fixes")
export { diagnose, fixAll, type DiagnoseOptions, type FixAllResult } from "./fix/diagnose.js";
export { applyFix, applyEdits } from "./fix/apply.js";
export { quote, quoteRegex, escapeRegex } from "./fix/quote.js";
export { selectorAt, type SelectorInfo } from "./fix/hover.js";
export { completionsAt, type Completion, type Completions, type CompleteOptions } from "./fix/complete.js";
export type { Diagnostic, Fix, TextEdit } from "./fix/types.js";

// SQL pushdown (docs/sql.md)
export { toSQL, SQLITE_MATCHES_FUNCTION, type ToSqlOptions, type SqlTranslation, type SqlTemplate, type SqlDialect, type FilterSource } from "./sql/translate.js";
export { filterPage, type FilterPageOptions, type FilterPage, type PageFilter, type QueryFunction } from "./sql/page.js";
export { sqliteMatches, registerSqliteFunctions, type SqliteDatabase } from "./sql/sqlite-functions.js";
export { FilterTable, type FilterTableOptions } from "./table/filter-table.js";
export { FilterSet, type SetMatch } from "./table/filter-set.js";
export { targetFindings } from "./targets/check.js";

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
class CompiledFilter<T> implements Filter<T> {
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
 * Compiles a filter expression. Throws `FilterSyntaxError` for text that is not a valid expression
 * (or exceeds a limit) and `FilterTypeError` for a mistake that fails on every record (with a schema: an
 * unknown field, an operator or literal its type never accepts; in any mode: an invalid regular
 * expression that every record reaches). `check: false` defers all of these to evaluation.
 */
export function compile<T = unknown>(expression: string, options: CompileOptions = {}): Filter<T> {
  const target = resolveTarget(options.target ?? NEWEST_TARGET);
  const ast = parse(expression, options.target === undefined ? options : { ...options, target });
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

/** The two parts of a filter for a server of an older release (`split`). */
export interface Split<T = unknown> {
  /** The release the server part is for. */
  readonly target: Target;
  /** The filter to send to the server (its `filter` parameter); undefined: send none, take every item. */
  readonly server: string | undefined;
  /** The filter to run on the server's answer (the original's options and release); undefined: keep every item. */
  readonly residual: Filter<T> | undefined;
}

/**
 * Splits a filter for a server of an older release (`"nomad@1.10.5"`; docs/api.md, "Version
 * targets"): `server` is text that release accepts and that keeps every item the filter keeps (it
 * drops only items the filter answers false on, and fails only where the filter fails); `residual`,
 * run on the server's answer, gives exactly the filter's answer, errors included. A string is
 * compiled first with `options`.
 */
export function split<T = unknown>(filter: Filter<T> | string, target: string | Target, options: CompileOptions = {}): Split<T> {
  const f = typeof filter === "string" ? compile<T>(filter, options) : filter;
  const settings = settingsOf(f);
  const parts = splitFilter(f, settings, target);
  const rest = parts.residual;
  let residual: Filter<T> | undefined;
  if (rest === undefined || rest.ast === f.ast) residual = rest && f;
  // The filter's own settings, and its text as the source: the residual's errors are the filter's (span, line and column included).
  else if (settings !== undefined) residual = new CompiledFilter<T>(rest.expression, rest.ast, f.schema, settings, f.expression);
  else residual = compile<T>(rest.expression, { schema: f.schema, check: false });
  return { target: parts.target, server: parts.server, residual };
}

/**
 * Evaluates an expression once with the reference interpreter (no compilation, no static checks).
 * Meant for tests and tools; use `compile` for speed. A `budget` (or `options.maxSteps`) bounds the
 * evaluation exactly as it bounds a compiled filter's.
 */
export function evaluate(expression: string, datum: unknown, options: CompileOptions = {}, budget?: EvaluationBudget): boolean {
  const target = resolveTarget(options.target ?? NEWEST_TARGET);
  const ast = parse(expression, { ...options, target });
  const evaluateOptions = evaluationRules(options, target);
  const steps = budget ?? (options.maxSteps === undefined ? undefined : { steps: options.maxSteps });
  return interpret(ast, expression, datum, options.schema ?? ANY, evaluateOptions, steps);
}
