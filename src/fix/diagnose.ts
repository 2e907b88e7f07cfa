/**
 * `diagnose(text)`: every finding about an expression as an editor wants it (errors and warnings with
 * spans), each with the fixes that remove it; `fixAll` applies them until none is left.
 *
 * A candidate fix is offered only when, applied, it removes its finding without adding one: for a
 * syntax error the fixed text parses, or its first syntax error lies after the edit; otherwise the
 * fixed text parses with fewer errors (or as many errors and fewer warnings).
 */
import { FilterError, FilterSyntaxError } from "../errors.js";
import { lint } from "../lint/index.js";
import { concrete } from "../semantics/path.js";
import { checkAst, staticErrorSpans } from "../semantics/check.js";
import { ANY, type Schema } from "../semantics/schema.js";
import type { Expr, Span } from "../syntax/ast.js";
import { parseForTarget, targetFindings } from "../targets/check.js";
import { resolveTarget, type Target } from "../releases.js";
import { applyFix } from "./apply.js";
import { pathType } from "./hover.js";
import { syntaxFixes } from "./syntax.js";
import { typeFixes } from "./types-fixes.js";
import type { Diagnostic, Fix } from "./types.js";
import { installPatternCompiler } from "../semantics/pattern.js";
import { buildPattern } from "../semantics/regex.js";

// The checks compile patterns: the engine comes with the diagnostics (a bundle that takes only them
// from the package's entry keeps this statement, src/index.ts).
installPatternCompiler(buildPattern);

/** Options of `diagnose` and `fixAll`. */
export interface DiagnoseOptions {
  /** The record type of the data (`schemas.job`, …); without one, plain JSON. */
  readonly schema?: Schema | undefined;
  /** Report the warnings (valid text that probably does not mean what it says). Default true. */
  readonly warnings?: boolean;
  /**
   * Diagnose for this release (`"nomad@1.10.5"`): each construct it lacks is a `not-in-target` error,
   * each leaf it answers differently a `target-behaviour` warning. Default: the newest.
   */
  readonly target?: string | Target | undefined;
}

interface Finding {
  readonly diagnostic: Diagnostic;
  /** A syntax error (the text does not parse). */
  readonly syntax: boolean;
  readonly candidates: readonly Fix[];
}

/**
 * The findings about `text`, in source order: a syntax error (only the first: the parser stops
 * there), or every static error against the schema (including those that only some records reach, as
 * a linter reports them) and the warnings. Each carries its fixes, best first.
 *
 * ```ts
 * diagnose('Name == web-1', { schema: schemas.job })[0].fixes[0]
 * // { title: 'quote the value: "web-1"', edits: [{ start: 8, end: 13, insert: '"web-1"' }] }
 * ```
 */
export function diagnose(text: string, options: DiagnoseOptions = {}): Diagnostic[] {
  const found = findings(text, options);
  const base = score(found);
  return found.map(({ diagnostic, candidates }) => {
    const fixes: Fix[] = [];
    const seen = new Set<string>();
    for (const fix of candidates) {
      const fixed = safeApply(text, fix);
      if (fixed === undefined || seen.has(fixed) || !improves(diagnostic, fix, fixed, base, options)) continue;
      seen.add(fixed);
      fixes.push(fix);
    }
    return { ...diagnostic, fixes };
  });
}

/** The result of `fixAll`. */
export interface FixAllResult {
  /** The text with every applied fix. */
  readonly text: string;
  /** The fixes applied, in order (each against the text the previous one produced). */
  readonly applied: readonly { readonly code: string; readonly title: string }[];
  /** What is left: findings without a fix. */
  readonly remaining: readonly Diagnostic[];
}

/**
 * Applies the first fix of the first finding (errors before warnings) and diagnoses again, until no
 * finding has a fix (at most `maxRounds` times, default 32). With `warnings: false` only errors are fixed.
 */
export function fixAll(text: string, options: DiagnoseOptions & { readonly maxRounds?: number } = {}): FixAllResult {
  const applied: { code: string; title: string }[] = [];
  let current = text;
  let found = diagnose(current, options);
  for (let round = 0; round < (options.maxRounds ?? 32); round++) {
    const next = found.find((d) => d.severity === "error" && d.fixes.length > 0) ?? found.find((d) => d.fixes.length > 0);
    if (next === undefined) break;
    const fix = next.fixes[0]!;
    current = applyFix(current, fix);
    applied.push({ code: next.code, title: fix.title });
    found = diagnose(current, options);
  }
  return { text: current, applied, remaining: found };
}

