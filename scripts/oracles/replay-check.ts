/**
 * Checks the library's replay of the parse budget (src/syntax/budget.ts, over each release's grammar
 * table from src/syntax/target-grammar.ts) against what 0.1.15 and 0.1.16 answered: a release ran out of
 * budget exactly where the replay says it does (same offset), or neither did.
 */
import { budgetSteps, REFERENCE_PARSE_BUDGET } from "../../src/syntax/budget.js";
import { budgetRules } from "../../src/syntax/target-grammar.js";

export const BUDGETED = ["0.1.15", "0.1.16"] as const;

const rules = Object.fromEntries(BUDGETED.map((v) => [v, budgetRules({ name: `go-bexpr@${v}`, bexpr: v })]));

/** Where the oracle's message says the budget ran out (a byte offset), or undefined. */
function oracleOffset(goError: string | undefined): number | undefined {
  // 0.1.15's pigeon spells it "expresssions"; the message can follow other errors on earlier lines.
  const m = /(\d+):(\d+) \((\d+)\): rule [^\n]*?: max number of expres+ions parsed/.exec(goError ?? "");
  return m ? Number(m[3]) : goError?.includes("max number of expres") ? -1 : undefined;
}

/** undefined when the replay agrees with the oracle's answer, else what differs. */
export function replayDisagreement(expr: string, version: (typeof BUDGETED)[number], goError: string | undefined): string | undefined {
  const r = budgetSteps(expr, REFERENCE_PARSE_BUDGET, rules[version]);
  const at = oracleOffset(goError);
  if (!r.exceeded && at === undefined) return undefined;
  if (r.exceeded && at === undefined) return `replay: out of budget at ${r.offset}; ${version}: not`;
  if (!r.exceeded) return `replay: ${r.steps} steps; ${version}: out of budget at ${at}`;
  // Offsets: the oracle counts bytes, the replay UTF-16 units (equal for ASCII).
  const ascii = !/[^\x00-\x7f]/.test(expr);
  if (ascii && at !== r.offset) return `replay: out of budget at ${r.offset}; ${version}: at ${at}`;
  return undefined;
}
