/** The shapes of `diagnose`: diagnostics, their fixes and the text edits of a fix. */
import type { Span } from "../errors.js";

/** Replace the text in `[start, end)` (UTF-16 offsets into the original text) with `insert`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly insert: string;
}

/** A fix: edits that turn the expression into a valid one with the same intent. */
export interface Fix {
  /** What the fix does, for a button or a menu (`replace "Stauts" with "Status"`). */
  readonly title: string;
  /** Non-overlapping edits, all against the original text. */
  readonly edits: readonly TextEdit[];
}

/** One finding of `diagnose`. */
export interface Diagnostic {
  /**
   * A stable code: a syntax or type error code of the library (`unexpected-input`, `unknown-field`, …;
   * see docs/api.md) or a warning code (`pointer-value`, `word-is-selector`, `list-by-name`,
   * `missing-key-error`, `unknown-value`, `target-behaviour`).
   */
  readonly code: string;
  /** `error`: `compile` with the same schema rejects the text (or, for a type error that only some records reach, the reference fails on them); `warning`: valid text that probably does not mean what it says. */
  readonly severity: "error" | "warning";
  /** What is wrong, in one sentence, without a position. */
  readonly message: string;
  /** The offending text. */
  readonly span: Span;
  /** Fixes, best first; each one, applied alone, removes this finding (possibly empty). */
  readonly fixes: readonly Fix[];
}
