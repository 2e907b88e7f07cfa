/**
 * The findings of one filter, bounded in cost and cached.
 *
 * `diagnose` tries every candidate fix by diagnosing the fixed text again, so its cost grows with the
 * number of findings times the length of the text (a 10,000-character line with 450 unknown fields
 * takes seconds). Up to `FULL_LIMIT` characters a filter gets `diagnose` (errors, warnings, fixes);
 * beyond, the parser's and the checker's errors alone (linear), without fixes or warnings, and a note
 * that says so. The library itself refuses texts beyond 1 MiB (`input-too-long`) at once.
 */
import { checkAst, diagnose, FilterError, parse, t, type Diagnostic, type Schema, type Target } from "filter-expr";

/** The longest filter that gets `diagnose` with its fixes and warnings. */
export const FULL_LIMIT = 1_000;

/** The findings of a filter, and whether they were limited to errors. */
export interface Analysis {
  readonly diagnostics: readonly Diagnostic[];
  readonly limited: boolean;
}

/** Analyses filters, remembering the answers for the settings it was made with. */
export class Analyser {
  readonly #cache = new Map<string, Analysis>();
  readonly #target: Target | undefined;

  constructor(target: Target | undefined) {
    this.#target = target;
  }

  /** The findings of `text` against `schema`. */
  analyse(text: string, schema: Schema | undefined, schemaKey: string): Analysis {
    const key = `${schemaKey}\0${text}`;
    let found = this.#cache.get(key);
    if (found === undefined) {
      found = text.length <= FULL_LIMIT ? { diagnostics: diagnose(text, { schema, target: this.#target }), limited: false } : errorsOnly(text, schema, this.#target);
      // A bounded memory: edits make new lines; the old ones go at once when there are too many.
      if (this.#cache.size >= 5_000) this.#cache.clear();
      this.#cache.set(key, found);
    }
    return found;
  }
}

function errorsOnly(text: string, schema: Schema | undefined, target: Target | undefined): Analysis {
  const diagnostic = (e: FilterError): Diagnostic => ({ code: e.code, severity: "error", message: e.summary, span: e.span, fixes: [] });
  try {
    const ast = parse(text, target === undefined ? {} : { target });
    const errors = checkAst(ast, text, schema ?? t.any);
    return { diagnostics: errors.map(diagnostic), limited: true };
  } catch (e) {
    if (FilterError.is(e)) return { diagnostics: [diagnostic(e)], limited: true };
    throw e;
  }
}
