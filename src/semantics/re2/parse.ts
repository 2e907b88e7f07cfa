/**
 * Go's `regexp/syntax.Parse` with the flags of `regexp.Compile` (Perl), ported step for step from
 * Go 1.23 (src/regexp/syntax/parse.go): the same accepted syntax, the same errors, the same limits.
 * The limits (nesting depth 1,000, compiled size 3.3 M instructions, repeat counts) depend on the
 * parse tree's shape and on how many nodes the parser allocated, so the tree is built as Go builds it:
 * literal runs concatenated, alternations factored, freed nodes reused. What it yields is the tree's
 * language; `print.ts` writes it for re2js without flags, names or Unicode class names.
 */
import { MAX_RUNE, simpleFold, MIN_FOLD, MAX_FOLD, unicodeGroup } from "../../unicode/tables.js";
import {
  appendClass,
  appendFoldedClass,
  appendFoldedRange,
  appendLiteral,
  appendNegatedClass,
  appendRange,
  cleanClass,
  negateClass,
  PERL_GROUPS,
  POSIX_GROUPS,
  type CharGroup,
  type Runes,
} from "./classes.js";

/** The operators of a parse tree (Go's `syntax.Op`, same numbers: the parser compares them). */
export const Op = {
  NoMatch: 1,
  EmptyMatch: 2,
  Literal: 3,
  CharClass: 4,
  AnyCharNotNL: 5,
  AnyChar: 6,
  BeginLine: 7,
  EndLine: 8,
  BeginText: 9,
  EndText: 10,
  WordBoundary: 11,
  NoWordBoundary: 12,
  Capture: 13,
  Star: 14,
  Plus: 15,
  Quest: 16,
  Repeat: 17,
  Concat: 18,
  Alternate: 19,
} as const;
export type Op = (typeof Op)[keyof typeof Op];

const OP_PSEUDO = 128;
const OP_LEFT_PAREN = 128;
const OP_VERTICAL_BAR = 129;

/** Parse flags (Go's `syntax.Flags`). */
export const Flag = {
  FoldCase: 1,
  Literal: 2,
  ClassNL: 4,
  DotNL: 8,
  OneLine: 16,
  NonGreedy: 32,
  PerlX: 64,
  UnicodeGroups: 128,
  WasDollar: 256,
} as const;
const PERL = Flag.ClassNL | Flag.OneLine | Flag.PerlX | Flag.UnicodeGroups;

/** A node of the parse tree (Go's `syntax.Regexp`). */
export interface Node {
  op: number;
  flags: number;
  sub: Node[];
  rune: number[];
  min: number;
  max: number;
  cap: number;
  name: string;
}

/** Go's error codes, worded as Go words them. */
export const ErrorCode = {
  InvalidCharClass: "invalid character class",
  InvalidCharRange: "invalid character class range",
  InvalidEscape: "invalid escape sequence",
  InvalidNamedCapture: "invalid named capture",
  InvalidPerlOp: "invalid or unsupported Perl syntax",
  InvalidRepeatOp: "invalid nested repetition operator",
  InvalidRepeatSize: "invalid repeat count",
  InvalidUTF8: "invalid UTF-8",
  MissingBracket: "missing closing ]",
  MissingParen: "missing closing )",
  MissingRepeatArgument: "missing argument to repetition operator",
  TrailingBackslash: "trailing backslash at end of expression",
  UnexpectedParen: "unexpected )",
  NestingDepth: "expression nests too deeply",
  Large: "expression too large",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A pattern Go's regexp refuses: its code and the part of the pattern it names. */
export class RegexSyntaxError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly expr: string,
  ) {
    super(`${code}: \`${expr}\``);
    this.name = "RegexSyntaxError";
  }
}

const MAX_HEIGHT = 1000;
const MAX_SIZE = Math.floor((128 << 20) / 40);
const MAX_RUNES = Math.floor((128 << 20) / 4);

/** Thrown inside the parser for the two limits Go reports with `panic` (the whole pattern is named). */
class Limit {
  constructor(readonly code: ErrorCode) {}
}

