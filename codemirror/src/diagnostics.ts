/** `diagnosticsOf`: the library's `diagnose` of an editor's text, computed once per text, schema and target. */
import type { Text } from "@codemirror/state";
import { diagnose, type Diagnostic } from "filter-expr";
import { read, type FilterOptions } from "./options.js";

interface Entry {
  readonly text: string;
  readonly schema: unknown;
  readonly target: unknown;
  readonly warnings: boolean;
  readonly diagnostics: readonly Diagnostic[];
}

/** The last result for each document (CodeMirror keeps a document's `Text` while it does not change). */
const byDoc = new WeakMap<Text, Entry>();
/** The last result for a string. */
let lastString: Entry | undefined;

/**
 * The diagnostics of `diagnose(text, { schema, target, warnings })` for an editor's document (or a
 * string), with the options as they are now; none for a text of only whitespace (an empty field is not an
 * error while it is being filled). The linter, the fix command and a page showing the same list share one
 * computation per document.
 */
export function diagnosticsOf(doc: Text | string, options: FilterOptions = {}): readonly Diagnostic[] {
  const schema = read(options.schema);
  const target = read(options.target);
  const warnings = options.warnings ?? true;
  const cached = typeof doc === "string" ? lastString : byDoc.get(doc);
  const text = typeof doc === "string" ? doc : cached?.text ?? doc.toString();
  if (cached !== undefined && cached.text === text && cached.schema === schema && cached.target === target && cached.warnings === warnings) return cached.diagnostics;
  const diagnostics = text.trim() === "" ? [] : diagnose(text, { schema, target, warnings });
  const entry: Entry = { text, schema, target, warnings, diagnostics };
  if (typeof doc === "string") lastString = entry;
  else byDoc.set(doc, entry);
  return diagnostics;
}
