/**
 * A rule-per-level Chevrotain parser for the logical layer of grammar/filter.ebnf, written only to
 * measure what the project's hand-written loop (src/syntax/parser.ts) buys: call-stack depth and
 * speed. It builds the project's AST (src/syntax/ast.ts), node for node, but it is NOT a replacement
 * parser: error messages, bindings with commas, the reference's predicate errors (invalid numbers,
 * strings, indexes), the speculative `not` and the depth/match limits are left out.
 *
 *   filter     = orExpr EOF
 *   orExpr     = collection | andExpr { "or" andExpr } [ "or" collection ]
 *   andExpr    = notExpr { "and" notExpr }
 *   notExpr    = { "not" } ( "(" orExpr ")" | match )        (the `not` run is a MANY loop)
 *   collection = ( "any" | "all" ) selector "as" name "{" orExpr "}"
 *   match      = selector ( ("=="|"!=") value | [not] (contains|matches) value | is [not] (empty|nil)
 *                          | [not] in selector )
 *              | plainValue [not] in selector
 *
 * The decisions mirror the project's parser where they cost something per token: the whitespace
 * gaps around word operators, `collectionAhead` / `operatorAhead`, the selector's `MANY` of steps
 * gated on adjacency, pointers recognised with the project's `pointerPath`, strings unquoted with
 * its `unquote`. Every OR/MANY/OPTION definition
 * is built once (state in fields, as in the project's parser), as Chevrotain's performance guide
 * recommends; the recursion is the rules' own: orExpr → andExpr → notExpr → orExpr per parenthesis,
 * orExpr → collection → orExpr per collection body.
 */
import { EmbeddedActionsParser, EOF, MismatchedTokenException, tokenMatcher, type IOrAlt, type IToken, type TokenType } from "chevrotain";
import type { Expr, Literal, MatchExpr, MatchOp, Segment, Selector, Span } from "../../src/syntax/ast.js";
import { pointerPath } from "../../src/syntax/pointer.js";
import { selectorSource } from "../../src/syntax/print.js";
import { unquote } from "../../src/syntax/strings.js";
import * as T from "../../src/syntax/tokens.js";

const end = (t: IToken): number => t.startOffset + t.image.length;
const spanOf = (t: IToken): Span => ({ start: t.startOffset, end: end(t) });

/** The operands pushed on `stack` since `base`, popped and joined by `k` (or the one operand). */
function popFlat(kind: "and" | "or", stack: Expr[], base: number): Expr {
  if (stack.length === base + 1) return stack.pop()!;
  const operands = stack.slice(base);
  stack.length = base;
  return { kind, operands, span: { start: operands[0]!.span.start, end: operands[operands.length - 1]!.span.end } };
}

export class LevelParser extends EmbeddedActionsParser {
  private source = "";

  constructor() {
    super(T.allTokens, { maxLookahead: 1, skipValidations: process.env.PARSER_SHAPE_VALIDATE !== "1" });
    this.performSelfAnalysis();
  }

  /** Starts a new input. */
  begin(source: string, tokens: IToken[]): void {
    this.source = source;
    this.orStack = [];
    this.andStack = [];
    this.notStack = [];
    this.input = tokens;
  }

  // ---------------------------------------------------------------------------------------------
  // Gates (as in the project's parser).

  private is(k: number, type: TokenType): boolean {
    return tokenMatcher(this.LA(k), type);
  }

  private gap(k: number): boolean {
    const t = this.LA(k);
    const prev = this.LA(k - 1);
    const start = t.tokenType === EOF ? this.source.length : t.startOffset;
    const prevEnd = prev.tokenType === EOF || Number.isNaN(prev.startOffset) ? 0 : end(prev);
    return start > prevEnd;
  }

  private requireGap(): void {
    if (!this.gap(1)) {
      throw (this as unknown as { SAVE_ERROR(e: Error): Error }).SAVE_ERROR(new MismatchedTokenException("expected whitespace", this.LA(1), this.LA(0)));
    }
  }

