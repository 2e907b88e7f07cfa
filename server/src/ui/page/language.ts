/** Syntax colouring of the filter language: a stream tokenizer and a highlight style in CSS variables. */
import { HighlightStyle, StreamLanguage, syntaxHighlighting, type StringStream } from "@codemirror/language";
import { tags } from "@lezer/highlight";
import type { Extension } from "@codemirror/state";
import { KEYWORDS } from "filter-expr";

const WORDS: ReadonlySet<string> = new Set(Object.keys(KEYWORDS));

/** Tokens: strings, numbers, operator words, `==`/`!=`, selector names and punctuation. */
export const filterLanguage = StreamLanguage.define<{ afterDot: boolean }>({
  name: "filter",
  startState: () => ({ afterDot: false }),
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
    if (stream.eat(".")) {
      state.afterDot = true;
      return "punctuation";
    }
    if (stream.match(/^[()[\]{},]/)) return "bracket";
    stream.next();
    return "invalid";
  },
});

const style = HighlightStyle.define([
  { tag: tags.keyword, color: "var(--syntax-keyword)", fontWeight: "600" },
  { tag: tags.string, color: "var(--syntax-string)" },
  { tag: tags.number, color: "var(--syntax-number)" },
  { tag: tags.operator, color: "var(--syntax-operator)" },
  { tag: [tags.variableName, tags.propertyName], color: "var(--syntax-name)" },
  { tag: [tags.punctuation, tags.bracket], color: "var(--muted)" },
  { tag: tags.invalid, color: "var(--error)", textDecoration: "underline wavy" },
]);

export function filterSyntax(): Extension {
  return [filterLanguage, syntaxHighlighting(style)];
}
