/** `refreshFilter`: lint again after the options' functions changed their answer (a page switched schemas). */
import { forceLinting } from "@codemirror/lint";
import { StateEffect, type Transaction } from "@codemirror/state";
import type { EditorView } from "@codemirror/view";

/** The effect `refreshFilter` dispatches; `filterLinter` lints again on a transaction carrying it. */
export const refreshEffect = StateEffect.define<null>();

/** Whether a transaction asks for a new lint. */
export function asksRefresh(transactions: readonly Transaction[]): boolean {
  return transactions.some((tr) => tr.effects.some((e) => e.is(refreshEffect)));
}

/**
 * Lints the document again now, for options read from functions whose answer changed (the schema of
 * another endpoint). CodeMirror's `forceLinting` alone does not: it only hurries a lint already pending.
 */
export function refreshFilter(view: EditorView): void {
  view.dispatch({ effects: refreshEffect.of(null) });
  forceLinting(view);
}
