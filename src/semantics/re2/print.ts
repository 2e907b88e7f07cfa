/**
 * A parse tree written back as a pattern for re2js that means the same language with nothing left
 * for re2js to decide: classes as explicit code point ranges (Go's Unicode tables already applied),
 * case folding expanded with Go's orbits, no flags, no names, no Unicode class names. Only whether a
 * string matches is asked of it, so captures print as plain groups and laziness is dropped.
 */
import { MAX_RUNE, simpleFold } from "../../unicode/tables.js";
import { Flag, Op, type Node } from "./parse.js";

function rune(r: number): string {
  const alnum = (r >= 0x30 && r <= 0x39) || (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a);
  return alnum ? String.fromCharCode(r) : `\\x{${r.toString(16)}}`;
}

const NOTHING = `[^\\x{0}-\\x{${MAX_RUNE.toString(16)}}]`;

function ranges(rs: readonly number[]): string {
  if (rs.length === 0) return NOTHING;
  let out = "[";
  for (let i = 0; i < rs.length; i += 2) out += rs[i] === rs[i + 1] ? rune(rs[i]!) : `${rune(rs[i]!)}-${rune(rs[i + 1]!)}`;
  return `${out}]`;
}

/** A rune matched case-insensitively: its whole orbit. */
function folded(r: number): string {
  const orbit = [r];
  for (let f = simpleFold(r); f !== r; f = simpleFold(f)) orbit.push(f);
  if (orbit.length === 1) return rune(r);
  orbit.sort((a, b) => a - b);
  return `[${orbit.map(rune).join("")}]`;
}

function group(n: Node): string {
  return `(?:${print(n)})`;
}

/** The pattern of a parse tree, for re2js. */
export function print(n: Node): string {
  switch (n.op) {
    case Op.NoMatch:
      return NOTHING;
    case Op.EmptyMatch:
      return "(?:)";
    case Op.Literal:
      return n.flags & Flag.FoldCase ? n.rune.map(folded).join("") : n.rune.map(rune).join("");
    case Op.CharClass:
      return ranges(n.rune);
    case Op.AnyCharNotNL:
      return ranges([0, 0x09, 0x0b, MAX_RUNE]);
    case Op.AnyChar:
      return ranges([0, MAX_RUNE]);
    case Op.BeginLine:
      return "(?m:^)";
    case Op.EndLine:
      return "(?m:$)";
    case Op.BeginText:
      return "\\A";
    case Op.EndText:
      return "\\z";
    case Op.WordBoundary:
      return "\\b";
    case Op.NoWordBoundary:
      return "\\B";
    case Op.Capture:
      return group(n.sub[0]!);
    case Op.Star:
      return `${group(n.sub[0]!)}*`;
    case Op.Plus:
      return `${group(n.sub[0]!)}+`;
    case Op.Quest:
      return `${group(n.sub[0]!)}?`;
    case Op.Repeat:
      return `${group(n.sub[0]!)}{${n.min}${n.max === n.min ? "" : n.max === -1 ? "," : `,${n.max}`}}`;
    case Op.Concat:
      return n.sub.map((s) => (s.op === Op.Alternate ? group(s) : print(s))).join("");
    case Op.Alternate:
      return n.sub.map(print).join("|");
  }
  throw new Error(`unexpected regexp node ${n.op}`);
}
