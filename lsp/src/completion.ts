/** Completion: the library's `completionsAt` on the filter under the cursor. */
import { completionsAt, type Completion } from "filter-expr";
import { CompletionItemKind, type CompletionItem, type Position } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { documentRegions, regionAt, schemaOf, type Context } from "./context.js";
import { encode, fromDocument, toDocument } from "./regions.js";

const KINDS: Readonly<Record<Completion["kind"], CompletionItemKind>> = {
  field: CompletionItemKind.Field,
  variable: CompletionItemKind.Variable,
  keyword: CompletionItemKind.Keyword,
  operator: CompletionItemKind.Operator,
  value: CompletionItemKind.EnumMember,
};

/** The items at a position (none outside a filter). */
export function completionItems(doc: TextDocument, position: Position, context: Context): CompletionItem[] {
  const offset = doc.offsetAt(position);
  const region = regionAt(documentRegions(doc, true), offset);
  if (region === undefined) return [];
  const local = fromDocument(region, offset)!;
  const { schema } = schemaOf(region, context.settings);
  const found = completionsAt(region.text, local, { schema });
  const items: CompletionItem[] = [];
  found.items.forEach((item, i) => {
    const newText = encode(region, item.insert);
    if (newText === undefined) return;
    const start = doc.positionAt(toDocument(region, item.from ?? found.from));
    items.push({
      label: item.label,
      kind: KINDS[item.kind],
      ...(item.detail === undefined ? {} : { detail: item.detail }),
      // The library's order (fields before words, operators as a person reaches for them).
      sortText: String(i).padStart(4, "0"),
      filterText: item.from === undefined ? item.label : newText,
      textEdit: { range: { start, end: position }, newText },
    });
  });
  return items;
}
