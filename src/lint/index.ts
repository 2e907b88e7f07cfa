/**
 * Warnings for the reference library's traps: valid expressions that probably do not mean what they
 * say. Built on the public AST; each rule is its own module.
 */
import type { Ast, Expr, Selector } from "../syntax/ast.js";
import { ANY, type Schema } from "../semantics/schema.js";
import { bind, lookup, resolve, type Scope } from "../semantics/path.js";
import { listByName } from "./list-by-name.js";
import { guardKey, missingKey, type Guards, type Parent } from "./missing-key.js";
import { pointerValue } from "./pointer-value.js";
import { unknownValue } from "./unknown-value.js";
import type { Warning } from "./warning.js";
import { wordIsSelector } from "./word-is-selector.js";

export type { Warning, WarningCode } from "./warning.js";

/** The warnings of `ast` (parsed from `source`), against `schema` or plain JSON, in source order. */
export function lint(ast: Ast, source: string, schema: Schema | undefined): Warning[] {
  const warnings: Warning[] = [];
  const add = (w: Warning | undefined) => {
    if (w) warnings.push(w);
  };
  const roots = selectorRoots(ast);
  const root = schema ?? ANY;
  const resolveIn = (sel: Selector, scope: Scope) => resolve(sel.segments.map((s) => s.name), root, scope);

  const visit = (e: Expr, scope: Scope, guards: Guards, parent: Parent): void => {
    switch (e.kind) {
      case "match": {
        if (e.value) {
          add(pointerValue(e.value));
          add(wordIsSelector(e.value, schema, scope, roots));
        }
        const r = resolveIn(e.selector, scope);
        add(listByName(e.selector, r, e, scope, source));
        add(missingKey(e.selector, r, e, source, guards, parent));
        add(unknownValue(e, r.type, (word) => !lookup(scope, word) && !(schema && Object.hasOwn(schema.fields, word))));
        return;
      }
      case "collection": {
        const r = resolveIn(e.selector, scope);
        add(listByName(e.selector, r, undefined, scope, source));
        add(missingKey(e.selector, r, e, source, guards, parent));
        visit(e.body, [...scope, ...bind(e.binding, e.selector, r.type)], guards, "body");
        return;
      }
      case "not": {
        // A run of nots is one step (runs may be 45,000 long: no recursion per not).
        let x: Expr = e;
        while (x.kind === "not") x = x.operand;
        visit(x, scope, guards, "not");
        return;
      }
      case "and":
      case "or": {
        const inForce = new Set(guards);
        for (const operand of e.operands) {
          visit(operand, scope, inForce, e.kind);
          const g = guardOf(operand, e.kind === "and");
          if (g !== undefined) inForce.add(g);
        }
        return;
      }
    }
  };
  visit(ast, [], new Set(), "top");
  return warnings.sort((a, b) => a.span.start - b.span.start);
}

/**
 * The key an operand proves present for the operands after it: in an `and`, `"k" in S` (or
 * `S contains k`); in an `or`, `"k" not in S` (or `S not contains k`).
 */
function guardOf(e: Expr, positive: boolean): string | undefined {
  if (e.kind !== "match" || e.value === undefined) return undefined;
  const ops = positive ? ["in", "contains"] : ["not in", "not contains"];
  if (!ops.includes(e.op)) return undefined;
  return guardKey(e.selector.segments.map((s) => s.name), e.value.text);
}

/** First names of the path selectors of an expression. */
function selectorRoots(ast: Ast): Set<string> {
  const roots = new Set<string>();
  const add = (s: Selector) => {
    if (s.form === "path" && s.segments[0]) roots.add(s.segments[0].name);
  };
  const visit = (e: Expr): void => {
    switch (e.kind) {
      case "match":
        return add(e.selector);
      case "collection":
        add(e.selector);
        return visit(e.body);
      case "not": {
        let x: Expr = e;
        while (x.kind === "not") x = x.operand;
        return visit(x);
      }
      case "and":
      case "or":
        e.operands.forEach(visit);
    }
  };
  visit(ast);
  return roots;
}
