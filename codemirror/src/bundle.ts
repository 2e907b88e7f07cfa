/** `filterExpr`: the whole editor support in one extension. */
import { Prec, type Extension } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import { filterCompletion } from "./complete.js";
import { applyFirstFix } from "./fix.js";
import { filterHover } from "./hover.js";
import { filterLanguage } from "./language.js";
import { filterLinter } from "./lint.js";
import type { FilterOptions } from "./options.js";

/** Options of `filterExpr`. */
export interface FilterExprOptions extends FilterOptions {
  /** Include the package's highlight style (default true; see `filterLanguage`). */
  readonly highlight?: boolean;
  /** The lint's delay in milliseconds (default 50). */
  readonly lintDelay?: number;
}

/**
 * Everything for editing filters: `filterLanguage()`, `filterLinter`, `filterCompletion`, `filterHover`,
 * and Mod-. (Ctrl-. or Cmd-.) bound to `applyFirstFix`. Take the parts alone for another mix.
 *
 * ```ts
 * new EditorView({ extensions: [basicSetup, filterExpr({ schema: schemas.job })] });
 * ```
 */
export function filterExpr(options: FilterExprOptions = {}): Extension {
  return [
    filterLanguage({ highlight: options.highlight ?? true }),
    filterLinter({ ...options, delay: options.lintDelay ?? 50 }),
    filterCompletion(options),
    filterHover(options),
    Prec.high(keymap.of([{ key: "Mod-.", run: applyFirstFix(options), preventDefault: true }])),
  ];
}