function isalnum(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function unhex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

function minFoldRune(r: number): number {
  if (r < MIN_FOLD || r > MAX_FOLD) return r;
  let m = r;
  for (let f = simpleFold(r); f !== r; f = simpleFold(f)) m = Math.min(m, f);
  return m;
}

function isCharClass(re: Node): boolean {
  return (re.op === Op.Literal && re.rune.length === 1) || re.op === Op.CharClass || re.op === Op.AnyCharNotNL || re.op === Op.AnyChar;
}

function matchRune(re: Node, r: number): boolean {
  switch (re.op) {
    case Op.Literal:
      return re.rune.length === 1 && re.rune[0] === r;
    case Op.CharClass:
      for (let i = 0; i < re.rune.length; i += 2) if (re.rune[i]! <= r && r <= re.rune[i + 1]!) return true;
      return false;
    case Op.AnyCharNotNL:
      return r !== 0x0a;
    case Op.AnyChar:
      return true;
  }
  return false;
}

/** Go's `Regexp.Equal`. */
function equal(x: Node, y: Node): boolean {
  if (x.op !== y.op) return false;
  switch (x.op) {
    case Op.EndText:
      return (x.flags & Flag.WasDollar) === (y.flags & Flag.WasDollar);
    case Op.Literal:
    case Op.CharClass:
      return x.rune.length === y.rune.length && x.rune.every((r, i) => r === y.rune[i]);
    case Op.Alternate:
    case Op.Concat:
      return x.sub.length === y.sub.length && x.sub.every((s, i) => equal(s, y.sub[i]!));
    case Op.Star:
    case Op.Plus:
    case Op.Quest:
      return (x.flags & Flag.NonGreedy) === (y.flags & Flag.NonGreedy) && equal(x.sub[0]!, y.sub[0]!);
    case Op.Repeat:
      return (x.flags & Flag.NonGreedy) === (y.flags & Flag.NonGreedy) && x.min === y.min && x.max === y.max && equal(x.sub[0]!, y.sub[0]!);
    case Op.Capture:
      return x.cap === y.cap && x.name === y.name && equal(x.sub[0]!, y.sub[0]!);
  }
  return true;
}

function mergeCharClass(dst: Node, src: Node): void {
  switch (dst.op) {
    case Op.AnyChar:
      break;
    case Op.AnyCharNotNL:
      if (matchRune(src, 0x0a)) dst.op = Op.AnyChar;
      break;
    case Op.CharClass:
      if (src.op === Op.Literal) appendLiteral(dst.rune, src.rune[0]!, (src.flags & Flag.FoldCase) !== 0);
      else appendClass(dst.rune, src.rune);
      break;
    case Op.Literal: {
      if (src.rune[0] === dst.rune[0] && src.flags === dst.flags) break;
      const first = dst.rune[0]!;
      dst.op = Op.CharClass;
      dst.rune = appendLiteral([], first, (dst.flags & Flag.FoldCase) !== 0);
      appendLiteral(dst.rune, src.rune[0]!, (src.flags & Flag.FoldCase) !== 0);
      break;
    }
  }
}

function cleanAlt(re: Node): void {
  if (re.op !== Op.CharClass) return;
  cleanClass(re.rune);
  if (re.rune.length === 2 && re.rune[0] === 0 && re.rune[1] === MAX_RUNE) {
    re.rune = [];
    re.op = Op.AnyChar;
  } else if (re.rune.length === 4 && re.rune[0] === 0 && re.rune[1] === 0x09 && re.rune[2] === 0x0b && re.rune[3] === MAX_RUNE) {
    re.rune = [];
    re.op = Op.AnyCharNotNL;
  }
}

/**
 * The compiled size of a node in instructions, as Go's parser estimates it (`calcSize`), given the
 * size of each subexpression.
 */
function sizeOf(re: Node, sub: (n: Node) => number): number {
  let size = 0;
  switch (re.op) {
    case Op.Literal:
      size = re.rune.length;
      break;
    case Op.Capture:
    case Op.Star:
      size = 2 + sub(re.sub[0]!);
      break;
    case Op.Plus:
    case Op.Quest:
      size = 1 + sub(re.sub[0]!);
      break;
    case Op.Concat:
      for (const s of re.sub) size += sub(s);
      break;
    case Op.Alternate:
      for (const s of re.sub) size += sub(s);
      if (re.sub.length > 1) size += re.sub.length - 1;
      break;
    case Op.Repeat: {
      const inner = sub(re.sub[0]!);
      if (re.max === -1) size = re.min === 0 ? 2 + inner : 1 + re.min * inner;
      else size = re.max * inner + (re.max - re.min);
      break;
    }
  }
  return Math.max(1, size);
}

/** The compiled size of a parse tree in instructions (what a test costs per character of the text, at most). */
export function programSize(tree: Node): number {
  return sizeOf(tree, programSize);
}

/** A node's size or height as `memo` holds it, worked out (and kept) when absent or `force`d. */
function remembered(memo: Map<Node, number>, re: Node, force: boolean, work: () => number): number {
  if (!force) {
    const known = memo.get(re);
    if (known !== undefined) return known;
  }
  const v = work();
  memo.set(re, v);
  return v;
}

function repeatIsValid(re: Node, n: number): boolean {
  if (re.op === Op.Repeat) {
    let m = re.max;
    if (m === 0) return true;
    if (m < 0) m = re.min;
    if (m > n) return false;
    if (m > 0) n = Math.trunc(n / m);
  }
  return re.sub.every((s) => repeatIsValid(s, n));
}

class Parser {
  flags = PERL;
  stack: Node[] = [];
  private free: Node[] = [];
  numCap = 0;
  private numRegexp = 0;
  private numRunes = 0;
  private repeats = 0;
  private height: Map<Node, number> | undefined;
  private size: Map<Node, number> | undefined;

  constructor(readonly whole: string) {}

  newRegexp(op: number): Node {
    const re = this.free.pop();
    if (re !== undefined) {
      re.op = op;
      re.flags = 0;
      re.sub = [];
      re.rune = [];
      re.min = re.max = re.cap = 0;
      re.name = "";
      return re;
    }
    this.numRegexp++;
    return { op, flags: 0, sub: [], rune: [], min: 0, max: 0, cap: 0, name: "" };
  }

  reuse(re: Node): void {
    this.height?.delete(re);
    this.free.push(re);
  }

  private checkLimits(re: Node): void {
    if (this.numRunes > MAX_RUNES) throw new Limit(ErrorCode.Large);
    this.checkSize(re);
    this.checkHeight(re);
  }

  private checkSize(re: Node): void {
    if (this.size === undefined) {
      if (this.repeats === 0) this.repeats = 1;
      if (re.op === Op.Repeat) {
        let n = re.max;
        if (n === -1) n = re.min;
        if (n <= 0) n = 1;
        if (n > Math.trunc(MAX_SIZE / this.repeats)) this.repeats = MAX_SIZE;
        else this.repeats *= n;
      }
      if (this.numRegexp < Math.trunc(MAX_SIZE / this.repeats)) return;
      this.size = new Map();
      for (const s of this.stack) this.checkSize(s);
    }
    if (this.calcSize(re, true) > MAX_SIZE) throw new Limit(ErrorCode.Large);
  }

  private calcSize(re: Node, force: boolean): number {
    return remembered(this.size!, re, force, () => sizeOf(re, (sub) => this.calcSize(sub, false)));
  }

  private checkHeight(re: Node): void {
    if (this.numRegexp < MAX_HEIGHT) return;
    if (this.height === undefined) {
      this.height = new Map();
      for (const s of this.stack) this.checkHeight(s);
    }
    if (this.calcHeight(re, true) > MAX_HEIGHT) throw new Limit(ErrorCode.NestingDepth);
  }

  private calcHeight(re: Node, force: boolean): number {
    return remembered(this.height!, re, force, () => {
      let h = 1;
      for (const s of re.sub) h = Math.max(h, 1 + this.calcHeight(s, false));
      return h;
    });
  }

  push(re: Node): Node | undefined {
    this.numRunes += re.rune.length;
    const r = re.rune;
    if (re.op === Op.CharClass && r.length === 2 && r[0] === r[1]) {
      if (this.maybeConcat(r[0]!, this.flags & ~Flag.FoldCase)) return undefined;
      re.op = Op.Literal;
      re.rune = [r[0]!];
      re.flags = this.flags & ~Flag.FoldCase;
    } else if (
      (re.op === Op.CharClass && r.length === 4 && r[0] === r[1] && r[2] === r[3] && simpleFold(r[0]!) === r[2] && simpleFold(r[2]!) === r[0]) ||
      (re.op === Op.CharClass && r.length === 2 && r[0]! + 1 === r[1] && simpleFold(r[0]!) === r[1] && simpleFold(r[1]!) === r[0])
    ) {
      if (this.maybeConcat(r[0]!, this.flags | Flag.FoldCase)) return undefined;
      re.op = Op.Literal;
      re.rune = [r[0]!];
      re.flags = this.flags | Flag.FoldCase;
    } else {
      this.maybeConcat(-1, 0);
    }
    this.stack.push(re);
    this.checkLimits(re);
    return re;
  }

  maybeConcat(r: number, flags: number): boolean {
    const n = this.stack.length;
    if (n < 2) return false;
    const re1 = this.stack[n - 1]!;
    const re2 = this.stack[n - 2]!;
    if (re1.op !== Op.Literal || re2.op !== Op.Literal || (re1.flags & Flag.FoldCase) !== (re2.flags & Flag.FoldCase)) return false;
    for (const x of re1.rune) re2.rune.push(x);
    if (r >= 0) {
      re1.rune = [r];
      re1.flags = flags;
      return true;
    }
    this.stack.pop();
    this.reuse(re1);
    return false;
  }

  literal(r: number): void {
    const re = this.newRegexp(Op.Literal);
    re.flags = this.flags;
    if (this.flags & Flag.FoldCase) r = minFoldRune(r);
    re.rune = [r];
    this.push(re);
  }

  op(op: number): Node | undefined {
    const re = this.newRegexp(op);
    re.flags = this.flags;
    return this.push(re);
  }

  /** `before`/`after`: offsets of the operator and of what follows it; `lastRepeat`: offset of the previous operator or -1. */
  repeat(op: number, min: number, max: number, before: number, after: number, lastRepeat: number): number {
    let flags = this.flags;
    if (this.flags & Flag.PerlX) {
      if (this.whole[after] === "?") {
        after++;
        flags ^= Flag.NonGreedy;
      }
      if (lastRepeat >= 0) throw new RegexSyntaxError(ErrorCode.InvalidRepeatOp, this.whole.slice(lastRepeat, after));
    }
    const n = this.stack.length;
    if (n === 0 || this.stack[n - 1]!.op >= OP_PSEUDO) throw new RegexSyntaxError(ErrorCode.MissingRepeatArgument, this.whole.slice(before, after));
    const sub = this.stack[n - 1]!;
    const re = this.newRegexp(op);
    re.min = min;
    re.max = max;
    re.flags = flags;
    re.sub = [sub];
    this.stack[n - 1] = re;
    this.checkLimits(re);
    if (op === Op.Repeat && (min >= 2 || max >= 2) && !repeatIsValid(re, 1000)) {
      throw new RegexSyntaxError(ErrorCode.InvalidRepeatSize, this.whole.slice(before, after));
    }
    return after;
  }

  concat(): Node | undefined {
    this.maybeConcat(-1, 0);
    let i = this.stack.length;
    while (i > 0 && this.stack[i - 1]!.op < OP_PSEUDO) i--;
    const subs = this.stack.splice(i);
    if (subs.length === 0) return this.push(this.newRegexp(Op.EmptyMatch));
    return this.push(this.collapse(subs, Op.Concat));
  }

  alternate(): Node | undefined {
    let i = this.stack.length;
    while (i > 0 && this.stack[i - 1]!.op < OP_PSEUDO) i--;
    const subs = this.stack.splice(i);
    if (subs.length > 0) cleanAlt(subs[subs.length - 1]!);
    if (subs.length === 0) return this.push(this.newRegexp(Op.NoMatch));
    return this.push(this.collapse(subs, Op.Alternate));
  }

  collapse(subs: Node[], op: number): Node {
    if (subs.length === 1) return subs[0]!;
    let re = this.newRegexp(op);
    re.sub = [];
    for (const sub of subs) {
      if (sub.op === op) {
        for (const s of sub.sub) re.sub.push(s);
        this.reuse(sub);
      } else re.sub.push(sub);
    }
    if (op === Op.Alternate) {
      re.sub = this.factor(re.sub);
      if (re.sub.length === 1) {
        const old = re;
        re = re.sub[0]!;
        this.reuse(old);
      }
    }
    return re;
  }

  factor(sub: Node[]): Node[] {
    if (sub.length < 2) return sub;

    // Round 1: common literal prefixes.
    let str: number[] = [];
    let strflags = 0;
    let start = 0;
    let out: Node[] = [];
    for (let i = 0; i <= sub.length; i++) {
      let istr: number[] = [];
      let iflags = 0;
      if (i < sub.length) {
        [istr, iflags] = this.leadingString(sub[i]!);
        if (iflags === strflags) {
          let same = 0;
          while (same < str.length && same < istr.length && str[same] === istr[same]) same++;
          if (same > 0) {
            str = str.slice(0, same);
            continue;
          }
        }
      }
      if (i === start) {
        // nothing
      } else if (i === start + 1) {
        out.push(sub[start]!);
      } else {
        const prefix = this.newRegexp(Op.Literal);
        prefix.flags = strflags;
        prefix.rune = str.slice();
        for (let j = start; j < i; j++) {
          sub[j] = this.removeLeadingString(sub[j]!, str.length);
          this.checkLimits(sub[j]!);
        }
        const suffix = this.collapse(sub.slice(start, i), Op.Alternate);
        const re = this.newRegexp(Op.Concat);
        re.sub = [prefix, suffix];
        out.push(re);
      }
      start = i;
      str = istr;
      strflags = iflags;
    }
    sub = out;

    // Round 2: common simple prefixes (the first piece of each concatenation).
    start = 0;
    out = [];
    let first: Node | undefined;
    for (let i = 0; i <= sub.length; i++) {
      let ifirst: Node | undefined;
      if (i < sub.length) {
        ifirst = this.leadingRegexp(sub[i]!);
        if (
          first !== undefined &&
          ifirst !== undefined &&
          equal(first, ifirst) &&
          (isCharClass(first) || (first.op === Op.Repeat && first.min === first.max && isCharClass(first.sub[0]!)))
        ) {
          continue;
        }
      }
      if (i === start) {
        // nothing
      } else if (i === start + 1) {
        out.push(sub[start]!);
      } else {
        const prefix = first!;
        for (let j = start; j < i; j++) {
          sub[j] = this.removeLeadingRegexp(sub[j]!, j !== start);
          this.checkLimits(sub[j]!);
        }
        const suffix = this.collapse(sub.slice(start, i), Op.Alternate);
        const re = this.newRegexp(Op.Concat);
        re.sub = [prefix, suffix];
        out.push(re);
      }
      start = i;
      first = ifirst;
    }
    sub = out;

    // Round 3: runs of single literals and classes become one class.
    start = 0;
    out = [];
    for (let i = 0; i <= sub.length; i++) {
      if (i < sub.length && isCharClass(sub[i]!)) continue;
      if (i === start) {
        // nothing
      } else if (i === start + 1) {
        out.push(sub[start]!);
      } else {
        let max = start;
        for (let j = start + 1; j < i; j++) {
          if (sub[max]!.op < sub[j]!.op || (sub[max]!.op === sub[j]!.op && sub[max]!.rune.length < sub[j]!.rune.length)) max = j;
        }
        [sub[start], sub[max]] = [sub[max]!, sub[start]!];
        for (let j = start + 1; j < i; j++) {
          mergeCharClass(sub[start]!, sub[j]!);
          this.reuse(sub[j]!);
        }
        cleanAlt(sub[start]!);
        out.push(sub[start]!);
      }
      if (i < sub.length) out.push(sub[i]!);
      start = i + 1;
    }
    sub = out;

    // Round 4: runs of empty matches become one.
    out = [];
    for (let i = 0; i < sub.length; i++) {
      if (i + 1 < sub.length && sub[i]!.op === Op.EmptyMatch && sub[i + 1]!.op === Op.EmptyMatch) continue;
      out.push(sub[i]!);
    }
    return out;
  }

  leadingString(re: Node): [number[], number] {
    if (re.op === Op.Concat && re.sub.length > 0) re = re.sub[0]!;
    if (re.op !== Op.Literal) return [[], 0];
    return [re.rune, re.flags & Flag.FoldCase];
  }

  removeLeadingString(re: Node, n: number): Node {
    if (re.op === Op.Concat && re.sub.length > 0) {
      const sub = this.removeLeadingString(re.sub[0]!, n);
      re.sub[0] = sub;
      if (sub.op === Op.EmptyMatch) {
        this.reuse(sub);
        switch (re.sub.length) {
          case 0:
          case 1:
            re.op = Op.EmptyMatch;
            re.sub = [];
            break;
          case 2: {
            const old = re;
            re = re.sub[1]!;
            this.reuse(old);
            break;
          }
          default:
            re.sub.shift();
        }
      }
      return re;
    }
    if (re.op === Op.Literal) {
      re.rune = re.rune.slice(n);
      if (re.rune.length === 0) re.op = Op.EmptyMatch;
    }
    return re;
  }

  leadingRegexp(re: Node): Node | undefined {
    if (re.op === Op.EmptyMatch) return undefined;
    if (re.op === Op.Concat && re.sub.length > 0) {
      const sub = re.sub[0]!;
      return sub.op === Op.EmptyMatch ? undefined : sub;
    }
    return re;
  }

  removeLeadingRegexp(re: Node, reuse: boolean): Node {
    if (re.op === Op.Concat && re.sub.length > 0) {
      if (reuse) this.reuse(re.sub[0]!);
      re.sub.shift();
      switch (re.sub.length) {
        case 0:
          re.op = Op.EmptyMatch;
          re.sub = [];
          break;
        case 1: {
          const old = re;
          re = re.sub[0]!;
          this.reuse(old);
          break;
        }
      }
      return re;
    }
    if (reuse) this.reuse(re);
    return this.newRegexp(Op.EmptyMatch);
  }

  parseVerticalBar(): void {
    this.concat();
    if (!this.swapVerticalBar()) this.op(OP_VERTICAL_BAR);
  }

  swapVerticalBar(): boolean {
    const n = this.stack.length;
    if (n >= 3 && this.stack[n - 2]!.op === OP_VERTICAL_BAR && isCharClass(this.stack[n - 1]!) && isCharClass(this.stack[n - 3]!)) {
      let re1 = this.stack[n - 1]!;
      let re3 = this.stack[n - 3]!;
      if (re1.op > re3.op) {
        [re1, re3] = [re3, re1];
        this.stack[n - 3] = re3;
      }
      mergeCharClass(re3, re1);
      this.reuse(re1);
      this.stack.pop();
      return true;
    }
    if (n >= 2) {
      const re1 = this.stack[n - 1]!;
      const re2 = this.stack[n - 2]!;
      if (re2.op === OP_VERTICAL_BAR) {
        if (n >= 3) cleanAlt(this.stack[n - 3]!);
        this.stack[n - 2] = re1;
        this.stack[n - 1] = re2;
        return true;
      }
    }
    return false;
  }

  parseRightParen(): void {
    this.concat();
    if (this.swapVerticalBar()) this.stack.pop();
    this.alternate();
    const n = this.stack.length;
    if (n < 2) throw new RegexSyntaxError(ErrorCode.UnexpectedParen, this.whole);
    const re1 = this.stack[n - 1]!;
    const re2 = this.stack[n - 2]!;
    this.stack.length = n - 2;
    if (re2.op !== OP_LEFT_PAREN) throw new RegexSyntaxError(ErrorCode.UnexpectedParen, this.whole);
    this.flags = re2.flags;
    if (re2.cap === 0) {
      this.push(re1);
    } else {
      re2.op = Op.Capture;
      re2.sub = [re1];
      this.push(re2);
    }
  }

  // Reading the text. Offsets index the pattern's UTF-16 units; a rune is a code point.

  /** The rune at `i` and the offset after it; a raw byte or lone surrogate is Go's invalid UTF-8. */
  nextRune(i: number): [number, number] {
    const c = this.whole.codePointAt(i)!;
    if (c >= 0xd800 && c <= 0xdfff) throw new RegexSyntaxError(ErrorCode.InvalidUTF8, this.whole.slice(i));
    return [c, i + (c > 0xffff ? 2 : 1)];
  }

  /** Go's `checkUTF8` on `whole[from, to)`. */
  checkUTF8(from: number, to: number): void {
    for (let i = from; i < to; ) i = this.nextRune(i)[1];
  }

  parseRepeat(i: number): { min: number; max: number; rest: number } | undefined {
    const s = this.whole;
    if (s[i] !== "{") return undefined;
    i++;
    const a = this.parseInt(i);
    if (a === undefined) return undefined;
    let min = a.n;
    let max: number;
    i = a.rest;
    if (i >= s.length) return undefined;
    if (s[i] !== ",") max = min;
    else {
      i++;
      if (i >= s.length) return undefined;
      if (s[i] === "}") max = -1;
      else {
        const b = this.parseInt(i);
        if (b === undefined) return undefined;
        max = b.n;
        i = b.rest;
        if (max < 0) min = -1;
      }
    }
    if (i >= s.length || s[i] !== "}") return undefined;
    return { min, max, rest: i + 1 };
  }

  parseInt(i: number): { n: number; rest: number } | undefined {
    const s = this.whole;
    const digit = (k: number) => k < s.length && s.charCodeAt(k) >= 0x30 && s.charCodeAt(k) <= 0x39;
    if (!digit(i)) return undefined;
    if (s[i] === "0" && digit(i + 1)) return undefined;
    const from = i;
    while (digit(i)) i++;
    let n = 0;
    for (let k = from; k < i; k++) {
      if (n >= 1e8) {
        n = -1;
        break;
      }
      n = n * 10 + s.charCodeAt(k) - 0x30;
    }
    return { n, rest: i };
  }

  parsePerlFlags(start: number): number {
    const s = this.whole;
    const startsWithP = s.length - start > 4 && s[start + 2] === "P" && s[start + 3] === "<";
    const startsWithName = s.length - start > 3 && s[start + 2] === "<";
    if (startsWithP || startsWithName) {
      const exprStart = start + (startsWithName ? 3 : 4);
      const end = s.indexOf(">", start);
      if (end < 0) {
        this.checkUTF8(start, s.length);
        throw new RegexSyntaxError(ErrorCode.InvalidNamedCapture, s.slice(start));
      }
      this.checkUTF8(exprStart, end);
      const name = s.slice(exprStart, end);
      if (name === "" || ![...name].every((c) => c === "_" || isalnum(c.codePointAt(0)!))) {
        throw new RegexSyntaxError(ErrorCode.InvalidNamedCapture, s.slice(start, end + 1));
      }
      this.numCap++;
      const re = this.op(OP_LEFT_PAREN)!;
      re.cap = this.numCap;
      re.name = name;
      return end + 1;
    }

    let i = start + 2;
    let flags = this.flags;
    let sign = 1;
    let sawFlag = false;
    loop: while (i < s.length) {
      let c: number;
      [c, i] = this.nextRune(i);
      switch (c) {
        case 0x69: // i
          flags |= Flag.FoldCase;
          sawFlag = true;
          break;
        case 0x6d: // m
          flags &= ~Flag.OneLine;
          sawFlag = true;
          break;
        case 0x73: // s
          flags |= Flag.DotNL;
          sawFlag = true;
          break;
        case 0x55: // U
          flags |= Flag.NonGreedy;
          sawFlag = true;
          break;
        case 0x2d: // -
          if (sign < 0) break loop;
          sign = -1;
          flags = ~flags & 0xffff;
          sawFlag = false;
          break;
        case 0x3a: // :
        case 0x29: // )
          if (sign < 0) {
            if (!sawFlag) break loop;
            flags = ~flags & 0xffff;
          }
          if (c === 0x3a) this.op(OP_LEFT_PAREN);
          this.flags = flags;
          return i;
        default:
          break loop;
      }
    }
    throw new RegexSyntaxError(ErrorCode.InvalidPerlOp, s.slice(start, i));
  }

  parseEscape(start: number): [number, number] {
    const s = this.whole;
    let i = start + 1;
    if (i >= s.length) throw new RegexSyntaxError(ErrorCode.TrailingBackslash, "");
    let c: number;
    [c, i] = this.nextRune(i);
    const bad = () => new RegexSyntaxError(ErrorCode.InvalidEscape, s.slice(start, i));
    const isOctal = (k: number) => k < s.length && s[k]! >= "0" && s[k]! <= "7";
    if (c >= 0x31 && c <= 0x37 && !isOctal(i)) throw bad();
    if (c >= 0x30 && c <= 0x37) {
      let r = c - 0x30;
      for (let k = 1; k < 3 && isOctal(i); k++) r = r * 8 + s.charCodeAt(i++) - 0x30;
      return [r, i];
    }
    switch (c) {
      case 0x78: {
        // x
        if (i >= s.length) throw bad();
        [c, i] = this.nextRune(i);
        if (c === 0x7b) {
          let nhex = 0;
          let r = 0;
          for (;;) {
            if (i >= s.length) throw bad();
            [c, i] = this.nextRune(i);
            if (c === 0x7d) break;
            const v = unhex(c);
            if (v < 0) throw bad();
            r = r * 16 + v;
            if (r > MAX_RUNE) throw bad();
            nhex++;
          }
          if (nhex === 0) throw bad();
          return [r, i];
        }
        const x = unhex(c);
        // Go's nextRune("") is RuneError without an error: the escape is then invalid.
        if (i >= s.length) throw bad();
        [c, i] = this.nextRune(i);
        const y = unhex(c);
        if (x < 0 || y < 0) throw bad();
        return [x * 16 + y, i];
      }
      case 0x61:
        return [7, i];
      case 0x66:
        return [12, i];
      case 0x6e:
        return [10, i];
      case 0x72:
        return [13, i];
      case 0x74:
        return [9, i];
      case 0x76:
        return [11, i];
    }
    if (c < 0x80 && !isalnum(c)) return [c, i];
    throw bad();
  }

  parseClassChar(i: number, wholeClass: number): [number, number] {
    if (i >= this.whole.length) throw new RegexSyntaxError(ErrorCode.MissingBracket, this.whole.slice(wholeClass));
    if (this.whole[i] === "\\") return this.parseEscape(i);
    return this.nextRune(i);
  }

  parsePerlClassEscape(i: number, r: Runes): number | undefined {
    if (!(this.flags & Flag.PerlX) || this.whole[i] !== "\\" || i + 1 >= this.whole.length) return undefined;
    const g = PERL_GROUPS.get(this.whole.slice(i, i + 2));
    if (g === undefined) return undefined;
    this.appendGroup(r, g);
    return i + 2;
  }

  parseNamedClass(i: number, r: Runes): number | undefined {
    const s = this.whole;
    if (s[i] !== "[" || s[i + 1] !== ":") return undefined;
    const close = s.indexOf(":]", i + 2);
    if (close < 0) return undefined;
    const name = s.slice(i, close + 2);
    const g = POSIX_GROUPS.get(name);
    if (g === undefined) throw new RegexSyntaxError(ErrorCode.InvalidCharRange, name);
    this.appendGroup(r, g);
    return close + 2;
  }

  appendGroup(r: Runes, g: CharGroup): void {
    let cls = g.class;
    if (this.flags & Flag.FoldCase) cls = cleanClass(appendFoldedClass([], g.class));
    if (g.sign < 0) appendNegatedClass(r, cls);
    else appendClass(r, cls);
  }

  parseUnicodeClass(i: number, r: Runes): number | undefined {
    const s = this.whole;
    if (!(this.flags & Flag.UnicodeGroups) || s[i] !== "\\" || (s[i + 1] !== "p" && s[i + 1] !== "P")) return undefined;
    let sign = s[i + 1] === "P" ? -1 : 1;
    // At the end, Go's nextRune("") is RuneError without an error: the name is then empty.
    const [c, after] = i + 2 < s.length ? this.nextRune(i + 2) : [-1, i + 2];
    let t = after;
    let seq: string;
    let name: string;
    if (c !== 0x7b) {
      seq = s.slice(i, t);
      name = seq.slice(2);
    } else {
      const end = s.indexOf("}", i);
      if (end < 0) {
        this.checkUTF8(i, s.length);
        throw new RegexSyntaxError(ErrorCode.InvalidCharRange, s.slice(i));
      }
      seq = s.slice(i, end + 1);
      t = end + 1;
      this.checkUTF8(i + 3, end);
      name = s.slice(i + 3, end);
    }
    if (name.startsWith("^")) {
      sign = -sign;
      name = name.slice(1);
    }
    const group = unicodeGroup(name);
    if (group === undefined) throw new RegexSyntaxError(ErrorCode.InvalidCharRange, seq);
    if (!(this.flags & Flag.FoldCase) || group.fold === undefined) {
      if (sign > 0) appendClass(r, group.table);
      else appendNegatedClass(r, group.table);
    } else {
      const tmp = cleanClass(appendClass(appendClass([], group.table), group.fold));
      if (sign > 0) appendClass(r, tmp);
      else appendNegatedClass(r, tmp);
    }
    return t;
  }

  parseClass(start: number): number {
    const s = this.whole;
    let i = start + 1;
    const re = this.newRegexp(Op.CharClass);
    re.flags = this.flags;
    let sign = 1;
    if (s[i] === "^") {
      sign = -1;
      i++;
      if (!(this.flags & Flag.ClassNL)) re.rune.push(0x0a, 0x0a);
    }
    const cls = re.rune;
    let first = true;
    while (i >= s.length || s[i] !== "]" || first) {
      if (s[i] === "-" && !(this.flags & Flag.PerlX) && !first && (i + 1 >= s.length || s[i + 1] !== "]")) {
        throw new RegexSyntaxError(ErrorCode.InvalidCharRange, s.slice(i, i + 2));
      }
      first = false;
      if (s.length - i > 2 && s[i] === "[" && s[i + 1] === ":") {
        const next = this.parseNamedClass(i, cls);
        if (next !== undefined) {
          i = next;
          continue;
        }
      }
      let next = this.parseUnicodeClass(i, cls);
      if (next !== undefined) {
        i = next;
        continue;
      }
      next = this.parsePerlClassEscape(i, cls);
      if (next !== undefined) {
        i = next;
        continue;
      }
      const rng = i;
      let lo: number;
      [lo, i] = this.parseClassChar(i, start);
      let hi = lo;
      if (s.length - i >= 2 && s[i] === "-" && s[i + 1] !== "]") {
        i++;
        [hi, i] = this.parseClassChar(i, start);
        if (hi < lo) throw new RegexSyntaxError(ErrorCode.InvalidCharRange, s.slice(rng, i));
      }
      if (this.flags & Flag.FoldCase) appendFoldedRange(cls, lo, hi);
      else appendRange(cls, lo, hi);
    }
    i++;
    cleanClass(cls);
    if (sign < 0) negateClass(cls);
    re.rune = cls;
    this.push(re);
    return i;
  }

  parse(): Node {
    const s = this.whole;
    let i = 0;
    let lastRepeat = -1;
    while (i < s.length) {
      let repeat = -1;
      const ch = s[i]!;
      switch (ch) {
        case "(":
          if (this.flags & Flag.PerlX && s[i + 1] === "?") {
            i = this.parsePerlFlags(i);
            break;
          }
          this.numCap++;
          this.op(OP_LEFT_PAREN)!.cap = this.numCap;
          i++;
          break;
        case "|":
          this.parseVerticalBar();
          i++;
          break;
        case ")":
          this.parseRightParen();
          i++;
          break;
        case "^":
          this.op(this.flags & Flag.OneLine ? Op.BeginText : Op.BeginLine);
          i++;
          break;
        case "$":
          if (this.flags & Flag.OneLine) this.op(Op.EndText)!.flags |= Flag.WasDollar;
          else this.op(Op.EndLine);
          i++;
          break;
        case ".":
          this.op(this.flags & Flag.DotNL ? Op.AnyChar : Op.AnyCharNotNL);
          i++;
          break;
        case "[":
          i = this.parseClass(i);
          break;
        case "*":
        case "+":
        case "?": {
          const op = ch === "*" ? Op.Star : ch === "+" ? Op.Plus : Op.Quest;
          const before = i;
          i = this.repeat(op, 0, 0, before, i + 1, lastRepeat);
          repeat = before;
          break;
        }
        case "{": {
          const before = i;
          const parsed = this.parseRepeat(i);
          if (parsed === undefined) {
            this.literal(0x7b);
            i++;
            break;
          }
          const { min, max, rest } = parsed;
          if (min < 0 || min > 1000 || max > 1000 || (max >= 0 && min > max)) {
            throw new RegexSyntaxError(ErrorCode.InvalidRepeatSize, s.slice(before, rest));
          }
          i = this.repeat(Op.Repeat, min, max, before, rest, lastRepeat);
          repeat = before;
          break;
        }
        case "\\":
          i = this.parseBackslash(i);
          break;
        default: {
          let c: number;
          [c, i] = this.nextRune(i);
          this.literal(c);
        }
      }
      lastRepeat = repeat;
    }
    this.concat();
    if (this.swapVerticalBar()) this.stack.pop();
    this.alternate();
    if (this.stack.length !== 1) throw new RegexSyntaxError(ErrorCode.MissingParen, s);
    return this.stack[0]!;
  }

  parseBackslash(i: number): number {
    const s = this.whole;
    if (this.flags & Flag.PerlX && i + 1 < s.length) {
      switch (s[i + 1]) {
        case "A":
          this.op(Op.BeginText);
          return i + 2;
        case "b":
          this.op(Op.WordBoundary);
          return i + 2;
        case "B":
          this.op(Op.NoWordBoundary);
          return i + 2;
        case "C":
          throw new RegexSyntaxError(ErrorCode.InvalidEscape, s.slice(i, i + 2));
        case "Q": {
          const end = s.indexOf("\\E", i + 2);
          const stop = end < 0 ? s.length : end;
          for (let k = i + 2; k < stop; ) {
            let c: number;
            [c, k] = this.nextRune(k);
            this.literal(c);
          }
          return end < 0 ? s.length : end + 2;
        }
        case "z":
          this.op(Op.EndText);
          return i + 2;
      }
    }
    const re = this.newRegexp(Op.CharClass);
    re.flags = this.flags;
    if (s[i + 1] === "p" || s[i + 1] === "P") {
      const next = this.parseUnicodeClass(i, re.rune);
      if (next !== undefined) {
        this.push(re);
        return next;
      }
    }
    const next = this.parsePerlClassEscape(i, re.rune);
    if (next !== undefined) {
      this.push(re);
      return next;
    }
    this.reuse(re);
    const [c, rest] = this.parseEscape(i);
    this.literal(c);
    return rest;
  }
}

/** The parse tree of an RE2 pattern as `regexp.Compile` reads it; throws `RegexSyntaxError`. */
export function parseRegex(pattern: string): Node {
  const p = new Parser(pattern);
  try {
    return p.parse();
  } catch (e) {
    if (e instanceof Limit) throw new RegexSyntaxError(e.code, pattern);
    throw e;
  }
}
