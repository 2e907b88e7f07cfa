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
import type { EvaluationBudget } from "./evaluate/budget.js";
import { CompiledFilter, compileParsed, type CompileOptions } from "./evaluate/compiled.js";
import { evaluationRules } from "./semantics/rules.js";
import { NEWEST_TARGET, resolveTarget, type Target } from "./releases.js";
import { splitFilter } from "./targets/split.js";
import { interpret as interpretAst } from "./evaluate/interpret.js";
import { checkAst as checkAstWith } from "./semantics/check.js";
import type { Filter } from "./evaluate/filter.js";
import { settingsOf } from "./evaluate/settings.js";
import { buildPattern } from "./semantics/regex.js";
import { installPatternCompiler } from "./semantics/pattern.js";
import { ANY } from "./semantics/schema.js";
import { DEFAULT_PARSE_OPTIONS, parse, type ParseOptions } from "./syntax/parse.js";
import { print, printBinding } from "./syntax/print.js";

// The regular-expression engine (Go's parser, re2js), loaded with the package: `compile` stays
// synchronous. The web entry (src/web.ts) loads it when a filter has a pattern.
installPatternCompiler(buildPattern);

// The exports that may compile a pattern are defined here or in modules that install the engine
// themselves (fix/diagnose.ts), not re-exported from the modules the web entry shares: a bundler
// keeps the statement above with any of them (test/bundle-size.test.ts checks every export).

/** All static type errors of `ast` (parsed from `source`) against `schema`, in source order. */
export function checkAst(...args: Parameters<typeof checkAstWith>): ReturnType<typeof checkAstWith> {
  return checkAstWith(...args);
}

/**
 * Evaluates `ast` (parsed from `source`) against `datum` seen through `type` (`ANY` for plain JSON).
 * Throws `FilterEvaluationError` where the reference fails. With a `budget`, evaluation takes its steps
 * from it (see `EvaluationBudget`) and throws `too-expensive` when it runs out.
 */
export function interpret(...args: Parameters<typeof interpretAst>): boolean {
  return interpretAst(...args);
}

export type { CompileOptions };
export { parse, print, printBinding, DEFAULT_PARSE_OPTIONS };
export type { ParseOptions };
export * from "./entry-common.js";
export { ERROR_CODES } from "./messages.js";
export { schemaFromJson, SchemaJsonError } from "./semantics/schema-json.js";
export type { JobListStub, JobSummary, JobChildrenSummary, TaskGroupSummary, Multiregion, Deployment, DeploymentState } from "./semantics/records.js";
export type {
  AllocationListStub,
  AllocatedResources,
  TaskState,
  TaskEvent,
  AllocDeploymentStatus,
  RescheduleTracker,
  DesiredTransition,
  NodeListStub,
  NodeResources,
  NodeReservedResources,
  DriverInfo,
  DrainMetadata,
  Evaluation,
  EvaluationStub,
  AllocMetric,
  PlanAnnotations,
} from "./semantics/records.js";
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

/**
 * Compiles a filter expression. Throws `FilterSyntaxError` for text that is not a valid expression
 * (or exceeds a limit) and `FilterTypeError` for a mistake that fails on every record (with a schema: an
 * unknown field, an operator or literal its type never accepts; in any mode: an invalid regular
 * expression that every record reaches). `check: false` defers all of these to evaluation.
 */
export function compile<T = unknown>(expression: string, options: CompileOptions = {}): Filter<T> {
  const target = resolveTarget(options.target ?? NEWEST_TARGET);
  const ast = parse(expression, options.target === undefined ? options : { ...options, target });
  return compileParsed<T>(expression, ast, options, target);
}

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
  return interpretAst(ast, expression, datum, options.schema ?? ANY, evaluateOptions, steps);
}