  private operatorAhead(k: number): MatchOp | undefined {
    if (this.is(k, T.Equal)) return "==";
    if (this.is(k, T.NotEqual)) return "!=";
    if (!this.gap(k)) return undefined;
    const word = (i: number, type: TokenType) => this.is(i, type) && this.gap(i + 1);
    if (word(k, T.Contains)) return "contains";
    if (word(k, T.Matches)) return "matches";
    if (word(k, T.In)) return "in";
    if (word(k, T.Not)) {
      if (word(k + 1, T.In)) return "not in";
      if (word(k + 1, T.Contains)) return "not contains";
      if (word(k + 1, T.Matches)) return "not matches";
    }
    if (word(k, T.Is)) {
      if (this.is(k + 1, T.Empty)) return "is empty";
      if (this.is(k + 1, T.Nil)) return "is nil";
      if (word(k + 1, T.Not)) {
        if (this.is(k + 2, T.Empty)) return "is not empty";
        if (this.is(k + 2, T.Nil)) return "is not nil";
      }
    }
    return undefined;
  }

  /** `any`/`all` starts a collection unless an operator follows it (then it is a field name). */
  private pointerAt(k: number): boolean {
    const t = this.LA(k);
    return tokenMatcher(t, T.DoubleQuoted) && pointerPath(t.image) !== undefined;
  }

  private collectionAhead(k: number): boolean {
    return this.is(k, T.Quantifier) && this.gap(k + 1) && this.operatorAhead(k + 1) === undefined;
  }

  /** `not` + whitespace negates unless an operator follows (simplified: no speculative parse). */
  private negationAhead(): boolean {
    return this.is(1, T.Not) && this.gap(2) && this.operatorAhead(2) === undefined;
  }

  private andAhead(): boolean {
    return this.gap(1) && this.is(1, T.And) && this.gap(2);
  }

  private orAhead(): boolean {
    return this.gap(1) && this.is(1, T.Or) && this.gap(2);
  }

  // ---------------------------------------------------------------------------------------------
  // The logical layer: one rule per precedence level.

  public filter = this.RULE("filter", (): Expr => {
    const e = this.SUBRULE(this.orExpr);
    this.CONSUME(EOF);
    return e;
  });

  // Operand stacks shared by the recursive rules: each invocation remembers where its own operands
  // start. The MANY/OPTION definitions are built once, as the project's parser does (see the note on
  // keepNames in bench/parser-shape.ts: a closure created per call costs far more under tsx).
  private orStack: Expr[] = [];
  private andStack: Expr[] = [];
  private notStack: IToken[] = [];

  private readonly orTail = {
    GATE: () => this.orAhead() && !this.collectionAhead(2),
    DEF: () => {
      this.CONSUME(T.Or);
      const a = this.SUBRULE2(this.andExpr);
      this.ACTION(() => this.orStack.push(a));
    },
  };

  private readonly orCollection = {
    GATE: () => this.orAhead(),
    DEF: () => {
      this.CONSUME2(T.Or);
      const c = this.SUBRULE2(this.collection);
      this.ACTION(() => this.orStack.push(c));
    },
  };

  private readonly orAlternatives: IOrAlt<Expr>[] = [
    { GATE: () => this.collectionAhead(1), ALT: () => this.SUBRULE(this.collection) },
    {
      ALT: () => {
        const first = this.SUBRULE(this.andExpr);
        const base = this.ACTION(() => this.orStack.push(first) - 1);
        this.MANY(this.orTail);
        this.OPTION(this.orCollection);
        return this.ACTION(() => popFlat("or", this.orStack, base));
      },
    },
  ];

  private readonly orDef = { IGNORE_AMBIGUITIES: true, DEF: this.orAlternatives };

  /** orExpr = collection | andExpr { "or" andExpr } [ "or" collection ] */
  public orExpr = this.RULE("orExpr", (): Expr => this.OR(this.orDef));

  private readonly andTail = {
    GATE: () => this.andAhead(),
    DEF: () => {
      this.CONSUME(T.And);
      const n = this.SUBRULE2(this.notExpr);
      this.ACTION(() => this.andStack.push(n));
    },
  };

