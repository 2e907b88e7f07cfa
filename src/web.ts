/**
 * filter-expr/web: the library for pages, costing what a page's filters use. `compile`, `parse` and
 * `evaluate` are asynchronous: each parses with the fast parser first and loads the full parser
 * (Chevrotain, the reference's parse budget and older releases' grammars) only for a text the fast
 * parser declines (an error, an unusual form, a limit, another release), and the regular-expression
 * engine (Go's regexp parser, re2js) only for a filter that has `matches`. Both load once, on demand
 * (`import()`: a bundler makes them chunks of their own). The answers and errors are the package
 * entry's, the same classes, codes, spans and messages (test/web-entry.test.ts holds them together
 * on the conformance corpus).
 *
 * ```ts
 * import { compile, schemas } from "filter-expr/web";
 * const f = await compile('Status == "running"', { schema: schemas.job });
 * const running = f.filter(jobs);
 * ```
 */
import type { Ast, Expr } from "./syntax/ast.js";
import type { EvaluationBudget } from "./evaluate/budget.js";
import { compileParsed, type CompileOptions } from "./evaluate/compiled.js";
import type { Filter } from "./evaluate/filter.js";
import { interpret } from "./evaluate/interpret.js";
import { evaluationRules } from "./semantics/rules.js";
import { installPatternCompiler, patternCompilerInstalled } from "./semantics/pattern.js";
import { ANY } from "./semantics/schema.js";
import type { ParseOptions } from "./syntax/parse-options.js";
import { parseFast } from "./syntax/parse-fast.js";
import { NEWEST_TARGET, resolveTarget } from "./releases.js";
import type { DiagnoseOptions } from "./fix/diagnose.js";
import type { Diagnostic } from "./fix/types.js";

export type { CompileOptions, Filter, ParseOptions, EvaluationBudget, DiagnoseOptions, Diagnostic };
export type { Fix, TextEdit } from "./fix/types.js";
export * from "./entry-common.js";
export { print, printBinding } from "./syntax/print.js";
export { DEFAULT_PARSE_OPTIONS } from "./syntax/parse-options.js";
export { BEXPR_VERSIONS, FEATURES, UnknownTargetError, knownTargets, resolveTarget, type Target } from "./releases.js";

/**
 * Parses a filter expression to its AST, as the package's `parse` does (the same AST, the same
 * `FilterSyntaxError`s). Loads the full parser the first time a text needs it.
 */
export async function parse(text: string, options: ParseOptions = {}): Promise<Ast> {
  const fast = parseFast(text, options);
  if (fast !== undefined) return fast;
  const full = await import("./syntax/parse.js");
  return full.parse(text, options);
}

/**
 * Compiles a filter expression, as the package's `compile` does: the same filter, the same
 * `FilterSyntaxError`s and `FilterTypeError`s (see its documentation), thrown as the promise's
 * rejection. Loads the full parser the first time a text needs it, the regular-expression engine the
 * first time a filter has `matches`; the filter itself is synchronous.
 */
export async function compile<T = unknown>(expression: string, options: CompileOptions = {}): Promise<Filter<T>> {
  const target = resolveTarget(options.target ?? NEWEST_TARGET);
  const ast = await parse(expression, options.target === undefined ? options : { ...options, target });
  if (hasPattern(ast)) await loadPatterns();
  return compileParsed<T>(expression, ast, options, target);
}

/**
 * Evaluates an expression once with the reference interpreter, as the package's `evaluate` does (no
 * compilation, no static checks; meant for tests and tools).
 */
export async function evaluate(expression: string, datum: unknown, options: CompileOptions = {}, budget?: EvaluationBudget): Promise<boolean> {
  const target = resolveTarget(options.target ?? NEWEST_TARGET);
  const ast = await parse(expression, { ...options, target });
  if (hasPattern(ast)) await loadPatterns();
  const steps = budget ?? (options.maxSteps === undefined ? undefined : { steps: options.maxSteps });
  return interpret(ast, expression, datum, options.schema ?? ANY, evaluationRules(options, target), steps);
}

/**
 * Loads what a later `compile` may need (the full parser, the regular-expression engine) now, e.g.
 * while the page is idle, so that no `compile` waits for it.
 */
export async function preload(): Promise<void> {
  await Promise.all([import("./syntax/parse.js"), loadPatterns()]);
}

/** Installs the regular-expression engine, loading it the first time. */
async function loadPatterns(): Promise<void> {
  if (patternCompilerInstalled()) return;
  const { buildPattern } = await import("./semantics/regex.js");
  installPatternCompiler(buildPattern);
}

/** Whether `ast` has a `matches` or `not matches` (the only matches that compile a pattern). Walked without recursion. */
function hasPattern(ast: Ast): boolean {
  const stack: Expr[] = [ast];
  while (stack.length > 0) {
    const e = stack.pop()!;
    if (e.kind === "match") {
      if (e.op === "matches" || e.op === "not matches") return true;
    } else if (e.kind === "not") stack.push(e.operand);
    else if (e.kind === "collection") stack.push(e.body);
    else for (const o of e.operands) stack.push(o);
  }
  return false;
}

/**
 * The diagnostics of a filter text with their fixes, as the package's `diagnose` does (docs/api.md,
 * "Diagnostics and fixes"). Editors need the full parser's recovery for any text: the first call loads
 * the diagnostics with the full parser and the regular-expression engine.
 */
export async function diagnose(text: string, options: DiagnoseOptions = {}): Promise<Diagnostic[]> {
  const [fix] = await Promise.all([import("./fix/diagnose.js"), loadPatterns()]);
  return fix.diagnose(text, options);
}
