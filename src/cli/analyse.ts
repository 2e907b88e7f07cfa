/**
 * Checks one expression as a linter does: the syntax, every static finding against the schema
 * (each one an error here, even where the library's `compile` would keep the reference's lazy
 * behaviour), and the warnings of `lint`. Valid expressions are also compiled, for `--data` and
 * `--explain`.
 */
import { checkAst, compile, diagnose, FilterError, t, type Ast, type Filter, type Schema } from "../index.js";
import { fromError, fromWarning, type Diagnostic } from "./diagnostics.js";
import type { Expression } from "./expressions.js";
import { lint } from "../lint/index.js";
import type { Target } from "../releases.js";
import { parseForTarget, targetFindings } from "../targets/check.js";

/** Everything known about one expression. */
export interface Report {
  readonly expression: Expression;
  /** The syntax tree, when the expression parses. */
  readonly ast: Ast | undefined;
  /** The compiled filter, when the expression is valid. */
  readonly filter: Filter | undefined;
  readonly errors: readonly Diagnostic[];
  readonly warnings: readonly Diagnostic[];
  /** No errors (and, with `strict`, no warnings). */
  readonly valid: boolean;
}

export interface AnalyseOptions {
  readonly schema: Schema | undefined;
  /** Report warnings. */
  readonly warnings: boolean;
  /** Warnings make the expression invalid. */
  readonly strict: boolean;
  /** Check and compile as this release (`--target`), not the newest. */
  readonly target?: Target | undefined;
}

export function analyse(expression: Expression, options: AnalyseOptions): Report {
  const { text } = expression;
  const errors: Diagnostic[] = [];
  let ast: Ast | undefined;
  const target = options.target;
  try {
    ast = parseForTarget(text, target);
  } catch (e) {
    if (!(e instanceof FilterError)) throw e;
    errors.push(fromError(e, options.schema));
    return { expression, ast: undefined, filter: undefined, errors: withFixes(text, errors, options), warnings: [], valid: false };
  }
  const onTarget = target && targetFindings(ast, text, options.schema ?? t.any, target);
  for (const e of onTarget?.errors ?? []) errors.push(fromError(e, options.schema));
  // Without a schema, the check still finds invalid regular expressions.
  for (const e of checkAst(ast, text, options.schema ?? t.any)) errors.push(fromError(e, options.schema));
  // A name stepping into a list is the error `invalid-index` here; its warning would say it twice.
  const warnings = options.warnings
    ? lint(ast, text, options.schema)
        .filter((w) => !(w.code === "list-by-name" && errors.some((e) => e.code === "invalid-index" && e.span.end === w.span.end)))
        .concat(onTarget?.warnings ?? [])
        .map((w) => fromWarning(w, text))
    : [];
  let filter: Filter | undefined;
  if (errors.length === 0) {
    try {
      filter = compile(text, { schema: options.schema, target });
    } catch (e) {
      if (!(e instanceof FilterError)) throw e;
      errors.push(fromError(e, options.schema));
    }
  }
  errors.sort((a, b) => a.offset - b.offset);
  const valid = errors.length === 0 && !(options.strict && warnings.length > 0);
  return { expression, ast, filter, errors: withFixes(text, errors, options), warnings: withFixes(text, warnings, options), valid };
}

/** The diagnostics with the fixes `diagnose` offers for the same finding (same code, same start). */
function withFixes(text: string, diagnostics: Diagnostic[], options: AnalyseOptions): Diagnostic[] {
  if (diagnostics.length === 0) return diagnostics;
  const found = diagnose(text, { schema: options.schema, warnings: options.warnings });
  return diagnostics.map((d) => {
    const same = found.find((f) => f.code === d.code && f.span.start === d.span.start);
    return same && same.fixes.length > 0 ? { ...d, fixes: same.fixes } : d;
  });
}