  /** andExpr = notExpr { "and" notExpr } */
  public andExpr = this.RULE("andExpr", (): Expr => {
    const first = this.SUBRULE(this.notExpr);
    const base = this.ACTION(() => this.andStack.push(first) - 1);
    this.MANY(this.andTail);
    return this.ACTION(() => popFlat("and", this.andStack, base));
  });

  private readonly operandAlternatives: IOrAlt<Expr>[] = [
    {
      ALT: () => {
        this.CONSUME(T.LParen);
        const e = this.SUBRULE(this.orExpr);
        this.CONSUME(T.RParen);
        return e;
      },
    },
    { ALT: () => this.SUBRULE(this.match) },
  ];

  private readonly notRun = {
    GATE: () => this.negationAhead(),
    DEF: () => {
      const t = this.CONSUME(T.Not);
      this.ACTION(() => this.notStack.push(t));
    },
  };

  /** notExpr = { "not" } ( "(" orExpr ")" | match )   (the `not`s: a MANY loop, no recursion) */
  public notExpr = this.RULE("notExpr", (): Expr => {
    const base = this.ACTION(() => this.notStack.length);
    this.MANY(this.notRun);
    const operand = this.OR(this.operandAlternatives);
    return this.ACTION(() => {
      const nots = this.notStack;
      let e = operand;
      for (let i = nots.length - 1; i >= base; i--) e = { kind: "not", operand: e, span: { start: nots[i]!.startOffset, end: e.span.end } };
      nots.length = base;
      return e;
    });
  });

  /** collection = ( "any" | "all" ) selector "as" name "{" orExpr "}" */
  public collection = this.RULE("collection", (): Expr => {
    const q = this.CONSUME(T.Quantifier);
    const sel = this.SUBRULE(this.selector);
    this.ACTION(() => this.requireGap());
    this.CONSUME(T.As);
    this.ACTION(() => this.requireGap());
    const name = this.CONSUME(T.Identifier);
    this.CONSUME(T.LBrace);
    const body = this.SUBRULE(this.orExpr);
    const close = this.CONSUME(T.RBrace);
    return this.ACTION(
      (): Expr => ({ kind: "collection", quantifier: q.image as "any" | "all", selector: sel, binding: { mode: "default", name: name.image }, body, span: { start: q.startOffset, end: end(close) } }),
    );
  });

  // ---------------------------------------------------------------------------------------------
  // Matches: not the subject of the measurement, but the same decisions and the same AST nodes as the
  // project's parser, so that the timing compares like with like (no errors of the reference's own).

  private matchSelector: Selector | undefined;
  private matchOp: MatchOp | undefined;

  private readonly operatorAlternatives: IOrAlt<MatchExpr>[] = [
    {
      GATE: () => this.matchOp === "==" || this.matchOp === "!=",
      ALT: () => {
        const t = this.CONSUME(T.EqualityOperator);
        const value = this.SUBRULE(this.value);
        return this.ACTION(() => this.matchWith(spanOf(t), value));
      },
    },
    {
      GATE: () => this.matchOp === "contains" || this.matchOp === "matches" || this.matchOp === "not contains" || this.matchOp === "not matches",
      ALT: () => {
        const not = this.OPTION(() => this.CONSUME(T.Not));
        const t = this.CONSUME(T.TextOperator);
        const value = this.SUBRULE2(this.value);
        return this.ACTION(() => this.matchWith({ start: (not ?? t).startOffset, end: end(t) }, value));
      },
    },
    {
      GATE: () => this.matchOp !== undefined && this.matchOp.startsWith("is "),
      ALT: () => {
        const is = this.CONSUME(T.Is);
        this.OPTION2(() => this.CONSUME2(T.Not));
        const t = this.CONSUME(T.Emptiness);
        return this.ACTION(() => this.matchWith({ start: is.startOffset, end: end(t) }, undefined));
      },
    },
    {
      GATE: () => this.matchOp === "in" || this.matchOp === "not in",
      ALT: () => {
        const not = this.OPTION3(() => this.CONSUME3(T.Not));
        const t = this.CONSUME(T.In);
        const right = this.SUBRULE2(this.selector);
        return this.ACTION((): MatchExpr => {
          const left = this.matchSelector!;
          return matchNode(this.matchOp!, { start: (not ?? t).startOffset, end: end(t) }, right, wordLiteral(left), { start: left.span.start, end: right.span.end });
        });
      },
    },
  ];

