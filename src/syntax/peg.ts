/**
 * The shape of a pigeon grammar table as grammar/pigeon-grammar.mjs transcribes it: the reference's
 * grammar (reference-grammar.ts) and each release's (target-grammar.ts) are tables of these rules,
 * and the budget counter (budget.ts) replays them.
 */

/** A node of a pigeon grammar table, as transcribed. */
export type PegNode =
  | { readonly t: "choice"; readonly alts: readonly PegNode[] }
  | { readonly t: "seq"; readonly exprs: readonly PegNode[] }
  | { readonly t: "action" | "labeled" | "and" | "not" | "zeroOrOne" | "zeroOrMore" | "oneOrMore"; readonly e: PegNode }
  | { readonly t: "ref"; readonly name: string }
  | { readonly t: "lit"; readonly val: string }
  | { readonly t: "class"; readonly val: string; readonly chars: string; readonly ranges: string; readonly classes: readonly string[] }
  | { readonly t: "any" }
  | { readonly t: "andCode"; readonly run: string };

/** A rule of a pigeon grammar table. */
export interface PegRule {
  readonly name: string;
  /** The rule's display name (`"grouping"`), "" when it has none. */
  readonly display: string;
  readonly expr: PegNode;
}
