/**
 * The Chevrotain parser: tokens in, AST out (embedded actions, no CST). It reproduces the reference
 * grammar (a PEG) decision for decision:
 * - whitespace is skipped by the lexer; where the reference requires it (around word operators) or
 *   forbids it (inside selectors and numbers), the parser looks at the gap between two tokens;
 * - ordered choices that the PEG resolves by trying an alternative and backtracking are decided with
 *   gates that look at the same tokens (`operatorAhead`, `collectionAhead`) or, for the one genuinely
 *   ambiguous case (`not` followed by an operator word), by a speculative parse;
 * - the PEG's predicate errors ("Invalid number literal", "Unmatched parentheses", ...) stop the parse
 *   even where another alternative could continue: they are thrown as `FilterSyntaxError`, which
 *   speculation does not swallow;
 * - and/or/not/parentheses/collection bodies are parsed by one loop with an explicit stack, so nesting
 *   costs heap, not call stack (see "Why one loop" below).
 * Chevrotain's own recognition errors are worded by `recognition.ts` (the parser's
 * `errorMessageProvider`) and turned into `FilterSyntaxError` by `parse.ts`.
 */
import { EmbeddedActionsParser, EOF, MismatchedTokenException, NoViableAltException, tokenMatcher, type IOrAlt, type IToken, type TokenType } from "chevrotain";
import type { SyntaxErrorCode } from "../errors.js";
import { syntaxError, type SyntaxFacts } from "../messages.js";
import type { Binding, Expr, Literal, MatchExpr, MatchOp, Segment, Selector, Span } from "./ast.js";
import { pointerPath } from "./pointer.js";
import { unquote } from "./strings.js";
import * as T from "./tokens.js";
import { selectorSource } from "./print.js";
import { errorMessageProvider, EXPECTED, expectedAt } from "./recognition.js";
import { flat, matchNode, pointerLiteral, pointerSelector, wordLiteral, type ParserLimits } from "./nodes.js";

export { flat, matchNode, pointerLiteral, pointerSelector, wordLiteral, type ParserLimits };


const end = (t: IToken): number => t.startOffset + t.image.length;
const spanOf = (t: IToken): Span => ({ start: t.startOffset, end: end(t) });
const join = (a: { span: Span }, b: { span: Span }): Span => ({ start: a.span.start, end: b.span.end });

/** `any S as b {`, parsed up to the body. */
interface CollectionHead {
  readonly quantifier: "any" | "all";
  readonly selector: Selector;
  readonly binding: Binding;
  readonly open: IToken;
  readonly start: number;
}

/**
 * An open group of the expression loop: the whole input, a parenthesis or a collection body. Its
 * fields are the three precedence levels of grammar/filter.ebnf, loosest first, each holding what
 * it has read so far: `or` the finished operands of the orExpr, `and` those of the current andExpr,
 * `nots` the `not`s of the current notExpr. An operand goes through them in that order, tightest
 * first (`complete`: wrapped in the `not`s, appended to `and`); "or" closes the and-chain into
 * `or`; the group's end closes both (`closeGroup`).
 */
interface Group {
  readonly kind: "root" | "operand" | "paren" | "collection";
  readonly open: IToken | undefined;
  readonly head: CollectionHead | undefined;
  /** Level 1, orExpr: finished or-operands. */
  or: Expr[];
  /** Level 2, andExpr: finished operands of the current and-chain. */
  and: Expr[];
  /** Level 3, notExpr: `not`s waiting for their operand. */
  nots: IToken[];
  /** A collection ended the or-chain: only the end of the group may follow. */
  ended: boolean;
}

export class FilterParser extends EmbeddedActionsParser {
  /** The expression text, for error messages and whitespace gaps. */
  private source = "";
  private limits: ParserLimits = { maxDepth: 0, maxMatches: 0 };
  /** Nesting depth where a speculative parse starts. */
  private depth = 0;
  private matchCount = 0;

  constructor() {
    // A browser has no `process` (a bundler need not define it): there the grammar is never validated.
    super(T.allTokens, { maxLookahead: 1, errorMessageProvider, skipValidations: globalThis.process?.env?.FILTER_EXPR_VALIDATE_GRAMMAR !== "1" });
    this.performSelfAnalysis();
  }

  /**
   * Tokens from this index on may differ from the whole text's (`tokens` were lexed from its
   * beginning only, `parse.ts`'s `fullParse`); `pastHorizon` tells whether the parse looked at one,
   * or at the end after them. Infinity when `tokens` are the whole text's.
   */
  private horizon = Infinity;
  pastHorizon = false;

