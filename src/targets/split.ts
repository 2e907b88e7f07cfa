/**
 * `split(filter, target)`: the part of a filter that an older server evaluates exactly as the
 * filter's own release does, and the rest, to evaluate on the server's answer.
 *
 * The filter's top-level conjuncts `c1 and … and cn` are taken in order. A conjunct is *the same* on
 * both releases when every leaf of it answers alike on every item (answers and errors): it uses no
 * construct the target lacks, and no rule that changed between the two releases reaches it (a key
 * missing from a map at the selector's end, `is empty` on a value that is not a collection). The
 * server gets:
 * - the longest prefix of conjuncts that are the same: the server evaluates them in the filter's
 *   order, so where it answers false or fails, the filter answers false or fails at the same leaf;
 * - after it, a conjunct that is the same and cannot fail, while every conjunct before it cannot
 *   fail either: where it is false, the filter is false whatever came before.
 * So the server drops only items the filter answers false, and fails only where the filter fails.
 * The residual is the other conjuncts, in order: on an item the server keeps, the chosen conjuncts
 * are true, so the residual answers as the whole filter does, errors included.
 */
import { filterFacts } from "../semantics/facts.js";
import type { FilterSettings } from "../evaluate/settings.js";
import { concrete, pathFrom } from "../semantics/path.js";
import { ANY, type Type } from "../semantics/schema.js";
import type { Expr, Span } from "../syntax/ast.js";
import { parse } from "../syntax/parse.js";
import { print } from "../syntax/print.js";
import { BEXPR_VERSIONS, FEATURES, resolveTarget, type Feature, type Target } from "../releases.js";
import { unsupportedConstructs } from "../syntax/target-grammar.js";

/** What `split` needs of a compiled filter. */
export interface SplitSource {
  readonly expression: string;
  readonly ast: Expr;
}

/** The two parts of a filter for a server of an older release. */
export interface SplitParts {
  /** The release the server part is for. */
  readonly target: Target;
  /** The filter to send to the server (`?filter=`); undefined: send none and take every item. */
  readonly server: string | undefined;
  /**
   * The conjuncts to evaluate on the server's answer, as the original is evaluated: their AST (spans
   * into the filter's text; the filter's own AST when it is all of it) and their printed text;
   * undefined: keep every item.
   */
  readonly residual: { readonly expression: string; readonly ast: Expr } | undefined;
}

/** The features whose rules differ between two releases. */
export function changed(a: Target, b: Target): Set<Feature> {
  const ia = BEXPR_VERSIONS.indexOf(a.bexpr), ib = BEXPR_VERSIONS.indexOf(b.bexpr);
  const [lo, hi] = ia < ib ? [ia, ib] : [ib, ia];
  const out = new Set<Feature>();
  for (const [f, { since }] of Object.entries(FEATURES) as [Feature, { since: (typeof BEXPR_VERSIONS)[number] }][]) {
    const at = BEXPR_VERSIONS.indexOf(since);
    if (at > lo && at <= hi) out.add(f);
  }
  return out;
}

/** A leaf that may answer differently under two releases, and the rule that changed. */
export interface BehaviourChange {
  readonly feature: Feature;
  readonly span: Span;
}

/**
 * The leaves of `e` that may answer differently (answers or errors) under two releases whose rules
 * differ in `diff`: a key of a map that may be missing at a selector's end (`missing-leaf-answer`),
 * `is empty` on what may not be a string, list or map (`is-empty-error`). Constructs one release
 * lacks are `unsupportedConstructs`'.
 */
export function behaviourChanges(e: Expr, root: Type, diff: ReadonlySet<Feature>): BehaviourChange[] {
  const out: BehaviourChange[] = [];
  if (!diff.has("missing-leaf-answer") && !diff.has("is-empty-error")) return out;
  const stack: [Expr, Type][] = [[e, root]];
  while (stack.length > 0) {
    const [x, type] = stack.pop()!;
    if (x.kind === "not") stack.push([x.operand, type]);
    else if (x.kind === "and" || x.kind === "or") for (const o of x.operands) stack.push([o, type]);
    else {
      const keys = x.selector.segments.map((s) => s.name);
      const path = pathFrom(type, keys);
      // Only a key of a map can be missing at the end: a record's field or a list's index cannot.
      const last = path.type === undefined ? undefined : path.steps[path.steps.length - 1]?.container;
      if (diff.has("missing-leaf-answer") && keys.length > 1 && last !== "record" && last !== "list") out.push({ feature: "missing-leaf-answer", span: x.selector.span });
      if (x.kind === "collection") {
        // Inside a body, leaves read bound values: the changed rules are checked as on plain JSON.
        stack.push([x.body, ANY]);
      } else if (diff.has("is-empty-error") && (x.op === "is empty" || x.op === "is not empty")) {
        const kind = path.type === undefined ? "any" : concrete(path.type).kind;
        if (kind !== "string" && kind !== "list" && kind !== "map") out.push({ feature: "is-empty-error", span: x.opSpan });
      }
    }
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}

/** True when every leaf of `e` answers alike (answers and errors) under both releases' rules. */
function same(e: Expr, root: Type, diff: ReadonlySet<Feature>, target: Target): boolean {
  return unsupportedConstructs(e, target).length === 0 && behaviourChanges(e, root, diff).length === 0;
}


/** The conjunction of `parts` (in the filter's order, keeping their spans), or undefined for none. */
function conjunction(parts: readonly Expr[]): Expr | undefined {
  if (parts.length <= 1) return parts[0];
  return { kind: "and", operands: parts, span: { start: parts[0]!.span.start, end: parts[parts.length - 1]!.span.end } };
}

/**
 * Splits a compiled filter (or an expression, for plain JSON and the newest release) for a server
 * of the `target` release: send `server` as the server's filter, evaluate `residual` (with the
 * filter's own options) on its answer, and the result is the filter's answer over the same items,
 * errors included. The server part parses under the target's rules in every case.
 */
export function splitFilter(filter: SplitSource, settings: FilterSettings | undefined, target: string | Target): SplitParts {
  const to = resolveTarget(target);
  const from = settings?.target ?? resolveTarget(`go-bexpr@${BEXPR_VERSIONS[BEXPR_VERSIONS.length - 1]}`);
  const root: Type = settings?.root ?? { kind: "any" };
  // The server evaluates without options: with an unknown value, no leaf answers alike there.
  const whole = { expression: filter.expression, ast: filter.ast };
  if (settings !== undefined && "unknownValue" in settings.options) return { target: to, server: undefined, residual: whole };
  const all = filterFacts(filter.ast, filter.expression, root, settings?.options ?? {}).conjuncts;
  const diff = changed(from, to);
  const chosen: Expr[] = [];
  const rest: Expr[] = [];
  let prefix = true;
  let infallibleSoFar = true;
  for (const { expr: c, canFail } of all) {
    const infallible = !canFail;
    if (same(c, root, diff, to) && (prefix || (infallible && infallibleSoFar))) chosen.push(c);
    else {
      prefix = false;
      rest.push(c);
    }
    infallibleSoFar &&= infallible;
  }
  const sent = conjunction(chosen);
  const server = sent && print(sent);
  if (server === undefined || !parsesUnder(server, to)) return { target: to, server: undefined, residual: whole };
  const left = conjunction(rest);
  if (left === undefined) return { target: to, server, residual: undefined };
  return { target: to, server, residual: { expression: print(left), ast: left } };
}

function parsesUnder(text: string, target: Target): boolean {
  try {
    parse(text, { target });
    return true;
  } catch {
    return false;
  }
}

