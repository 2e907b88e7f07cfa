/**
 * `--explain`: the syntax tree (what was parsed, with the literal texts the reference compares with)
 * and the optimized plan (negations pushed down to the matches, runs of operands that cannot fail
 * sorted cheapest first, with costs), drawn as trees.
 */
import { lineColumn, printBinding, type Ast, type Expr, type Literal, type PlanNode, type Selector } from "../index.js";
import { selectorText } from "../lint/text.js";
import type { Style } from "./style.js";

/** A node of a drawn tree. */
interface TreeNode {
  readonly label: string;
  readonly children: readonly TreeNode[];
}

/** Draws a tree with box-drawing branches, one node a line. */
export function drawTree(root: TreeNode, indent = "", style?: Style): string {
  const lines: string[] = [];
  const dim = style?.dim ?? ((s: string) => s);
  const walk = (node: TreeNode, prefix: string, branch: string) => {
    lines.push(`${indent}${dim(prefix + branch)}${node.label}`);
    const childPrefix = prefix + (branch === "├─ " ? "│  " : branch === "└─ " ? "   " : "");
    node.children.forEach((c, i) => walk(c, childPrefix, i === node.children.length - 1 ? "└─ " : "├─ "));
  };
  walk(root, "", "");
  return lines.join("\n");
}

/** The syntax tree of `ast` as a drawable tree. */
export function astTree(ast: Ast, source: string): TreeNode {
  const at = (start: number) => {
    const { line, column } = lineColumn(source, start);
    return `@${line}:${column}`;
  };
  const node = (e: Expr): TreeNode => {
    switch (e.kind) {
      case "and":
      case "or":
        return { label: `${e.kind}  ${at(e.span.start)}`, children: e.operands.map(node) };
      case "not": {
        // A run of nots is one node (runs may be 45,000 long).
        let x: Expr = e;
        let n = 0;
        for (; x.kind === "not"; x = x.operand) n++;
        return { label: `${n === 1 ? "not" : `not ×${n}`}  ${at(e.span.start)}`, children: [node(x)] };
      }
      case "match":
        return {
          label: `match ${e.op}  ${at(e.span.start)}`,
          children: [selectorNode(e.selector), ...(e.value ? [literalNode(e.value)] : [])],
        };
      case "collection":
        return {
          label: `${e.quantifier} as ${printBinding(e.binding)}  ${at(e.span.start)}`,
          children: [selectorNode(e.selector), { label: "body", children: [node(e.body)] }],
        };
    }
  };
  return node(ast);
}

function selectorNode(s: Selector): TreeNode {
  const steps = s.segments.map((seg) => (seg.kind === "index" ? `[${seg.name}]` : JSON.stringify(seg.name))).join(" → ");
  const text = s.form === "pointer" ? `JSON Pointer ${s.raw}` : `selector ${selectorText(s)}`;
  return { label: `${text}  steps ${steps}`, children: [] };
}

function literalNode(v: Literal): TreeNode {
  const kinds: Record<Literal["type"], string> = {
    number: "number",
    string: "string",
    pointer: "JSON-Pointer-shaped string, leading slash dropped",
    word: "bare word, taken as text",
  };
  return { label: `value ${v.raw} → text ${JSON.stringify(v.text)} (${kinds[v.type]})`, children: [] };
}


/** The plan as a drawable tree. */
export function planTree(plan: PlanNode): TreeNode {
  const label = `${plan.label}  (cost ${plan.cost}${plan.infallible && plan.children.length > 0 ? ", cannot fail" : ""}${plan.metered && plan.children.length === 0 ? ", metered" : ""})`;
  return { label, children: plan.children.map(planTree) };
}

/** The text of `--explain` for one expression. */
export function explainText(ast: Ast, source: string, plan: PlanNode | undefined, style: Style): string {
  const parts = [`  ${style.bold("syntax tree:")}`, drawTree(astTree(ast, source), "    ", style)];
  if (plan) {
    parts.push(`  ${style.bold("plan")} ${style.dim("(evaluation order: negations pushed down to the matches; operands that cannot fail sorted cheapest first, the others and regular expressions (metered: charged by the text's length) keep their place):")}`);
    parts.push(drawTree(planTree(plan), "    ", style));
  }
  return parts.join("\n");
}