  private readonly operatorDef = { IGNORE_AMBIGUITIES: true, DEF: this.operatorAlternatives };

  private matchWith(opSpan: Span, value: Literal | undefined): MatchExpr {
    const selector = this.matchSelector!;
    return matchNode(this.matchOp!, opSpan, selector, value, { start: selector.span.start, end: value ? value.span.end : opSpan.end });
  }

  private readonly matchAlternatives: IOrAlt<MatchExpr>[] = [
    {
      GATE: () => this.is(1, T.Identifier) || this.pointerAt(1),
      ALT: () => {
        const selector = this.SUBRULE(this.selector);
        this.ACTION(() => {
          this.matchSelector = selector;
          this.matchOp = this.operatorAhead(1);
        });
        return this.OR2(this.operatorDef);
      },
    },
    {
      ALT: () => {
        const value = this.SUBRULE(this.plainValue);
        const op = this.ACTION(() => {
          const o = this.operatorAhead(1);
          if (o !== "in" && o !== "not in") this.requireGap();
          return o!;
        });
        const not = this.OPTION4(() => this.CONSUME4(T.Not));
        const t = this.CONSUME2(T.In);
        const selector = this.SUBRULE3(this.selector);
        return this.ACTION(() => matchNode(op, { start: (not ?? t).startOffset, end: end(t) }, selector, value, { start: value.span.start, end: selector.span.end }));
      },
    },
  ];

  /** match = selector ( compare value | emptiness | inOp selector ) | plainValue inOp selector */
  public match = this.RULE("match", (): MatchExpr => this.OR(this.matchAlternatives));

  private readonly afterDot: IOrAlt<IToken>[] = [{ ALT: () => this.CONSUME2(T.Identifier) }, { ALT: () => this.CONSUME(T.Digits) }];

  private readonly stepAlternatives: IOrAlt<Segment>[] = [
    {
      ALT: () => {
        const dot = this.CONSUME(T.Dot);
        const t = this.OR3(this.afterDot);
        return this.ACTION((): Segment => ({ kind: tokenMatcher(t, T.Digits) ? "index" : "name", name: t.image, span: { start: dot.startOffset, end: end(t) } }));
      },
    },
    {
      ALT: () => {
        const open = this.CONSUME(T.LBracket);
        const key = this.CONSUME(T.QuotedKey);
        const close = this.CONSUME(T.RBracket);
        return this.ACTION((): Segment => ({ kind: "key", name: String(unquote(key.image)), raw: key.image, span: { start: open.startOffset, end: end(close) } }));
      },
    },
  ];

  // The steps of the selector being parsed (not re-entrant: a selector holds no selector).
  private segments: Segment[] = [];

  private readonly steps = {
    GATE: () => !this.gap(1),
    DEF: () => {
      const step = this.OR2(this.stepAlternatives);
      this.ACTION(() => this.segments.push(step));
    },
  };

  private readonly selectorAlternatives: IOrAlt<Selector>[] = [
    {
      GATE: () => this.pointerAt(1),
      ALT: () => {
        const t = this.CONSUME(T.DoubleQuoted);
        return this.ACTION((): Selector => {
          const span = spanOf(t);
          return { kind: "selector", form: "pointer", segments: (pointerPath(t.image) ?? []).map((name) => ({ kind: "key", name, raw: "", span })), raw: t.image, span };
        });
      },
    },
    {
      ALT: () => {
        const first = this.CONSUME(T.Identifier);
        this.ACTION(() => {
          this.segments = [{ kind: "name", name: first.image, span: spanOf(first) }];
        });
        this.MANY(this.steps);
        return this.ACTION((): Selector => {
          const segments = this.segments;
          return { kind: "selector", form: "path", segments, raw: "", span: { start: first.startOffset, end: segments[segments.length - 1]!.span.end } };
        });
      },
    },
  ];

