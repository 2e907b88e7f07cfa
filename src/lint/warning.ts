/** A warning: valid text that probably does not mean what it says. */
import type { Span } from "../errors.js";

/** Stable codes of the warnings. */
export type WarningCode = "pointer-value" | "word-is-selector" | "list-by-name" | "missing-key-error" | "unknown-value" | "target-behaviour";

export interface Warning {
  readonly code: WarningCode;
  /** What the text does, in one sentence, without a position. */
  readonly summary: string;
  /** What to write instead. */
  readonly hint: string;
  readonly span: Span;
  /** The replacement the hint describes, when it is one edit: `replace` takes the place of `at`. */
  readonly rewrite?: { readonly title: string; readonly at: Span; readonly replace: string };
}
