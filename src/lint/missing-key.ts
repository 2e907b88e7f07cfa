/**
 * `JobSummary.Summary.web.Running == 1`: a key missing from a map takes the operator's fixed answer
 * only at the last step; a missing key before it (`web` here) raises an error for the whole filter.
 * Warned unless an earlier operand guards the key (`"web" in JobSummary.Summary and ...`, or
 * `"web" not in JobSummary.Summary or ...`); the hint is the guarded form.
 */
import type { CollectionExpr, MatchExpr, Selector } from "../syntax/ast.js";
import { COLLECTION_MISSING, OPERATORS } from "../semantics/operators.js";
import type { Resolved } from "../semantics/path.js";
import { quoteValue, selectorText, stepSpan } from "./text.js";
import type { Warning } from "./warning.js";

/** Guards in force: `guardKey(prefix keys, key)` of keys known to be present. */
export type Guards = ReadonlySet<string>;

/** Where the match stands, for parentheses in the suggestion. */
export type Parent = "top" | "and" | "or" | "not" | "body";

/** The identity of "key `key` is in the value at `path`". */
export function guardKey(path: readonly string[], key: string): string {
  return `${path.join("\u0001")}\u0000${key}`;
}


export function missingKey(
  sel: Selector,
  resolved: Resolved,
  site: MatchExpr | CollectionExpr,
  source: string,
  guards: Guards,
  parent: Parent,
): Warning | undefined {
  const last = sel.segments.length - 1;
  const keys = sel.segments.map((s) => s.name);
  const risky = resolved.steps
    .map((s, i) => ({ container: s.container, index: i + resolved.taken, segment: sel.segments[i + resolved.taken]! }))
    .filter(
      (s) =>
        s.index > 0 &&
        s.index < last &&
        (s.container === "map" || (s.container === "dynamic" && s.segment.kind !== "index")) &&
        !guards.has(guardKey(keys.slice(0, s.index), s.segment.name)),
    );
  const first = risky[0];
  if (first === undefined) return undefined;
  // An operator whose fixed answer on a missing last key is true is guarded by `not in ... or`.
  const negative = site.kind === "match" ? OPERATORS[site.op].missing : COLLECTION_MISSING[site.quantifier];
  const container = selectorText(sel, first.index);
  const key = JSON.stringify(first.segment.name);
  const tests = risky.map((s) => `${quoteValue(s.segment.name)} ${negative ? "not in" : "in"} ${selectorText(sel, s.index)}`);
  const original = source.slice(site.span.start, site.span.end);
  const body = site.kind === "collection" ? `(${original})` : original;
  let guarded = [...tests, body].join(negative ? " or " : " and ");
  if (parent === "not" || (parent === "and" && negative)) guarded = `(${guarded})`;
  const typed = first.container === "map";
  return {
    code: "missing-key-error",
    summary:
      `${typed ? "" : "if "}${container} ${typed ? "may have" : "has"} no key ${key}${typed ? "; then" : ","} this raises an error instead of ${negative ? "matching" : "not matching"} ` +
      `(only a key missing at the last step takes the operator's fixed answer)`,
    hint: `guard the key: ${guarded}`,
    span: stepSpan(first.segment, source),
    rewrite: { title: `guard the key: ${guarded}`, at: site.span, replace: guarded },
  };
}
