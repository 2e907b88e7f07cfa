/**
 * AST → canonical text: single spaces around operators, literals and quoted keys exactly as written,
 * parentheses only where the grammar needs them. `parse(print(ast))` equals `ast` up to spans, and
 * printing is idempotent.
 */
import type { Binding, Expr, Literal, MatchExpr } from "./ast.js";
import { selectorSource } from "./parser.js";

/** Prints an expression as canonical filter text. */
export function print(ast: Expr): string {
  return printExpr(ast);
}

function printExpr(e: Expr): string {
  switch (e.kind) {
    case "match":
      return printMatch(e);
    case "not": {
      // A run of `not`s is printed in one go (runs may be 45,000 long).
      let prefix = "";
      let x: Expr = e;
      while (x.kind === "not") {
        prefix += "not ";
        x = x.operand;
      }
      return `${prefix}${x.kind === "match" ? printExpr(x) : `(${printExpr(x)})`}`;
    }
    case "and":
      return e.operands.map((o) => (o.kind === "match" || o.kind === "not" ? printExpr(o) : `(${printExpr(o)})`)).join(" and ");
    case "or":
      return e.operands
        .map((o, i) => {
          const last = i === e.operands.length - 1;
          return o.kind === "or" || (o.kind === "collection" && !last) ? `(${printExpr(o)})` : printExpr(o);
        })
        .join(" or ");
    case "collection":
      return `${e.quantifier} ${selectorSource(e.selector)} as ${printBinding(e.binding)} { ${printExpr(e.body)} }`;
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
