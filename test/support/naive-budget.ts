/**
 * The reference parser's count (go-bexpr's pigeon parser, `parser.parseExpr`), replayed naively for
 * tests: a line-by-line port of `parseExpr` and its `parse*Expr` functions over a grammar table (no
 * memo, recursion as in Go), for small inputs only. It records what the reference records as errors
 * on the way (a failed predicate, a string that strconv.Unquote rejects) and where a limit stops it.
 */
import type { PegNode, PegRule } from "../../src/syntax/peg.js";
import { REFERENCE_RULES } from "../../src/syntax/reference-grammar.js";
import { unquoteFails } from "../../src/syntax/strings.js";

export function naiveRun(text: string, rules: readonly PegRule[], max: number): { steps: number; matched: boolean } | { stop: { offset: number; rule: string; afterError: boolean } } {
  const cps = [...text].map((c) => c.codePointAt(0)!);
  const byName = new Map(rules.map((r) => [r.name, r]));
  let pos = 0;
  let steps = 0;
  /** Predicates that failed: each records its error, and the parser goes on. */
  let errors = 0;
  const ruleStack = [rules[0]!];
  /** Where the reference panics: the first step past `max`. */
  class Stop {
    constructor(readonly offset: number, readonly rule: string, readonly afterError: boolean) {}
  }
  const classMatch = (n: Extract<PegNode, { t: "class" }>, cp: number): boolean => {
    if ([...n.chars].some((c) => c.codePointAt(0) === cp)) return true;
    const r = [...n.ranges].map((c) => c.codePointAt(0)!);
    for (let i = 0; i < r.length; i += 2) if (cp >= r[i]! && cp <= r[i + 1]!) return true;
    return n.classes.some((c) => new RegExp(`^\\p{${c}}$`, "u").test(String.fromCodePoint(cp)));
  };
  const parseExpr = (e: PegNode): boolean => {
    if (++steps > max) {
      const rule = ruleStack[ruleStack.length - 1]!;
      throw new Stop([...text].slice(0, pos).join("").length, rule.display || rule.name, errors > 0);
    }
    const start = pos;
    switch (e.t) {
      case "action": {
        const ok = parseExpr(e.e);
        // A string's action is Go's strconv.Unquote: its failure is recorded, and the parser goes on.
        if (ok && ruleStack[ruleStack.length - 1]!.name === "StringLiteral" && unquoteFails(String.fromCodePoint(...cps.slice(start, pos)))) errors++;
        return ok;
      }
      case "labeled":
        return parseExpr(e.e);
      case "andCode":
        errors++;
        return false;
      case "and": {
        const ok = parseExpr(e.e);
        pos = start;
        return ok;
      }
      case "not": {
        const ok = parseExpr(e.e);
        pos = start;
        return !ok;
      }
      case "any":
        if (pos >= cps.length) return false;
        pos++;
        return true;
      case "class":
        if (pos >= cps.length || !classMatch(e, cps[pos]!)) return false;
        pos++;
        return true;
      case "choice":
        for (const alt of e.alts) if (parseExpr(alt)) return true;
        return false;
      case "lit":
        for (const c of e.val) {
          if (cps[pos] !== c.codePointAt(0)) {
            pos = start;
            return false;
          }
          pos++;
        }
        return true;
      case "oneOrMore": {
        let n = 0;
        while (parseExpr(e.e)) n++;
        return n > 0;
      }
      case "zeroOrMore":
        while (parseExpr(e.e));
        return true;
      case "zeroOrOne":
        parseExpr(e.e);
        return true;
      case "ref": {
        const rule = byName.get(e.name)!;
        ruleStack.push(rule);
        const ok = parseExpr(rule.expr);
        ruleStack.pop();
        return ok;
      }
      case "seq":
        for (const x of e.exprs) {
          if (!parseExpr(x)) {
            pos = start;
            return false;
          }
        }
        return true;
    }
  };
  try {
    const matched = parseExpr(rules[0]!.expr);
    return { steps, matched };
  } catch (e) {
    if (e instanceof Stop) return { stop: { offset: e.offset, rule: e.rule, afterError: e.afterError } };
    throw e;
  }
}
export const naiveSteps = (text: string, rules: readonly PegRule[] = REFERENCE_RULES): { steps: number; matched: boolean } => naiveRun(text, rules, Infinity) as { steps: number; matched: boolean };