  /** selector = pointer | name { "." name | "." digits | "[" string "]" }   (no whitespace inside) */
  public selector = this.RULE("selector", (): Selector => this.OR(this.selectorAlternatives));

  private readonly valueAlternatives: IOrAlt<Literal>[] = [
    {
      GATE: () => this.pointerAt(1),
      ALT: () => {
        const t = this.CONSUME(T.DoubleQuoted);
        return this.ACTION((): Literal => ({ kind: "literal", type: "pointer", raw: t.image, text: (pointerPath(t.image) ?? []).join("/"), span: spanOf(t) }));
      },
    },
    {
      GATE: () => this.is(1, T.Identifier),
      ALT: () => {
        const s = this.SUBRULE(this.selector);
        return this.ACTION(() => wordLiteral(s));
      },
    },
    { ALT: () => this.SUBRULE(this.plainValue) },
  ];

  private readonly valueDef = { IGNORE_AMBIGUITIES: true, DEF: this.valueAlternatives };

  /** value = pointer | selector (taken as its text) | plainValue */
  public value = this.RULE("value", (): Literal => this.OR(this.valueDef));

  private readonly fraction = {
    GATE: () => this.is(1, T.Dot) && !this.gap(1) && this.is(2, T.Digits) && !this.gap(2),
    DEF: () => {
      this.CONSUME(T.Dot);
      return this.CONSUME2(T.Digits);
    },
  };

  private readonly plainAlternatives: IOrAlt<Literal>[] = [
    {
      ALT: () => {
        const minus = this.OPTION(() => this.CONSUME(T.Minus));
        const int = this.CONSUME(T.Digits);
        const fraction = this.OPTION2(this.fraction);
        return this.ACTION((): Literal => {
          const start = (minus ?? int).startOffset;
          const raw = this.source.slice(start, end(fraction ?? int));
          return { kind: "literal", type: "number", raw, text: raw, span: { start, end: start + raw.length } };
        });
      },
    },
    {
      GATE: () => !this.pointerAt(1),
      ALT: () => {
        const t = this.CONSUME(T.QuotedKey);
        return this.ACTION((): Literal => ({ kind: "literal", type: "string", raw: t.image, text: String(unquote(t.image)), span: spanOf(t) }));
      },
    },
  ];

  /** plainValue = number | string */
  public plainValue = this.RULE("plainValue", (): Literal => this.OR(this.plainAlternatives));
}

function matchNode(op: MatchOp, opSpan: Span, selector: Selector, value: Literal | undefined, span: Span): MatchExpr {
  return value === undefined ? { kind: "match", op, selector, opSpan, span } : { kind: "match", op, selector, value, opSpan, span };
}

/** A selector written where a value is expected: its text (as the project's parser does). */
function wordLiteral(s: Selector): Literal {
  if (s.form === "pointer") return { kind: "literal", type: "pointer", raw: s.raw, text: s.segments.map((x) => x.name).join("/"), span: s.span };
  return { kind: "literal", type: "word", raw: selectorSource(s), text: s.segments.map((x) => x.name).join("."), span: s.span };
}

let shared: LevelParser | undefined;

/** Lexes (with the project's lexer) and parses; throws on a syntax error. */
export function parseLevels(text: string): Expr {
  const p = (shared ??= new LevelParser());
  const lexed = T.lexer.tokenize(text);
  if (lexed.errors.length > 0) throw new Error(`lexing error at ${lexed.errors[0]!.offset}`);
  p.begin(text, lexed.tokens);
  const tree = p.filter();
  if (p.errors.length > 0) throw new Error(`syntax error: ${p.errors[0]!.message}`);
  return tree;
}

/** Parses already lexed tokens (for timing the parser alone). */
export function parseLevelsTokens(text: string, tokens: IToken[]): Expr {
  const p = (shared ??= new LevelParser());
  p.begin(text, tokens);
  const tree = p.filter();
  if (p.errors.length > 0) throw new Error(`syntax error: ${p.errors[0]!.message}`);
  return tree;
}
