/** Hover: the selector under the cursor and the schema's type of it (`selectorAt`). */
import { selectorAt } from "filter-expr";
import { MarkupKind, type Hover, type Position } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { documentRegions, regionAt, schemaOf, type Context } from "./context.js";
import { rangeOf } from "./diagnostics.js";
import { fromDocument } from "./regions.js";

export function hoverAt(doc: TextDocument, position: Position, context: Context): Hover | null {
  const offset = doc.offsetAt(position);
  const region = regionAt(documentRegions(doc), offset);
  if (region === undefined) return null;
  const { schema } = schemaOf(region, context.settings);
  const info = selectorAt(region.text, fromDocument(region, offset)!, { schema });
  if (info === undefined) return null;
  const fields = info.fields.length === 0 ? "" : `\n\nfields: ${info.fields.map((f) => `\`${f}\``).join(", ")}`;
  const values = info.values.length === 0 ? "" : `\n\nvalues: ${info.values.map((v) => `\`${JSON.stringify(v)}\``).join(", ")}`;
  return {
    contents: { kind: MarkupKind.Markdown, value: `\`${info.text}\`: ${info.type}${fields}${values}` },
    range: rangeOf(doc, region, info.span),
  };
}
