/** `filterLinter`: the library's `diagnose` as a CodeMirror lint source, each fix a lint action. */
import { linter, type Diagnostic as LintDiagnostic, type LintSource } from "@codemirror/lint";
import type { Extension, Text } from "@codemirror/state";
import type { Diagnostic } from "filter-expr";
import { diagnosticsOf } from "./diagnostics.js";
import { applyFixTo } from "./fix.js";
import type { FilterOptions } from "./options.js";
import { asksRefresh } from "./refresh.js";

/** Options of `filterLinter`: the schema and target, and the lint's delay. */
export interface LinterOptions extends FilterOptions {
  /** Milliseconds after the last change before the text is checked (default 50: `diagnose` runs locally and fast). */
  readonly delay?: number;
}

/**
 * A lint diagnostic of one of `diagnose`'s: its severity, its code as the `source` (the tooltip shows
 * `unknown-field`), its message, and each fix as an action that applies while the document is still the
 * one diagnosed. A point (an empty span: the expression stops too early) is underlined on the character
 * before it, so it can be seen.
 */
export function toLintDiagnostic(d: Diagnostic, doc: Text | string): LintDiagnostic {
  const from = d.span.start === d.span.end && d.span.start > 0 ? d.span.start - 1 : d.span.start;
  const text = doc.toString();
  return {
    from,
    to: Math.max(d.span.end, from),
    severity: d.severity,
    source: d.code,
    message: d.message,
    actions: d.fixes.map((fix) => ({
      name: fix.title,
      // A fix's edits are against the text it was found in: after a change, the lint runs again first.
      apply: (view) => {
        if (view.state.doc.toString() === text) applyFixTo(view, fix);
      },
    })),
  };
}

/** The lint source: the diagnostics of the document (none for an empty one) as lint diagnostics. */
export function filterLintSource(options: FilterOptions = {}): LintSource {
  return (view) => {
    const text = view.state.doc.toString();
    return diagnosticsOf(view.state.doc, options).map((d) => toLintDiagnostic(d, text));
  };
}

/**
 * The linter: `diagnose(text, { schema, target })` as you type, with severities, codes and the fixes
 * as actions in the tooltip and the lint panel. `options.schema` may be a function; after its answer
 * changes, call `refreshFilter(view)`.
 */
export function filterLinter(options: LinterOptions = {}): Extension {
  return linter(filterLintSource(options), { delay: options.delay ?? 50, needsRefresh: (update) => asksRefresh(update.transactions) });
}
