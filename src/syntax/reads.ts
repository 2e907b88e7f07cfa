/**
 * What an expression reads: the names an `any`/`all` binds, and the selectors read from the datum
 * (every selector but those that start with a bound name).
 */
import type { Binding, CollectionExpr, Expr, MatchExpr, Selector } from "./ast.js";

/** The names a binding introduces, with what each stands for. */
export function boundNames(b: Binding): { name: string; role: "default" | "index" | "value" }[] {
  switch (b.mode) {
    case "default":
      return [{ name: b.name, role: "default" }];
    case "index":
      return [{ name: b.index, role: "index" }];
    case "value":
      return [{ name: b.value, role: "value" }];
    case "index-value":
      return [
        { name: b.index, role: "index" },
        { name: b.value, role: "value" },
      ];
  }
}

/** A selector read from the datum, and the match or `any`/`all` that reads it. */
export interface SelectorRead {
  readonly selector: Selector;
  readonly owner: MatchExpr | CollectionExpr;
}

/**
 * The selectors `ast` reads from the datum, in the order they are written: those of matches and of
 * `any`/`all` expressions, but not those that start with a name an enclosing `any`/`all` binds (the
 * reference looks a bound name up by the first step of any selector). Walked without recursion.
 */
export function selectorsRead(ast: Expr): SelectorRead[] {
  const out: SelectorRead[] = [];
  const stack: { e: Expr; bound: ReadonlySet<string> }[] = [{ e: ast, bound: new Set() }];
  while (stack.length > 0) {
    const { e, bound } = stack.pop()!;
    if (e.kind === "not") stack.push({ e: e.operand, bound });
    else if (e.kind === "and" || e.kind === "or") for (let i = e.operands.length - 1; i >= 0; i--) stack.push({ e: e.operands[i]!, bound });
    else {
      const first = e.selector.segments[0]?.name;
      if (first === undefined || !bound.has(first)) out.push({ selector: e.selector, owner: e });
      if (e.kind === "collection") stack.push({ e: e.body, bound: new Set([...bound, ...boundNames(e.binding).map((n) => n.name)]) });
    }
  }
  return out;
}
