/** Code actions: each fix of a finding in the requested range, as a quick fix. */
import { CodeActionKind, type CodeAction, type Range, type TextEdit } from "vscode-languageserver";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { documentRegions, schemaOf, type Context } from "./context.js";
import { toLsp } from "./diagnostics.js";
import { encode, toDocument } from "./regions.js";

function before(a: { line: number; character: number }, b: { line: number; character: number }): boolean {
  return a.line < b.line || (a.line === b.line && a.character <= b.character);
}

/** Do two ranges meet (touching counts: a cursor at a finding's end asks about it)? */
function meets(a: Range, b: Range): boolean {
  return before(a.start, b.end) && before(b.start, a.end);
}

export function codeActions(doc: TextDocument, range: Range, context: Context): CodeAction[] {
  const out: CodeAction[] = [];
  const from = doc.offsetAt(range.start);
  const to = doc.offsetAt(range.end);
  for (const region of documentRegions(doc)) {
    if (region.end < from || region.start > to) continue;
    const { schema, key } = schemaOf(region, context.settings);
    for (const finding of context.analyser.analyse(region.text, schema, key).diagnostics) {
      const diagnostic = toLsp(doc, region, finding);
      if (!meets(diagnostic.range, range)) continue;
      finding.fixes.forEach((fix, i) => {
        const edits: TextEdit[] = [];
        for (const e of fix.edits) {
          const newText = encode(region, e.insert);
          if (newText === undefined) return; // not writable into this literal
          edits.push({ range: { start: doc.positionAt(toDocument(region, e.start)), end: doc.positionAt(toDocument(region, e.end)) }, newText });
        }
        out.push({ title: fix.title, kind: CodeActionKind.QuickFix, diagnostics: [diagnostic], isPreferred: i === 0, edit: { changes: { [doc.uri]: edits } } });
      });
    }
  }
  return out;
}
