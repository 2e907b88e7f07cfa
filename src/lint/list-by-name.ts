/**
 * `Multiregion.Regions.Name == "east"`: a step into a list must be an index; a name raises an error
 * whenever the list is reached. The elements are tested with a collection expression.
 */
import type { MatchExpr, Selector } from "../syntax/ast.js";
import { concrete, lookup, type Resolved, type Scope } from "../semantics/path.js";
import { matchText, segmentsText, selectorText, stepSpan } from "./text.js";
import type { Warning } from "./warning.js";

export function listByName(sel: Selector, resolved: Resolved, match: MatchExpr | undefined, scope: Scope, source: string): Warning | undefined {
  const i = resolved.steps.findIndex((s) => s.failure === "invalid-index");
  if (i < 0) return undefined;
  const step = resolved.steps[i]!;
  const at = i + resolved.taken;
  const segment = sel.segments[at]!;
  const list = selectorText(sel, at);
  const rest = sel.segments.slice(at);
  const variable = freshName(scope, sel.segments[at - 1]?.name ?? "item");
  const from = step.from && concrete(step.from);
  const elem = from?.kind === "list" ? concrete(from.elem).kind : undefined;
  const scalar = elem === "string" || elem === "int" || elem === "uint" || elem === "float" || elem === "bool";
  let hint = `to test the elements, use a collection expression`;
  let rewrite: Warning["rewrite"];
  if (scalar && match?.value && rest.length === 1 && (match.op === "==" || match.op === "!=")) {
    const replace = `${match.value.raw} ${match.op === "==" ? "in" : "not in"} ${list}`;
    hint = `the elements are ${elem === "string" ? "strings" : "numbers or bools"}: to test whether the list holds a value, write ${replace}`;
    rewrite = { title: `write ${replace}`, at: match.span, replace };
  } else if (match) {
    const body = matchText(match, segmentsText([{ kind: "name", name: variable, span: segment.span }, ...rest]));
    const collection = `any ${list} as ${variable} { ${body} }`;
    hint += `: ${collection}`;
    // A collection ends an or-chain: parenthesised unless it is the whole expression.
    const whole = source.slice(0, match.span.start).trim() === "" && source.slice(match.span.end).trim() === "";
    rewrite = { title: `test the elements: ${collection}`, at: match.span, replace: whole ? collection : `(${collection})` };
  }
  return {
    code: "list-by-name",
    summary: `${list} is a list, and ${JSON.stringify(segment.name)} is not an index: this step raises an error whenever the list is reached`,
    hint,
    span: stepSpan(segment, source),
    ...(rewrite ? { rewrite } : {}),
  };
}

/** A short bound name from a field name (`Regions` → `r`) that is not already bound. */
function freshName(scope: Scope, from: string): string {
  const base = /^[A-Za-z]/.test(from) ? from[0]!.toLowerCase() : "item";
  let name = base;
  for (let n = 2; lookup(scope, name); n++) name = `${base}${n}`;
  return name;
}
