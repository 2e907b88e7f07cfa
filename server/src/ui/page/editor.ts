/**
 * The CodeMirror 6 editor: colouring, diagnostics of `diagnose` underlined as you type (no round trip),
 * their fixes as actions, completion of field names from the endpoint's schema, the type of the
 * selector under the pointer, and the page's keys.
 */
import { autocompletion, closeBrackets, completionKeymap, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching } from "@codemirror/language";
import { linter, lintKeymap, type Diagnostic as CmDiagnostic } from "@codemirror/lint";
import { EditorState, Prec } from "@codemirror/state";
import { EditorView, drawSelection, hoverTooltip, keymap, placeholder } from "@codemirror/view";
import { diagnose, selectorAt, type Diagnostic, type Fix, type Schema, type Type } from "filter-expr";
import { filterSyntax } from "./language.js";

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

/** Applies a fix of `diagnose` to the editor's text. */
export function applyFixTo(view: EditorView, fix: Fix): void {
  view.dispatch({ changes: fix.edits.map((e) => ({ from: e.start, to: e.end, insert: e.insert })), scrollIntoView: true });
  view.focus();
}

export function createEditor(options: EditorOptions): EditorView {
  let current: { text: string; schema: Schema; diagnostics: readonly Diagnostic[] } | undefined;
  /** The diagnostics of the text for the current schema (computed once per text and schema). */
  const diagnosticsOf = (text: string): readonly Diagnostic[] => {
    const schema = options.schema();
    if (current?.text !== text || current.schema !== schema) current = { text, schema, diagnostics: diagnose(text, { schema }) };
    return current.diagnostics;
  };

  const lint = linter(
    (view): CmDiagnostic[] => {
      const text = view.state.doc.toString();
      if (text.trim() === "") return [];
      return diagnosticsOf(text).map((d) => {
        // A point at the end (the expression stops too early) is underlined on its last character.
        const from = d.span.start === d.span.end && d.span.start > 0 ? d.span.start - 1 : d.span.start;
        return {
          from,
          to: Math.max(d.span.end, from),
          severity: d.severity,
          source: d.code,
          message: d.message,
          actions: d.fixes.map((fix) => ({ name: fix.title, apply: (v: EditorView) => applyFixTo(v, fix) })),
        };
      });
    },
    { delay: 50 },
  );

  const complete = (context: CompletionContext): CompletionResult | null => {
    const word = context.matchBefore(/[A-Za-z][A-Za-z0-9_/]*(?:\.[A-Za-z0-9_/]*)*$/);
    if (!word && !context.explicit) return null;
    const typed = word?.text ?? "";
    const dot = typed.lastIndexOf(".");
    const base = dot < 0 ? "" : typed.slice(0, dot);
    const from = (word?.from ?? context.pos) + dot + 1;
    const record = recordAt(options.schema(), base);
    if (!record) return null;
    const fields = Object.entries(record.fields).map(([name, type]) => ({ label: name, type: "property", detail: describe(type) }));
    const keywords = dot < 0 ? ["and", "or", "not", "in", "contains", "matches", "is empty", "is not empty", "is nil", "any", "all"].map((k) => ({ label: k, type: "keyword" })) : [];
    return { from, options: [...fields, ...keywords], validFor: /^[A-Za-z0-9_/]*$/ };
  };

  const hover = hoverTooltip((view, pos) => {
    const info = selectorAt(view.state.doc.toString(), pos, { schema: options.schema() });
    if (!info) return null;
    return {
      pos: info.span.start,
      end: info.span.end,
      above: true,
      create: () => {
        const dom = document.createElement("div");
        dom.className = "type-tooltip";
        const code = document.createElement("code");
        code.textContent = info.text;
        dom.append(code, `: ${info.type}`);
        return { dom };
      },
    };
  });

  const keys = Prec.high(
    keymap.of([
      { key: "Mod-Enter", run: () => (options.onRun(), true) },
      {
        key: "Mod-.",
        run: (view) => {
          const text = view.state.doc.toString();
          const pos = view.state.selection.main.head;
          const ds = diagnosticsOf(text).filter((d) => d.fixes.length > 0);
          const here = ds.find((d) => d.span.start <= pos && pos <= d.span.end) ?? ds[0];
          if (!here) return false;
          applyFixTo(view, here.fixes[0]!);
          return true;
        },
      },
    ]),
  );

  const view = new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        keys,
        history(),
        drawSelection(),
        bracketMatching(),
        closeBrackets(),
        filterSyntax(),
        lint,
        autocompletion({ override: [complete], activateOnTyping: true }),
        hover,
        placeholder('Status == "running"'),
        keymap.of([...completionKeymap, ...lintKeymap, ...historyKeymap, ...defaultKeymap]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ "aria-label": "filter expression", spellcheck: "false", autocapitalize: "off", autocorrect: "off" }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) {
            const text = u.state.doc.toString();
            options.onChange(text, text.trim() === "" ? [] : diagnosticsOf(text));
          }
        }),
      ],
    }),
  });
  return view;
}

/** The record a dotted path of names reaches from `schema` (map keys and list indexes step into values), if any. */
function recordAt(schema: Schema, path: string): Extract<Type, { kind: "record" }> | undefined {
  let type: Type = schema;
  const steps = path === "" ? [] : path.split(".");
  for (const step of steps) {
    while (type.kind === "pointer") type = type.target;
    if (type.kind === "record") {
      const next: Type | undefined = Object.hasOwn(type.fields, step) ? type.fields[step] : undefined;
      if (!next) return undefined;
      type = next;
    } else if (type.kind === "map") type = type.value;
    else if (type.kind === "list") type = type.elem;
    else return undefined;
  }
  while (type.kind === "pointer") type = type.target;
  return type.kind === "record" ? type : undefined;
}

function describe(type: Type): string {
  switch (type.kind) {
    case "pointer":
      return describe(type.target);
    case "list":
      return `list of ${describe(type.elem)}`;
    case "map":
      return `map of ${describe(type.value)}`;
    case "record":
      return type.name;
    case "any":
      return "any";
    default:
      return type.kind;
  }
}
