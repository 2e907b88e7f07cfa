/**
 * filter-expr-codemirror: CodeMirror 6 support for the scheduler's filter expressions, built on the
 * library's `diagnose`, `completionsAt` and `selectorAt`. `filterExpr(options)` is all of it; the parts
 * stand alone.
 */
export { filterExpr, type FilterExprOptions } from "./bundle.js";
export { filterLanguage, filterStreamLanguage, filterHighlightStyle, type LanguageOptions } from "./language.js";
export { filterLinter, filterLintSource, toLintDiagnostic, type LinterOptions } from "./lint.js";
export { filterCompletion, filterCompletionSource } from "./complete.js";
export { filterHover, type HoverOptions } from "./hover.js";
export { applyFirstFix, applyFixTo } from "./fix.js";
export { diagnosticsOf } from "./diagnostics.js";
export { refreshFilter } from "./refresh.js";
export type { FilterOptions, Live } from "./options.js";
