/**
 * `filterCompletion`: the library's `completionsAt` as a CodeMirror completion source: the fields of the
 * record being stepped into (with their types), the names bound by `any`/`all`, the operators after a
 * selector and the words where an expression, `as` or `and`/`or` may come.
 */
import { autocompletion, type Completion as CmCompletion, type CompletionContext, type CompletionResult, type CompletionSource } from "@codemirror/autocomplete";
import { EditorState, type Extension } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { completionsAt, type Completion } from "filter-expr";
import { read, type FilterOptions } from "./options.js";

/** The icon class of each kind (`cm-completionIcon-…`): CodeMirror's own, and `operator` of this package. */
const TYPES: Readonly<Record<Completion["kind"], string>> = { field: "property", variable: "variable", keyword: "keyword", operator: "operator", value: "enum" };

/** A character of a name (`[A-Za-z0-9_/]`) or a dot: typing one opens the list; anything else needs Ctrl-Space. */
const OPENS = /[A-Za-z0-9_/.]/;

/** An item as CodeMirror shows and applies it: an item with its own `from` (a key step `["a b"]`) replaces from there. */
function toCompletion(item: Completion, rank: number): CmCompletion {
  const own = item.from;
  return {
    label: item.label,
    type: TYPES[item.kind],
    ...(item.detail === undefined ? {} : { detail: item.detail }),
    // Operators keep the library's order (the one a person reaches for); the others sort by name.
    ...(item.kind === "operator" ? { boost: -Math.min(rank, 99) } : {}),
    apply:
      own === undefined && item.insert === item.label
        ? item.label
        : (view: EditorView, _c: CmCompletion, from: number, to: number) => {
            const start = own ?? from;
            view.dispatch({ changes: { from: start, to, insert: item.insert }, selection: { anchor: start + item.insert.length }, userEvent: "input.complete" });
          },
  };
}

/**
 * The completion source: `completionsAt(text, pos, { schema })`. Typing a name character or a dot opens
 * it; elsewhere (after a space, for the operators) Ctrl-Space does.
 */
export function filterCompletionSource(options: FilterOptions = {}): CompletionSource {
  return (context: CompletionContext): CompletionResult | null => {
    const before = context.pos > 0 ? context.state.sliceDoc(context.pos - 1, context.pos) : "";
    if (!context.explicit && !OPENS.test(before)) return null;
    const found = completionsAt(context.state.doc.toString(), context.pos, { schema: read(options.schema) });
    if (found.items.length === 0) return null;
    let operators = 0;
    return {
      from: found.from,
      to: found.to,
      options: found.items.map((item) => toCompletion(item, item.kind === "operator" ? operators++ : 0)),
      validFor: /^[A-Za-z0-9_/]*$/,
    };
  };
}

/** The icon of an operator item (the others are CodeMirror's). */
const theme = EditorView.baseTheme({ ".cm-completionIcon-operator:after": { content: "'≠'" } });

/**
 * Completion as you type: the source (as the editor's language data, so it joins other sources) and
 * `autocompletion()` (configure it further with your own `autocompletion({ … })`, which combines).
 */
export function filterCompletion(options: FilterOptions = {}): Extension {
  const data = [{ autocomplete: filterCompletionSource(options) }];
  return [EditorState.languageData.of(() => data), autocompletion(), theme];
}
