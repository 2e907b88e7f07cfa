/** Applying the library's fixes to an editor: one fix, or the first fix at the cursor as a command. */
import type { Command, EditorView } from "@codemirror/view";
import type { Fix } from "filter-expr";
import { diagnosticsOf } from "./diagnostics.js";
import type { FilterOptions } from "./options.js";

/**
 * Applies a fix of `diagnose` (its edits are against the text it was computed for: the editor's
 * document as it is now) as one transaction, scrolls it into view and focuses the editor.
 */
export function applyFixTo(view: EditorView, fix: Fix): void {
  view.dispatch({ changes: fix.edits.map((e) => ({ from: e.start, to: e.end, insert: e.insert })), scrollIntoView: true, userEvent: "input.fix" });
  view.focus();
}

/**
 * A command that applies the first fix of the diagnostic under the cursor (`start <= cursor <= end`),
 * else of the first diagnostic that has one; false (the key goes on) when none has a fix. `filterExpr`
 * binds it to Mod-. (Ctrl-. or Cmd-.).
 */
export function applyFirstFix(options: FilterOptions = {}): Command {
  return (view) => {
    const pos = view.state.selection.main.head;
    const withFixes = diagnosticsOf(view.state.doc, options).filter((d) => d.fixes.length > 0);
    const here = withFixes.find((d) => d.span.start <= pos && pos <= d.span.end) ?? withFixes[0];
    const fix = here?.fixes[0];
    if (fix === undefined) return false;
    applyFixTo(view, fix);
    return true;
  };
}
