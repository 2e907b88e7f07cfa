/**
 * Formatting of filter files: each line that parses becomes `print(parse(line))`, the library's
 * canonical text; comment lines, blank lines and lines that do not parse stay as they are. Filters
 * inside other files are not formatted (that file's own formatter owns it).
 */
import { FilterError, parse, print, type Target } from "filter-expr";
import type { TextEdit } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { documentRegions } from "./context.js";
import { isFilterFile } from "./regions.js";

export function formatEdits(doc: TextDocument, target: Target | undefined): TextEdit[] {
  if (!isFilterFile(doc.uri, doc.languageId)) return [];
  const edits: TextEdit[] = [];
  for (const region of documentRegions(doc)) {
    let printed: string;
    try {
      printed = print(parse(region.text, target === undefined ? {} : { target }));
    } catch (e) {
      if (FilterError.is(e)) continue;
      throw e;
    }
    if (printed !== region.text) edits.push({ range: { start: doc.positionAt(region.start), end: doc.positionAt(region.end) }, newText: printed });
  }
  return edits;
}