  /** Starts a new input (`horizon`: as the field). */
  begin(source: string, tokens: IToken[], limits: ParserLimits, horizon = Infinity): void {
    this.source = source;
    this.limits = limits;
    this.depth = 0;
    this.matchCount = 0;
    this.st = newLoopState(false, 0);
    this.horizon = horizon;
    this.pastHorizon = false;
    this.input = tokens;
  }

  // Every look at a token goes through these two (Chevrotain's lookahead functions too).
  override LA(howMuch: number): IToken {
    if ((this as unknown as { currIdx: number }).currIdx + howMuch >= this.horizon) this.pastHorizon = true;
    return super.LA(howMuch);
  }

  protected override LA_FAST(howMuch: number): IToken {
    if ((this as unknown as { currIdx: number }).currIdx + howMuch >= this.horizon) this.pastHorizon = true;
    return super.LA_FAST(howMuch);
  }

  /**
   * Chevrotain's check for input left over, after the parse: an error moved the parser to the end of
   * the tokens first (and a parse that ended without one read the end already), so its look at the
   * end is not the parse's own.
   */
  onAfterParse(ruleName: string): void {
    const past = this.pastHorizon;
    (EmbeddedActionsParser.prototype as unknown as { onAfterParse(ruleName: string): void }).onAfterParse.call(this, ruleName);
    this.pastHorizon = past;
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers used by gates and actions.

  private is(k: number, type: TokenType): boolean {
    return tokenMatcher(this.LA(k), type);
  }

  /** True when whitespace separates token `k` from the token before it (or `k` is the end after a gap). */
  private gap(k: number): boolean {
    const t = this.LA(k);
    const prev = this.LA(k - 1);
    const start = t.tokenType === EOF ? this.source.length : t.startOffset;
    const prevEnd = prev.tokenType === EOF || Number.isNaN(prev.startOffset) ? 0 : end(prev);
    return start > prevEnd;
  }

  /** Records a recognition error as Chevrotain's own are recorded (its `SAVE_ERROR` is untyped). */
  private saveError(e: Error): Error {
    return (this as unknown as { SAVE_ERROR(e: Error): Error }).SAVE_ERROR(e);
  }

  /**
   * A plain mismatch, worded as Chevrotain's own (recognition.ts): `expected` names what may stand at
   * the next token. The parse fails here, but a speculative parse may try another way.
   */
  private mismatch(expected: string, note?: string): never {
    throw this.saveError(new MismatchedTokenException(expectedAt(expected, this.LA(1), this.LA(0), note), this.LA(1), this.LA(0)));
  }

  /** Whitespace must come before the next token. */
  private requireGap(): void {
    if (!this.gap(1)) this.mismatch("whitespace");
  }

  /** Nothing may come between the previous token and the next (inside selectors and numbers), which is `expected`. */
  private requireAdjacent(expected: string): void {
    if (this.gap(1)) this.mismatch(expected);
  }

  /** Throws a predicate error of the reference grammar: final, even during speculation. */
  private fail<C extends SyntaxErrorCode>(code: C, span: Span, ...facts: SyntaxFacts<C>): never {
    throw syntaxError(code, this.source, span, ...facts);
  }

  /** True when token `k` is a double-quoted string shaped like a JSON Pointer (`"/a/b"`, `""`). */
  private pointerAt(k: number): boolean {
    const t = this.LA(k);
    return tokenMatcher(t, T.DoubleQuoted) && pointerPath(t.image) !== undefined;
  }

  /** True when token `k` can start a selector. */
  private selectorAt(k: number): boolean {
    return this.is(k, T.Identifier) || this.pointerAt(k);
  }

  /**
   * The match operator starting at token `k` (right after a selector), if any: `==`/`!=` with optional
   * whitespace, or operator words with whitespace before, between and (except after `empty`/`nil`)
   * after them, as the reference requires.
   */
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

  /**
   * `any`/`all` starts a collection expression unless it is the selector of a match: the reference
   * tries the match first and only falls back to the collection when that fails, which happens
   * exactly when no operator follows the word.
   */
  private collectionAhead(): boolean {
    return (this.is(1, T.Any) || this.is(1, T.All)) && this.gap(2) && this.operatorAhead(2) === undefined;
  }

  /** `not` followed by whitespace negates, unless the reference reads `not` as a field name. */
  private negationAhead(depth: number): boolean {
    if (!this.is(1, T.Not) || !this.gap(2)) return false;
    // Without an operator after it, `not` cannot be a field: it negates (or the parse fails either way).
    if (this.operatorAhead(2) === undefined) return true;
    // Otherwise the reference tries the negation first and reads a field `not` if it fails.
    const [savedDepth, savedState, savedSelector, savedOp] = [this.depth, this.st, this.matchSelector, this.matchOp];
    this.depth = depth;
    try {
      return this.BACKTRACK(this.negation).call(this);
    } finally {
      [this.depth, this.st, this.matchSelector, this.matchOp] = [savedDepth, savedState, savedSelector, savedOp];
    }
  }

  /** `and` with whitespace around it follows, and the group may continue. */
  private andAhead(g: Group): boolean {
    return !g.ended && g.kind !== "operand" && this.gap(1) && this.is(1, T.And) && this.gap(2);
  }

  /** `or` with whitespace around it follows, and the group may continue. */
  private orAhead(g: Group): boolean {
    return !g.ended && g.kind !== "operand" && this.gap(1) && this.is(1, T.Or) && this.gap(2);
  }

  /** One level deeper (a parenthesis, a collection body or a `not`); the limit is checked here. */
  private enter(open: IToken, depth: number): number {
    if (this.limits.maxDepth > 0 && depth + 1 > this.limits.maxDepth) {
      this.fail("nesting-too-deep", spanOf(open), { limit: this.limits.maxDepth });
    }
    return depth + 1;
  }

  private countMatch(span: Span): void {
    if (this.limits.maxMatches > 0 && ++this.matchCount > this.limits.maxMatches) {
      this.fail("too-many-matches", span, { limit: this.limits.maxMatches });
    }
  }

  /** Reads a quoted string token to its value, or throws the reference's error for it. */
  private stringValue(t: IToken): string {
    const value = unquote(t.image);
    if (typeof value === "string") return value;
    return this.fail("invalid-string", { start: t.startOffset, end: t.startOffset + Math.max(value.offset + 2, 1) }, { reason: value.reason });
  }

  private unterminated(t: IToken): never {
    return this.fail("unterminated-string", { start: t.startOffset, end: end(t) });
  }

  // ---------------------------------------------------------------------------------------------
  // Rules. The EBNF above each rule is the normative grammar of grammar/filter.ebnf.

  /**
   * filter  = orExpr EOF
   * orExpr  = collection | andExpr { "or" ( collection | andExpr ) }   (a collection ends the chain)
   * andExpr = notExpr { "and" notExpr }
   * notExpr = { "not" } ( "(" orExpr ")" | match )
   *
   * The last three are parsed by one loop with an explicit stack (see `expression`; the levels are
   * the fields of `Group`).
   *
   * Why one loop and not a rule per level: nesting. The reference accepts 1,501 nested collections
   * (its parse budget), and collections nest through orExpr → collection → orExpr. A Chevrotain rule
   * costs several JavaScript frames, so a rule-per-level parser (bench/parser-shape.ts builds one,
   * with the same AST) overflows the default stack at about 664 nested collections in a fresh process,
   * 1,464 after warming up, 446–989 when the caller already holds 2,000 frames, and 2,500 only once
   * fully optimised: whether an expression parsed would depend on the JIT and on the caller. The loop
   * takes any depth the heap allows (checked to 60,000) at the same speed (the rule-per-level parser
   * alone takes 0.97–0.98× of the loop's time; `npx tsx bench/parser-shape.ts`).
   */
  public filter = this.RULE("filter", (): Expr => {
    const expr = this.SUBRULE(this.expression, { ARGS: [false] });
    this.CONSUME(EOF);
    return expr;
  });

  // The state of the innermost `expression` loop. Alternatives are built once (not per iteration)
  // and read the state from here, as Chevrotain's performance guide recommends.
  private st: LoopState = newLoopState(false, 0);

  private readonly loopAlternatives: IOrAlt<void>[] = [
    {
      // A collection stands where a whole or-operand may start.
      GATE: () => this.st.expectOperand && this.top().and.length === 0 && this.top().nots.length === 0 && this.collectionAhead(),
      ALT: () => {
        const head = this.SUBRULE(this.collectionHead);
        this.ACTION(() => {
          const st = this.st;
          st.depth = this.enter(head.open, st.depth);
          st.stack.push(newGroup("collection", head.open, head));
        });
      },
    },
    {
      GATE: () => this.st.expectOperand && this.negationAhead(this.st.depth),
      ALT: () => {
        const not = this.CONSUME(T.Not);
        this.ACTION(() => {
          const st = this.st;
          st.depth = this.enter(not, st.depth);
          this.top().nots.push(not);
        });
      },
    },
    {
      GATE: () => this.st.expectOperand,
      ALT: () => {
        const open = this.CONSUME(T.LParen);
        this.ACTION(() => {
          const st = this.st;
          st.depth = this.enter(open, st.depth);
          st.stack.push(newGroup("paren", open, undefined));
        });
      },
    },
    {
      GATE: () => this.st.expectOperand,
      ALT: () => {
        const m = this.SUBRULE(this.match);
        this.ACTION(() => this.complete(m));
      },
    },
    {
      GATE: () => !this.st.expectOperand && this.andAhead(this.top()),
      ALT: () => {
        this.CONSUME(T.And);
        this.ACTION(() => {
          this.st.expectOperand = true;
        });
      },
    },
    {
      GATE: () => !this.st.expectOperand && this.orAhead(this.top()),
      ALT: () => {
        this.CONSUME(T.Or);
        this.ACTION(() => {
          const g = this.top();
          g.or.push(flat("and", g.and));
          g.and = [];
          this.st.expectOperand = true;
        });
      },
    },
    {
      GATE: () => !this.st.expectOperand && this.top().kind === "paren" && this.is(1, T.RParen),
      ALT: () => {
        this.CONSUME(T.RParen);
        this.ACTION(() => {
          const st = this.st;
          const g = st.stack.pop()!;
          st.depth--;
          this.complete(closeGroup(g));
        });
      },
    },
    {
      GATE: () => !this.st.expectOperand && this.top().kind === "collection",
      ALT: () => {
        const brace = this.CONSUME(T.RBrace);
        this.ACTION(() => {
          const st = this.st;
          const g = st.stack.pop()!;
          st.depth--;
          const head = g.head!;
          this.complete({
            kind: "collection",
            quantifier: head.quantifier,
            selector: head.selector,
            binding: head.binding,
            body: closeGroup(g),
            span: { start: head.start, end: end(brace) },
          });
          // Nothing but the end of the group may follow a collection.
          this.top().ended = true;
        });
      },
    },
  ];

  private readonly loop = {
    GATE: () => this.st.result === undefined && this.continues(),
    // The gates are exclusive; one token of lookahead confirms the chosen alternative.
    DEF: () => this.OR({ IGNORE_AMBIGUITIES: true, DEF: this.loopAlternatives }),
  };

  private top(): Group {
    const stack = this.st.stack;
    return stack[stack.length - 1]!;
  }

  /** Hands a finished operand to the group on top of the stack, wrapped in its pending `not`s. */
  private complete(operand: Expr): void {
    const st = this.st;
    const g = this.top();
    let e = operand;
    for (let i = g.nots.length - 1; i >= 0; i--) {
      e = { kind: "not", operand: e, span: { start: g.nots[i]!.startOffset, end: e.span.end } };
    }
    st.depth -= g.nots.length;
    g.nots = [];
    g.and.push(e);
    st.expectOperand = false;
    if (g.kind === "operand") st.result = e;
  }

  /** The loop goes on while an operand is expected, or "and", "or" or the open group's closer follows. */
  private continues(): boolean {
    const g = this.top();
    if (this.st.expectOperand || this.andAhead(g) || this.orAhead(g)) return true;
    return (g.kind === "paren" && this.is(1, T.RParen)) || (g.kind === "collection" && this.is(1, T.RBrace));
  }

  /**
   * Parses an `orExpr` (or, with `operandOnly`, a single `notExpr`, to decide a `not` speculatively)
   * as a loop over operands and operators with an explicit stack of open groups: parentheses and
   * collection bodies.
   */
  public expression = this.RULE("expression", (operandOnly: boolean): Expr => {
    const outer = this.st;
    const st = this.ACTION(() => (this.st = newLoopState(operandOnly, this.depth)));
    this.MANY(this.loop);
    return this.ACTION(() => {
      const result = st.result ?? this.finishLoop(st);
      this.st = outer;
      return result;
    });
  });

  /**
   * The end of the loop: the whole expression, or the error for what cannot continue it. What may
   * follow a finished operand is "and", "or" and the group's end; after a collection, only the end.
   */
  private finishLoop(st: LoopState): Expr {
    const g = this.top();
    if (st.expectOperand) throw this.saveError(new NoViableAltException(expectedAt("an operand", this.LA(1), this.LA(0)), this.LA(1), this.LA(0)));
    const atEnd = this.is(1, EOF);
    const lastOnly = g.ended ? 'an "any" or "all" expression comes last in its group: put it in parentheses to join it with more' : undefined;
    const connectives = g.ended || atEnd ? "" : '"and", "or" or ';
    if (g.kind === "paren") {
      const opener = openerText(this.source, g.open!.startOffset, tokenSpan(this.LA(1), this.source).start);
      if (atEnd) this.fail("unmatched-parenthesis", tokenSpan(this.LA(1), this.source), { opener });
      this.mismatch(`${connectives}")" to close ${opener}`, lastOnly);
    }
    if (g.kind === "collection") this.mismatch(`${connectives}"}" to close ${openerText(this.source, g.head!.start, end(g.open!))}`, lastOnly);
    if (g.kind === "root" && !atEnd) this.mismatch(g.ended ? "the end of the expression" : EXPECTED.filter, lastOnly);
    return closeGroup(st.stack[0]!);
  }

  /** negation = "not" notExpr   (only to decide, speculatively, whether a `not` negates) */
  public negation = this.RULE("negation", (): Expr => {
    this.CONSUME(T.Not);
    return this.SUBRULE(this.expression, { ARGS: [true] });
  });

  /** collectionHead = ( "any" | "all" ) selector "as" binding "{" */
  public collectionHead = this.RULE("collectionHead", (): CollectionHead => {
    const q = this.CONSUME(T.Quantifier);
    const selector = this.SUBRULE(this.selector);
    this.ACTION(() => this.requireGap());
    this.CONSUME(T.As);
    this.ACTION(() => this.requireGap());
    const binding = this.SUBRULE(this.binding);
    const open = this.CONSUME(T.LBrace);
    return this.ACTION(() => ({ quantifier: q.image as "any" | "all", selector, binding, open, start: q.startOffset }));
  });

  /** binding = "_" "," name | name [ "," ( "_" | name ) ] */
  public binding = this.RULE("binding", (): Binding => {
    return this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Underscore);
          this.CONSUME(T.Comma);
          const value = this.CONSUME(T.Identifier);
          return this.ACTION((): Binding => ({ mode: "value", value: value.image }));
        },
      },
      {
        ALT: () => {
          const first = this.CONSUME2(T.Identifier);
          let binding: Binding | undefined;
          this.OPTION(() => {
            this.CONSUME2(T.Comma);
            binding = this.OR2([
              {
                ALT: (): Binding => {
                  this.CONSUME2(T.Underscore);
                  return this.ACTION(() => ({ mode: "index", index: first.image }));
                },
              },
              {
                ALT: (): Binding => {
                  const v = this.CONSUME3(T.Identifier);
                  return this.ACTION(() => ({ mode: "index-value", index: first.image, value: v.image }));
                },
              },
            ]);
          });
          return this.ACTION((): Binding => binding ?? { mode: "default", name: first.image });
        },
      },
    ]);
  });

  // The state of the `match` rule (not re-entrant: nothing inside a match parses another match).
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
        const opSpan = this.SUBRULE(this.inOp);
        const right = this.SUBRULE(this.selectorAfterIn);
        return this.ACTION((): MatchExpr => {
          const left = this.matchSelector!;
          return matchNode(this.matchOp!, opSpan, right, wordLiteral(left), join(left, right));
        });
      },
    },
  ];

  private matchWith(opSpan: Span, value: Literal | undefined): MatchExpr {
    const selector = this.matchSelector!;
    const span = { start: selector.span.start, end: value ? value.span.end : opSpan.end };
    return matchNode(this.matchOp!, opSpan, selector, value, span);
  }

  private readonly matchAlternatives: IOrAlt<MatchExpr>[] = [
    {
      GATE: () => this.selectorAt(1),
      ALT: () => {
        const selector = this.SUBRULE(this.selector);
        this.ACTION(() => {
          this.matchSelector = selector;
          this.matchOp = this.operatorAhead(1);
        });
        return this.OR2({ IGNORE_AMBIGUITIES: true, DEF: this.operatorAlternatives });
      },
    },
    {
      ALT: () => {
        const value = this.SUBRULE(this.plainValue);
        const op = this.ACTION(() => {
          const o = this.operatorAhead(1);
          if (o !== "in" && o !== "not in") this.mismatch('"in" or "not in"');
          return o;
        });
        const opSpan = this.SUBRULE2(this.inOp);
        const selector = this.SUBRULE2(this.selectorAfterIn);
        return this.ACTION(() => matchNode(op, opSpan, selector, value, join(value, selector)));
      },
    },
  ];

  /**
   * match  = selector ( compare value | emptiness | inOp selector )
   *        | plainValue inOp selector
   * compare = "==" | "!=" | [ "not" ] ( "contains" | "matches" )
   * emptiness = "is" [ "not" ] ( "empty" | "nil" )
   * inOp = [ "not" ] "in"
   */
  public match = this.RULE("match", (): MatchExpr => {
    const m = this.OR(this.matchAlternatives);
    this.ACTION(() => this.countMatch(m.span));
    return m;
  });

  /** inOp = [ "not" ] "in"   (whitespace around each word, checked by `operatorAhead`) */
  public inOp = this.RULE("inOp", (): Span => {
    const not = this.OPTION(() => this.CONSUME(T.Not));
    const t = this.CONSUME(T.In);
    return this.ACTION(() => ({ start: (not ?? t).startOffset, end: end(t) }));
  });

  /** The selector after `in`: its absence is the reference's "Invalid selector" error. */
  public selectorAfterIn = this.RULE("selectorAfterIn", (): Selector => {
    this.ACTION(() => {
      if (!this.selectorAt(1)) this.fail("invalid-selector", tokenSpan(this.LA(1), this.source));
    });
    return this.SUBRULE(this.selector);
  });

  // The steps of the selector being parsed (not re-entrant: a selector holds no selector).
  private segments: Segment[] = [];

  private readonly stepAlternatives: IOrAlt<void>[] = [
    {
      ALT: () => {
        const dot = this.CONSUME(T.Dot);
        this.ACTION(() => this.requireAdjacent(EXPECTED.selector));
        const t = this.OR3(this.afterDot);
        this.ACTION(() => this.segments.push({ kind: tokenMatcher(t, T.Digits) ? "index" : "name", name: t.image, span: { start: dot.startOffset, end: end(t) } }));
      },
    },
    {
      ALT: () => {
        const seg = this.SUBRULE(this.indexSegment);
        this.ACTION(() => this.segments.push(seg));
      },
    },
  ];

  private readonly afterDot: IOrAlt<IToken>[] = [{ ALT: () => this.CONSUME2(T.Identifier) }, { ALT: () => this.CONSUME(T.Digits) }];

  private readonly steps = {
    GATE: () => !this.gap(1),
    DEF: () => this.OR2(this.stepAlternatives),
  };

  private readonly selectorAlternatives: IOrAlt<Selector>[] = [
    {
      GATE: () => this.pointerAt(1),
      ALT: () => {
        const t = this.CONSUME(T.DoubleQuoted);
        return this.ACTION(() => pointerSelector(t.image, pointerPath(t.image) ?? [], spanOf(t)));
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

  /**
   * selector = pointer | name { "." name | "." digits | index }   (no whitespace inside)
   */
  public selector = this.RULE("selector", (): Selector => this.OR(this.selectorAlternatives));

  /** index = "[" string "]" */
  public indexSegment = this.RULE("indexSegment", (): Segment => {
    const open = this.CONSUME(T.LBracket);
    this.ACTION(() => {
      const t = this.LA(1);
      if (this.is(1, T.Unterminated)) this.unterminated(t);
      if (!this.is(1, T.QuotedKey)) this.fail("invalid-index", tokenSpan(t, this.source));
    });
    const key = this.CONSUME(T.QuotedKey);
    const name = this.ACTION(() => this.stringValue(key));
    this.ACTION(() => {
      if (!this.is(1, T.RBracket)) {
        this.fail("unclosed-index", tokenSpan(this.LA(1), this.source), { opener: openerText(this.source, open.startOffset, tokenSpan(this.LA(1), this.source).start) });
      }
    });
    const close = this.CONSUME(T.RBracket);
    return this.ACTION((): Segment => ({ kind: "key", name, raw: key.image, span: { start: open.startOffset, end: end(close) } }));
  });

  private readonly valueAlternatives: IOrAlt<Literal>[] = [
    {
      GATE: () => this.pointerAt(1),
      ALT: () => {
        const t = this.CONSUME(T.DoubleQuoted);
        return this.ACTION(() => pointerLiteral(t.image, pointerPath(t.image) ?? [], spanOf(t)));
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

  /** value = pointer | selector (taken as its text) | plainValue */
  public value = this.RULE("value", (): Literal => this.OR({ IGNORE_AMBIGUITIES: true, DEF: this.valueAlternatives }));

  private readonly plainAlternatives: IOrAlt<Literal>[] = [
    { ALT: () => this.SUBRULE(this.number) },
    {
      GATE: () => !this.pointerAt(1),
      ALT: () => {
        const t = this.CONSUME(T.QuotedKey);
        return this.ACTION((): Literal => ({ kind: "literal", type: "string", raw: t.image, text: this.stringValue(t), span: spanOf(t) }));
      },
    },
    {
      ALT: () => {
        const t = this.CONSUME(T.Unterminated);
        return this.ACTION(() => this.unterminated(t));
      },
    },
  ];

  /** plainValue = number | string */
  public plainValue = this.RULE("plainValue", (): Literal => this.OR(this.plainAlternatives));

  private readonly fraction = {
    // The fraction is part of the number only when digits follow the dot directly.
    GATE: () => this.is(1, T.Dot) && !this.gap(1) && this.is(2, T.Digits) && !this.gap(2),
    DEF: () => {
      this.CONSUME(T.Dot);
      return this.CONSUME2(T.Digits);
    },
  };

  /** number = [ "-" ] digits [ "." digits ]   (no whitespace inside; then whitespace, ")" or the end) */
  public number = this.RULE("number", (): Literal => {
    const minus = this.OPTION(() => {
      const m = this.CONSUME(T.Minus);
      this.ACTION(() => this.requireAdjacent(EXPECTED.number));
      return m;
    });
    const int = this.CONSUME(T.Digits);
    const fraction = this.OPTION2(this.fraction);
    return this.ACTION((): Literal => {
      const last = fraction ?? int;
      const start = (minus ?? int).startOffset;
      // "0" or a run without a leading zero; the reference then requires whitespace, ")" or the end.
      const leadingZero = int.image.length > 1 && int.image[0] === "0";
      if (leadingZero || !(this.gap(1) || this.is(1, T.RParen) || this.is(1, EOF))) {
        const next = this.LA(1);
        const stop = leadingZero || next.tokenType === EOF || this.gap(1) ? end(last) : end(next);
        const text = this.source.slice(start, stop);
        this.fail("invalid-number", { start, end: stop }, { text });
      }
      const raw = this.source.slice(start, end(last));
      return { kind: "literal", type: "number", raw, text: raw, span: { start, end: end(last) } };
    });
  });
}

/** The state of one run of the expression loop. */
interface LoopState {
  readonly stack: Group[];
  expectOperand: boolean;
  result: Expr | undefined;
  depth: number;
}

function newLoopState(operandOnly: boolean, depth: number): LoopState {
  return { stack: [newGroup(operandOnly ? "operand" : "root", undefined, undefined)], expectOperand: true, result: undefined, depth };
}

function newGroup(kind: Group["kind"], open: IToken | undefined, head: CollectionHead | undefined): Group {
  return { kind, open, head, or: [], and: [], nots: [], ended: false };
}

function closeGroup(g: Group): Expr {
  if (g.and.length > 0) g.or.push(flat("and", g.and));
  return flat("or", g.or);
}

/** The source position "line:column" of an offset. */
/**
 * Where an opening bracket stands, in words, for a message whose own position is elsewhere (a message
 * carries one `L:C`, its own): "column 5", or "line 2, column 5" on a multi-line expression.
 */
/**
 * The group an error leaves open, named by its text from `start` up to `end` (a message has one
 * position, the error's): quoted, on one line, cut at 24 characters.
 */
function openerText(source: string, start: number, end: number): string {
  const line = source.slice(start, end).split(/\r?\n/)[0]!.trimEnd();
  return JSON.stringify(line.length > 24 ? `${line.slice(0, 24).trimEnd()}…` : line);
}

/** The span of a token, or the end of the input for EOF. */
export function tokenSpan(t: IToken, source: string): Span {
  if (t.tokenType === EOF || Number.isNaN(t.startOffset)) return { start: source.length, end: source.length };
  return spanOf(t);
}
