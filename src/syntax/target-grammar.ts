/**
 * What a release's grammar lacks, and its parse budget: the constructs of an AST that an older
 * go-bexpr rejects (`any`/`all` before 0.1.13, `is nil` before 0.1.16), and the grammar table its
 * budget counts over.
 */
import type { PegNode, PegRule } from "./peg.js";
import type { Expr, Span } from "./ast.js";
import { REFERENCE_RULES } from "./reference-grammar.js";
import { FEATURES, firstNomadWith, has, type Feature, type Target } from "../releases.js";

/** A construct of the expression that the target's grammar does not have. */
export interface Unsupported {
  readonly feature: Feature;
  /** The construct's words: the operator of a match, the quantifier of a collection. */
  readonly span: Span;
  /** Its whole extent, for fixes that remove it. */
  readonly extent: Span;
}

/** The constructs of `ast` that `target` rejects, in source order. */
export function unsupportedConstructs(ast: Expr, target: Target): Unsupported[] {
  const collections = has(target, "collections");
  const isNil = has(target, "is-nil");
  if (collections && isNil) return [];
  const out: Unsupported[] = [];
  const stack: Expr[] = [ast];
  while (stack.length > 0) {
    const e = stack.pop()!;
    switch (e.kind) {
      case "match":
        if (!isNil && (e.op === "is nil" || e.op === "is not nil")) out.push({ feature: "is-nil", span: e.opSpan, extent: e.span });
        break;
      case "not":
        stack.push(e.operand);
        break;
      case "and":
      case "or":
        for (let i = e.operands.length - 1; i >= 0; i--) stack.push(e.operands[i]!);
        break;
      case "collection":
        if (!collections) out.push({ feature: "collections", span: { start: e.span.start, end: e.span.start + e.quantifier.length }, extent: e.span });
        stack.push(e.body);
        break;
    }
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}

/** Words for an unsupported construct: what it is and the releases that have it. */
export function unsupportedFacts(u: Unsupported, source: string, target: Target): { readonly construct: string; readonly since: string; readonly target: string } {
  const since = FEATURES[u.feature].since;
  return {
    construct: `"${source.slice(u.span.start, u.span.end).replace(/\s+/g, " ")}"`,
    since: `go-bexpr ${since} (nomad ${firstNomadWith(since)})`,
    target: target.name.startsWith("go-bexpr@") ? target.name : `${target.name} (go-bexpr ${target.bexpr})`,
  };
}

/** `rules` without the rules named in `drop` and every reference to them (a choice keeps its other alternatives). */
function without(rules: readonly PegRule[], drop: ReadonlySet<string>): readonly PegRule[] {
  const strip = (n: PegNode): PegNode | undefined => {
    switch (n.t) {
      case "ref":
        return drop.has(n.name) ? undefined : n;
      case "choice": {
        const alts = n.alts.map(strip).filter((x): x is PegNode => x !== undefined);
        return alts.length === 0 ? undefined : { t: "choice", alts };
      }
      case "seq": {
        const exprs = n.exprs.map(strip);
        return exprs.some((x) => x === undefined) ? undefined : { t: "seq", exprs: exprs as PegNode[] };
      }
      case "action": case "labeled": case "and": case "not": case "zeroOrOne": case "zeroOrMore": case "oneOrMore": {
        const e = strip(n.e);
        return e === undefined ? undefined : { t: n.t, e };
      }
      default:
        return n;
    }
  };
  return rules.filter((r) => !drop.has(r.name)).map((r) => ({ ...r, expr: strip(r.expr)! }));
}

/**
 * go-bexpr 0.1.13–0.1.15's grammar table: 0.1.16's without the `is nil` alternatives. Their generated
 * `grammar.go` tables, transcribed by grammar/pigeon-grammar.mjs, differ in exactly these.
 */
const RULES_BEFORE_IS_NIL = without(REFERENCE_RULES, new Set(["MatchIsNil", "MatchIsNotNil"]));

/**
 * Before 0.1.13 (a different pigeon generated it, which the transcriber does not read): the table
 * of 0.1.13 without `any`/`all`. Only a caller's own `maxExpressions` counts over it; the scheduler
 * never set one on those releases.
 */
const RULES_BEFORE_COLLECTIONS = without(RULES_BEFORE_IS_NIL, new Set(["CollectionExpression", "CollectionIdentifiers", "CollectionOpAny", "CollectionOpAll"]));

/** The grammar table the target's parse budget counts over. */
export function budgetRules(target: Target): readonly PegRule[] {
  return has(target, "is-nil") ? REFERENCE_RULES : has(target, "collections") ? RULES_BEFORE_IS_NIL : RULES_BEFORE_COLLECTIONS;
}
