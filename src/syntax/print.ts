/**
 * AST → canonical text: single spaces around operators, literals and quoted keys exactly as written,
 * parentheses only where the grammar needs them. `parse(print(ast))` equals `ast` up to spans, and
 * printing is idempotent.
 */
import type { Binding, Expr, Literal, MatchExpr, Selector } from "./ast.js";

/**
 * Prints an expression as canonical filter text. Works with an explicit stack, so no nesting depth
 * reaches the JavaScript stack.
 */
export function print(ast: Expr): string {
  let out = "";
  const work: (string | Expr)[] = [ast];
  while (work.length > 0) {
    const w = work.pop()!;
    if (typeof w === "string") {
      out += w;
      continue;
    }
    const pieces = parts(w);
    for (let i = pieces.length - 1; i >= 0; i--) work.push(pieces[i]!);
  }
  return out;
}

/** The text of `e` as literal pieces and sub-expressions still to print, in order. */
function parts(e: Expr): (string | Expr)[] {
  switch (e.kind) {
    case "match":
      return [printMatch(e)];
    case "not": {
      // A run of `not`s is printed in one go (runs may be 45,000 long).
      let prefix = "";
      let x: Expr = e;
      while (x.kind === "not") {
        prefix += "not ";
        x = x.operand;
      }
      return x.kind === "match" ? [prefix, x] : [`${prefix}(`, x, ")"];
    }
    case "and": {
      const out: (string | Expr)[] = [];
      e.operands.forEach((o, i) => {
        if (i > 0) out.push(" and ");
        if (o.kind === "match" || o.kind === "not") out.push(o);
        else out.push("(", o, ")");
      });
      return out;
    }
    case "or": {
      const out: (string | Expr)[] = [];
      e.operands.forEach((o, i) => {
        if (i > 0) out.push(" or ");
        const last = i === e.operands.length - 1;
        if (o.kind === "or" || (o.kind === "collection" && !last)) out.push("(", o, ")");
        else out.push(o);
      });
      return out;
    }
    case "collection":
      return [`${e.quantifier} ${selectorSource(e.selector)} as ${printBinding(e.binding)} { `, e.body, " }"];
  }
}

function printMatch(m: MatchExpr): string {
  const sel = selectorSource(m.selector);
  if (m.value === undefined) return `${sel} ${m.op}`;
  if (m.op === "in" || m.op === "not in") return `${printLiteral(m.value)} ${m.op} ${sel}`;
  return `${sel} ${m.op} ${printLiteral(m.value)}`;
}

function printLiteral(v: Literal): string {
  return v.raw;
}

/** The text of a collection's binding: `v`, `i, _`, `_, v` or `k, v`. */
export function printBinding(b: Binding): string {
  switch (b.mode) {
    case "default":
      return b.name;
    case "index":
      return `${b.index}, _`;
    case "value":
      return `_, ${b.value}`;
    case "index-value":
      return `${b.index}, ${b.value}`;
  }
}

/** The canonical source text of a selector. */
export function selectorSource(s: Selector): string {
  if (s.form === "pointer") return s.raw;
  let out = "";
  s.segments.forEach((seg, i) => {
    if (seg.kind === "key") out += `[${seg.raw}]`;
    else out += i === 0 ? seg.name : `.${seg.name}`;
  });
  return out;
}
