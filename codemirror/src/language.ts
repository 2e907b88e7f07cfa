/**
 * The filter language for CodeMirror: a stream tokenizer (strings, numbers, the language's words from the
 * library's `KEYWORDS`, `==`/`!=`, selector names, punctuation) and a highlight style whose colours are
 * CSS custom properties, so a page themes it in its stylesheet.
 */
import { HighlightStyle, LanguageSupport, StreamLanguage, syntaxHighlighting, type StringStream } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import { KEYWORDS } from "filter-expr";

/** The words of the language (`and`, `in`, `is`, `empty`, `any`, `as`, …): the library's one list. */
const WORDS: ReadonlySet<string> = new Set(Object.keys(KEYWORDS));

/**
 * The stream language: keywords (`keyword`), quoted values (`string`), numbers (`number`), `==`/`!=`
 * (`operator`), a selector's first name (`variableName`) and the names after a dot (`propertyName`),
 * brackets and dots (`bracket`, `punctuation`) and any other character (`invalid`). A word after a dot
 * is a field name, never a keyword (`Meta.in`). A `"` string ends at the next `"`, as in the language.
 */
export const filterStreamLanguage = StreamLanguage.define<{ afterDot: boolean }>({
  name: "filter",
  startState: () => ({ afterDot: false }),
  copyState: (s) => ({ afterDot: s.afterDot }),
  token(stream: StringStream, state) {
    if (stream.eatSpace()) return null;
    const afterDot = state.afterDot;
    state.afterDot = false;
    if (stream.match(/^"[^"]*"?/) || stream.match(/^`[^`]*`?/)) return "string";
    if (stream.match(/^-?[0-9]+(\.[0-9]+)?/)) return "number";
    if (stream.match(/^(==|!=)/)) return "operator";
    const word = stream.match(/^[A-Za-z][A-Za-z0-9_/]*/);
    if (word && Array.isArray(word)) {
      if (!afterDot && WORDS.has(word[0])) return "keyword";
      return afterDot ? "propertyName" : "variableName";
    }
    // `_` binds nothing in `any X as _, v`.
    if (stream.eat("_")) return "variableName";
    if (stream.eat(".")) {
      state.afterDot = true;
      return "punctuation";
    }
    if (stream.match(/^[()[\]{},]/)) return "bracket";
    stream.next();
    return "invalid";
  },
  languageData: { closeBrackets: { brackets: ["(", "[", "{", '"', "`"] } },
});

/**
 * The colours, as CSS custom properties with defaults for a light background:
 * `--filter-expr-keyword`, `--filter-expr-string`, `--filter-expr-number`, `--filter-expr-operator`,
 * `--filter-expr-name`, `--filter-expr-punctuation`, `--filter-expr-invalid`. Set them (for a dark theme,
 * say) on the editor or any element above it.
 */
export const filterHighlightStyle = HighlightStyle.define([
  { tag: tags.keyword, color: "var(--filter-expr-keyword, #8250df)", fontWeight: "600" },
  { tag: tags.string, color: "var(--filter-expr-string, #0a3069)" },
  { tag: tags.number, color: "var(--filter-expr-number, #0550ae)" },
  { tag: tags.operator, color: "var(--filter-expr-operator, #953800)" },
  { tag: [tags.variableName, tags.propertyName], color: "var(--filter-expr-name, inherit)" },
  { tag: [tags.punctuation, tags.bracket], color: "var(--filter-expr-punctuation, #57606a)" },
  { tag: tags.invalid, color: "var(--filter-expr-invalid, #cf222e)", textDecoration: "underline wavy" },
]);

/** Options of `filterLanguage`. */
export interface LanguageOptions {
  /** Include `filterHighlightStyle` (default true); false leaves the colours to the editor's own highlight style. */
  readonly highlight?: boolean;
}

/**
 * The language support: `filterStreamLanguage` (syntax colouring, bracket data) with
 * `filterHighlightStyle` unless `highlight: false`.
 *
 * ```ts
 * new EditorView({ extensions: [basicSetup, filterLanguage()] });
 * ```
 */
export function filterLanguage(options: LanguageOptions = {}): LanguageSupport {
  return new LanguageSupport(filterStreamLanguage, options.highlight === false ? [] : [syntaxHighlighting(filterHighlightStyle)]);
}
