/**
 * The operator table: each match operator's base operation, whether it negates it, and its fixed
 * answer when the selector's last step is a key missing from a map. What each base operation does on
 * each kind of value is the table of `table.ts`, read by every evaluator.
 */
import type { MatchOp } from "../syntax/ast.js";
import type { BaseOp } from "./table.js";

export interface OperatorInfo {
  readonly base: BaseOp;
  /** The operator is the negation of its base (errors are not negated). */
  readonly negated: boolean;
  /** The answer when the last step of the selector is a key missing from a map. */
  readonly missing: boolean;
}

export const OPERATORS = {
  "==": { base: "equal", negated: false, missing: false },
  "!=": { base: "equal", negated: true, missing: true },
  contains: { base: "in", negated: false, missing: false },
  "not contains": { base: "in", negated: true, missing: true },
  in: { base: "in", negated: false, missing: false },
  "not in": { base: "in", negated: true, missing: true },
  matches: { base: "matches", negated: false, missing: false },
  "not matches": { base: "matches", negated: true, missing: true },
  "is empty": { base: "empty", negated: false, missing: true },
  "is not empty": { base: "empty", negated: true, missing: false },
  "is nil": { base: "nil", negated: false, missing: true },
  "is not nil": { base: "nil", negated: true, missing: false },
} as const satisfies Record<MatchOp, OperatorInfo>;

/** The answer of `any`/`all` over a collection whose last step is a key missing from a map. */
export const COLLECTION_MISSING = { any: false, all: true } as const;
