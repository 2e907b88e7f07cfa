/**
 * The findings of a document's filters as LSP diagnostics: code, severity, the library's span mapped
 * to the document (UTF-16 offsets, as LSP positions count by default and JavaScript strings are).
 * Filters are analysed one after the other, giving the event loop a turn between them, and the work
 * stops when the document has changed meanwhile.
 */
import type { Diagnostic as Finding } from "filter-expr";
import { DiagnosticSeverity, type Diagnostic, type Range } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { FULL_LIMIT } from "./analyse.js";
import { documentRegions, schemaOf, type Context } from "./context.js";
import { toDocument, type Region } from "./regions.js";

export const SOURCE = "filter-expr";

/** The code of the note on a filter too long for fixes and warnings. */
export const LIMITED_CODE = "not-fully-checked";

/** The document range of a span of a filter's text. */
export function rangeOf(doc: TextDocument, region: Region, span: { start: number; end: number }): Range {
  return { start: doc.positionAt(toDocument(region, span.start)), end: doc.positionAt(toDocument(region, span.end)) };
}

/** A finding as an LSP diagnostic. */
export function toLsp(doc: TextDocument, region: Region, d: Finding): Diagnostic {
  return {
    range: rangeOf(doc, region, d.span),
    severity: d.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: d.code,
    source: SOURCE,
    message: d.message,
  };
}

/**
 * The diagnostics of a document, or undefined when `current()` turned false on the way (the document
 * changed or closed: a newer run will publish).
 */
export async function diagnosticsOf(doc: TextDocument, context: Context, current: () => boolean): Promise<Diagnostic[] | undefined> {
  const out: Diagnostic[] = [];
  let since = performance.now();
  for (const region of documentRegions(doc)) {
    // A turn for the event loop every 20 ms of work: new edits and requests are read meanwhile.
    if (performance.now() - since > 20) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!current()) return undefined;
      since = performance.now();
    }
    const { schema, key } = schemaOf(region, context.settings);
    const analysis = context.analyser.analyse(region.text, schema, key);
    for (const d of analysis.diagnostics) out.push(toLsp(doc, region, d));
    if (analysis.limited) {
      out.push({
        range: rangeOf(doc, region, { start: 0, end: region.text.length }),
        severity: DiagnosticSeverity.Information,
        code: LIMITED_CODE,
        source: SOURCE,
        message: `this filter is longer than ${FULL_LIMIT} characters: only its errors are reported, without fixes or warnings`,
      });
    }
  }
  return out;
}