/** The findings with their unverified candidate fixes. */
function findings(text: string, options: DiagnoseOptions): Finding[] {
  const schema = options.schema;
  let ast: Expr;
  const target = options.target === undefined ? undefined : resolveTarget(options.target);
  try {
    ast = parseForTarget(text, target);
  } catch (e) {
    if (!(e instanceof FilterSyntaxError)) throw e;
    const isList = (selector: string) => {
      const type = schema && pathType(schema, selector);
      return type !== undefined && concrete(type).kind === "list";
    };
    return [{ diagnostic: { code: e.code, severity: "error", message: e.summary, span: e.span, fixes: [] }, syntax: true, candidates: syntaxFixes(text, e, isList) }];
  }
  const errors: { diagnostic: Diagnostic; syntax: false; candidates: Fix[] }[] = checkAst(ast, text, schema ?? ANY).map((e) => ({
    diagnostic: { code: e.code, severity: "error", message: e.summary, span: e.span, fixes: [] },
    syntax: false,
    candidates: typeFixes(text, ast, e),
  }));
  const onTarget = target && targetFindings(ast, text, schema ?? ANY, target);
  const lacking = (onTarget?.errors ?? []).map((e): Finding => ({ diagnostic: { code: e.code, severity: "error", message: e.summary, span: e.span, fixes: [] }, syntax: true, candidates: [] }));
  const warnings: Finding[] = [];
  if (options.warnings !== false || errors.length > 0) {
    for (const w of [...lint(ast, text, schema), ...(onTarget?.warnings ?? [])]) {
      const candidates: Fix[] = w.rewrite ? [{ title: w.rewrite.title, edits: [{ start: w.rewrite.at.start, end: w.rewrite.at.end, insert: w.rewrite.replace }] }] : [];
      // A warning about the same text as an error (a name step into a list): its rewrite fixes the error.
      const twin = errors.find((e) => overlaps(e.diagnostic.span, w.span));
      if (twin) {
        twin.candidates.push(...candidates);
        continue;
      }
      if (options.warnings !== false) warnings.push({ diagnostic: { code: w.code, severity: "warning", message: w.summary, span: w.span, fixes: [] }, syntax: false, candidates });
    }
  }
  return [...lacking, ...errors, ...warnings].sort((a, b) => a.diagnostic.span.start - b.diagnostic.span.start);
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}

interface Score {
  readonly parses: boolean;
  readonly errors: number;
  readonly warnings: number;
}

/**
 * What `score(findings(text, options))` says, and the first finding that keeps the text from parsing,
 * counted without building the findings (their messages, suggestions, fixes): each candidate fix is
 * checked this way, so a text with many findings costs a walk per fix, not a diagnosis per fix.
 */
export function scoreOf(text: string, options: DiagnoseOptions): Score & { readonly firstSyntax: { readonly code: string; readonly span: Span } | undefined } {
  const schema = options.schema;
  const target = options.target === undefined ? undefined : resolveTarget(options.target);
  let ast: Expr;
  try {
    ast = parseForTarget(text, target);
  } catch (e) {
    if (!(e instanceof FilterSyntaxError)) throw e;
    return { parses: false, errors: 1, warnings: 0, firstSyntax: { code: e.code, span: e.span } };
  }
  const errorSpans = staticErrorSpans(ast, text, schema ?? ANY);
  const onTarget = target && targetFindings(ast, text, schema ?? ANY, target);
  const lacking = onTarget?.errors ?? [];
  let warnings = 0;
  if (options.warnings !== false) {
    // A warning about the same text as an error is folded into the error (`findings`).
    for (const w of [...lint(ast, text, schema), ...(onTarget?.warnings ?? [])]) if (!errorSpans.some((s) => overlaps(s, w.span))) warnings++;
  }
  const first = lacking.reduce<(typeof lacking)[number] | undefined>((a, e) => (a === undefined || e.span.start < a.span.start ? e : a), undefined);
  return { parses: lacking.length === 0, errors: lacking.length + errorSpans.length, warnings, firstSyntax: first && { code: first.code, span: first.span } };
}

function score(found: readonly Finding[]): Score {
  const parses = !found.some((f) => f.syntax);
  return {
    parses,
    errors: found.filter((f) => f.diagnostic.severity === "error").length,
    warnings: found.filter((f) => f.diagnostic.severity === "warning").length,
  };
}

/** Does `fixed` (the text with `fix` applied) get rid of `diagnostic` without adding a finding? */
function improves(diagnostic: Diagnostic, fix: Fix, fixed: string, base: Score, options: DiagnoseOptions): boolean {
  const now = scoreOf(fixed, options);
  if (!base.parses) {
    if (now.parses) return true;
    // The first syntax error is now elsewhere: not in or next to the edited text, not where this one was.
    const starts = fix.edits.map((e) => e.start);
    const from = Math.min(...starts);
    const shift = fix.edits.reduce((n, e) => n + e.insert.length - (e.end - e.start), 0);
    const to = Math.max(...fix.edits.map((e) => e.end)) + shift;
    const first = now.firstSyntax;
    if (first === undefined) return true;
    const mapped = first.span.start < from ? first.span.start : first.span.start - shift;
    const same = mapped === diagnostic.span.start && first.code === diagnostic.code;
    return !same && (first.span.end < from || first.span.start > to);
  }
  if (!now.parses) return false;
  return now.errors < base.errors || (now.errors === base.errors && now.warnings < base.warnings);
}

function safeApply(text: string, fix: Fix): string | undefined {
  try {
    return applyFix(text, fix);
  } catch (e) {
    if (e instanceof RangeError || FilterError.is(e)) return undefined;
    throw e;
  }
}
