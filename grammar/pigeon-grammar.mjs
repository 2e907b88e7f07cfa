// Transcribes the grammar table (`var g = &grammar{...}`) of go-bexpr v0.1.16's pigeon-generated
// grammar/grammar.go into src/syntax/reference-grammar.ts, for the parse-budget counter.
// Usage: node grammar/pigeon-grammar.mjs path/to/grammar.go > src/syntax/reference-grammar.ts
import { readFileSync } from "node:fs";

const src = readFileSync(process.argv[2], "utf8");
const start = src.indexOf("var g = &grammar{");
let i = start + "var g = ".length;

function ws() { while (/\s|,/.test(src[i])) i++; }
function expect(s) { ws(); if (!src.startsWith(s, i)) throw new Error(`expected ${s} at ${src.slice(i, i + 40)}`); i += s.length; }
function ident() { ws(); const m = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(src.slice(i, i + 200)); i += m[0].length; return m[0]; }
function goString() { ws(); const m = /^"(?:[^"\\]|\\.)*"/.exec(src.slice(i)); i += m[0].length; return JSON.parse(m[0]); }
function goRune() {
  ws(); const m = /^'(?:[^'\\]|\\.)*'/.exec(src.slice(i)); i += m[0].length;
  const body = m[0].slice(1, -1);
  return JSON.parse(`"${body.replace(/^\\'/, "'")}"`);
}
// Reads a value: composite literal, string, rune, bool, number, func reference or call.
function value() {
  ws();
  const c = src[i];
  if (c === '"') return goString();
  if (c === "'") return goRune();
  if (c === "&") { i++; const type = ident(); return composite(type); }
  if (c === "{") return composite("");
  if (src.startsWith("[]", i)) {
    i += 2; if (src[i] === "*") i++;
    ident(); expect("{"); const items = [];
    for (;;) { ws(); if (src[i] === "}") { i++; return items; } items.push(value()); }
  }
  if (src.startsWith("(*parser).", i)) { i += "(*parser).".length; return { fn: ident() }; }
  if (/[0-9]/.test(c)) { const m = /^[0-9]+/.exec(src.slice(i)); i += m[0].length; return Number(m[0]); }
  const id = ident();
  if (id === "true") return true;
  if (id === "false") return false;
  if (src[i] === "(") { i++; const arg = value(); expect(")"); return { call: id, arg }; }
  if (src[i] === "{") return composite(id);
  return { ident: id };
}
function composite(type) {
  expect("{"); const o = { type };
  for (;;) {
    ws(); if (src[i] === "}") { i++; return o; }
    if (src[i] === "{") { (o.items ??= []).push(composite("")); continue; }
    const key = ident(); expect(":"); o[key] = value();
  }
}
const g = value();

const TYPES = { actionExpr: "action", andCodeExpr: "andCode", andExpr: "and", anyMatcher: "any", charClassMatcher: "class", choiceExpr: "choice", labeledExpr: "labeled", litMatcher: "lit", notExpr: "not", oneOrMoreExpr: "oneOrMore", ruleRefExpr: "ref", seqExpr: "seq", zeroOrMoreExpr: "zeroOrMore", zeroOrOneExpr: "zeroOrOne" };
function conv(e) {
  const t = TYPES[e.type];
  if (!t) throw new Error(`unknown node ${e.type}`);
  switch (t) {
    case "action": case "and": case "not": case "oneOrMore": case "zeroOrMore": case "zeroOrOne": case "labeled":
      return { t, e: conv(e.expr) };
    case "choice": return { t, alts: e.alternatives.map(conv) };
    case "seq": return { t, exprs: e.exprs.map(conv) };
    case "ref": return { t, name: e.name };
    case "lit": if (e.ignoreCase) throw new Error("ignoreCase"); return { t, val: e.val };
    case "any": return { t };
    case "andCode": return { t, run: e.run.fn };
    case "class": {
      if (e.ignoreCase || e.inverted) throw new Error("class flags");
      return { t, val: e.val, chars: (e.chars ?? []).join(""), ranges: (e.ranges ?? []).join(""), classes: (e.classes ?? []).map((c) => c.arg) };
    }
  }
}
const rules = g.rules.map((r) => ({ name: r.name, display: r.displayName ? JSON.parse(r.displayName) : "", expr: conv(r.expr) }));
process.stdout.write(`/**
 * The grammar table of go-bexpr v0.1.16's generated parser (grammar/grammar.go, \`var g\`), transcribed
 * by grammar/pigeon-grammar.mjs: every node of the table, in order, so that the budget counter
 * (budget.ts) visits exactly the nodes the reference's \`parseExpr\` visits. Generated: do not edit.
 */
import type { PegRule } from "./peg.js";

export const REFERENCE_RULES: readonly PegRule[] = ${JSON.stringify(rules)};
`);
