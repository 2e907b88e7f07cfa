/**
 * The playground's CodeMirror 6 editor: the filter support of filter-expr-codemirror (colouring,
 * diagnostics of `diagnose` as you type with their fixes as actions, completion, the type of the
 * selector under the pointer, Mod-. for the first fix) for the endpoint's schema, and the page's own
 * parts: its keys (Mod-Enter runs), history, brackets, placeholder, and the diagnostics on each change.
 */
import { closeBrackets, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching } from "@codemirror/language";
import { lintKeymap } from "@codemirror/lint";
import { EditorState, Prec } from "@codemirror/state";
import { EditorView, drawSelection, keymap, placeholder } from "@codemirror/view";
import type { Diagnostic, Schema } from "filter-expr";
import { diagnosticsOf, filterExpr } from "filter-expr-codemirror";

export { applyFixTo } from "filter-expr-codemirror";

export interface EditorOptions {
  readonly parent: HTMLElement;
  readonly doc: string;
  /** The schema of the endpoint chosen on the page. */
  readonly schema: () => Schema;
  /** Called on every change of the text, with its diagnostics. */
  readonly onChange: (text: string, diagnostics: readonly Diagnostic[]) => void;
  /** Ctrl/Cmd-Enter. */
  readonly onRun: () => void;
}

export function createEditor(options: EditorOptions): EditorView {
  const filter = { schema: options.schema };
  return new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        Prec.high(keymap.of([{ key: "Mod-Enter", run: () => (options.onRun(), true) }])),
        history(),
        drawSelection(),
        bracketMatching(),
        closeBrackets(),
        filterExpr(filter),
        placeholder('Status == "running"'),
        keymap.of([...completionKeymap, ...lintKeymap, ...historyKeymap, ...defaultKeymap]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ "aria-label": "filter expression", spellcheck: "false", autocapitalize: "off", autocorrect: "off" }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) options.onChange(u.state.doc.toString(), diagnosticsOf(u.state.doc, filter));
        }),
      ],
    }),
  });
}
