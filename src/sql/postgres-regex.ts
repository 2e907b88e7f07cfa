/**
 * An RE2 pattern as a PostgreSQL regular expression (an ARE, PostgreSQL's `~`) that decides the same
 * strings, when one can be written; otherwise undefined (the translation then narrows by a literal
 * prefix and the compiled filter decides).
 *
 * The pattern is read by Go's parser (`semantics/re2/parse.ts`), so what it means is settled before a
 * line of PostgreSQL syntax is written: classes (`\d`, `[[:alpha:]]`, `\pL`, negations) arrive as
 * explicit code point ranges and case folding (`(?i)`) as Go's fold orbits. Nothing is left to the
 * engine's locale: every rune is written as an escape (`\u00e9`) or an ASCII letter or digit, `.` as
 * `[^\n]`, `^`/`$` (no `(?m)`) as `\A`/`\Z`, `\b` by lookarounds over Go's ASCII word characters.
 * `matches` asks only whether some substring matches, so leftmost-first (RE2) and leftmost-longest
 * (PostgreSQL) agree, and captures and laziness are dropped.
 *
 * Left untranslated: multi-line anchors (`(?m)`), patterns that match nothing, repeat counts above
 * PostgreSQL's 255, and patterns whose expansion would be large (`WEIGHT_LIMIT`), which PostgreSQL may
 * refuse as "too complex". PostgreSQL text holds no U+0000 and no surrogate, so those runes are left
 * out of classes, and a pattern with one as a literal is left untranslated. The law
 * (`test/sql/regex.property.test.ts`): for random patterns and strings, re2js and PostgreSQL answer
 * alike.
 */
import { Flag, Op, parseRegex, RegexSyntaxError, type Node } from "../semantics/re2/parse.js";
import { simpleFold } from "../unicode/tables.js";

/** PostgreSQL's largest repeat count (`DUPMAX`). */
const DUPMAX = 255;
/** The most runes and operators the written pattern may stand for once its repeats are expanded. */
const WEIGHT_LIMIT = 20_000;

class Untranslatable extends Error {}

const MAX_RUNE = 0x10ffff;
/** Go's ASCII word characters (`\b`). */
const WORD = "[0-9A-Za-z_]";

function rune(r: number): string {
  const alnum = (r >= 0x30 && r <= 0x39) || (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a);
  if (alnum) return String.fromCharCode(r);
  return r <= 0xffff ? `\\u${r.toString(16).padStart(4, "0")}` : `\\U${r.toString(16).padStart(8, "0")}`;
}

/** Code point ranges as a bracket expression, without the runes PostgreSQL text cannot hold. */
function ranges(rs: readonly number[]): string {
  const parts: string[] = [];
  const add = (lo: number, hi: number) => {
    if (lo > hi) return;
    parts.push(lo === hi ? rune(lo) : `${rune(lo)}-${rune(hi)}`);
  };
  for (let i = 0; i < rs.length; i += 2) {
    let lo = Math.max(rs[i]!, 1);
    const hi = Math.min(rs[i + 1]!, MAX_RUNE);
    // Around the surrogates.
    if (lo <= 0xdfff && hi >= 0xd800) {
      add(lo, 0xd7ff);
      lo = 0xe000;
    }
    add(lo, hi);
  }
  if (parts.length === 0) throw new Untranslatable("a class of runes no text holds");
  return `[${parts.join("")}]`;
}

function literal(r: number, fold: boolean): string {
  if (r === 0 || (r >= 0xd800 && r <= 0xdfff)) throw new Untranslatable("a rune no text holds");
  if (!fold) return rune(r);
  const orbit = [r];
  for (let f = simpleFold(r); f !== r; f = simpleFold(f)) orbit.push(f);
  if (orbit.length === 1) return rune(r);
  orbit.sort((a, b) => a - b);
  return `[${orbit.map(rune).join("")}]`;
}

const group = (s: string): string => `(?:${s})`;

/** The pattern and the weight of what it stands for (repeats expanded). */
function write(n: Node): { s: string; w: number } {
  switch (n.op) {
    case Op.EmptyMatch:
      return { s: "(?:)", w: 1 };
    case Op.Literal: {
      const fold = (n.flags & Flag.FoldCase) !== 0;
      return { s: n.rune.map((r) => literal(r, fold)).join(""), w: n.rune.length };
    }
    case Op.CharClass:
      return { s: ranges(n.rune), w: 1 };
    case Op.AnyCharNotNL:
      return { s: "[^\\n]", w: 1 };
    case Op.AnyChar:
      return { s: "(?:.|\\n)", w: 1 };
    case Op.BeginText:
      return { s: "\\A", w: 1 };
    case Op.EndText:
      return { s: "\\Z", w: 1 };
    case Op.WordBoundary:
      return { s: `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`, w: 4 };
    case Op.NoWordBoundary:
      return { s: `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`, w: 4 };
    case Op.Capture:
      return write(n.sub[0]!);
    case Op.Star:
    case Op.Plus:
    case Op.Quest: {
      const sub = write(n.sub[0]!);
      return { s: `${group(sub.s)}${n.op === Op.Star ? "*" : n.op === Op.Plus ? "+" : "?"}`, w: sub.w + 1 };
    }
    case Op.Repeat: {
      if (n.min > DUPMAX || n.max > DUPMAX) throw new Untranslatable("a repeat count beyond PostgreSQL's 255");
      const sub = write(n.sub[0]!);
      const count = n.max === n.min ? `${n.min}` : n.max === -1 ? `${n.min},` : `${n.min},${n.max}`;
      return { s: `${group(sub.s)}{${count}}`, w: sub.w * Math.max(n.min, n.max, 1) + 1 };
    }
    case Op.Concat:
    case Op.Alternate: {
      let w = 0;
      const parts = n.sub.map((x) => {
        const p = write(x);
        w += p.w;
        if (w > WEIGHT_LIMIT) throw new Untranslatable("too large");
        return n.op === Op.Concat && x.op === Op.Alternate ? group(p.s) : p.s;
      });
      return { s: n.op === Op.Concat ? parts.join("") : group(parts.join("|")), w };
    }
    default:
      // NoMatch, BeginLine, EndLine: no row to gain, or a reading PostgreSQL writes otherwise.
      throw new Untranslatable("not written");
  }
}

/** The PostgreSQL ARE deciding the strings the RE2 pattern `source` matches (anywhere), or undefined. */
export function postgresRegex(source: string): string | undefined {
  try {
    const w = write(parseRegex(source));
    return w.w > WEIGHT_LIMIT ? undefined : w.s;
  } catch (e) {
    // An invalid pattern fails in the filter; one outside the subset is narrowed otherwise.
    if (e instanceof Untranslatable || e instanceof RegexSyntaxError) return undefined;
    throw e;
  }
}
