/**
 * The Chevrotain parser: tokens in, AST out (embedded actions, no CST). It reproduces the reference
 * grammar (a PEG) decision for decision:
 * - ordered choices that the PEG resolves by trying an alternative and backtracking are decided here
 *   with gates that look at the same tokens (`operatorAhead`, `collectionAhead`) or, for the one
 *   genuinely ambiguous case (`not` followed by an operator word), by a speculative parse;
 * - the PEG's predicate errors ("Invalid number literal", "Unmatched parentheses", ...) stop the parse
 *   even where another alternative could continue: here they are thrown as `FilterSyntaxError`, which
 *   speculation does not swallow.
 * Chevrotain's own recognition errors are turned into `FilterSyntaxError` by `parse.ts`.
 */
import { EmbeddedActionsParser, EOF, MismatchedTokenException, NoViableAltException, tokenMatcher, type IToken, type TokenType } from "chevrotain";
import { FilterSyntaxError, type SyntaxErrorCode } from "../errors.js";
import type { Binding, CollectionExpr, Expr, Literal, MatchExpr, MatchOp, Segment, Selector, Span } from "./ast.js";
import { pointerPath } from "./pointer.js";
import { unquote } from "./strings.js";
import * as T from "./tokens.js";

/** Limits enforced while parsing (see `ParseOptions`). */
export interface ParserLimits {
  maxDepth: number;
  maxExpressions: number;
}

const end = (t: IToken): number => t.startOffset + t.image.length;
const spanOf = (t: IToken): Span => ({ start: t.startOffset, end: end(t) });
const join = (a: { span: Span }, b: { span: Span }): Span => ({ start: a.span.start, end: b.span.end });

/** The operators that may follow a selector, by the number of tokens they span. */
interface OperatorMatch {
  readonly op: MatchOp;
}

/** `any S as b {`, parsed up to the body. */
interface CollectionHead {
  readonly quantifier: "any" | "all";
  readonly selector: Selector;
  readonly binding: Binding;
  readonly open: IToken;
  readonly start: number;
}

/** An open group of the expression loop: the whole input, a parenthesis or a collection body. */
interface Group {
  readonly kind: "root" | "operand" | "paren" | "collection";
  readonly open: IToken | undefined;
  readonly head: CollectionHead | undefined;
  /** Finished or-operands. */
  or: Expr[];
  /** Finished operands of the current and-chain. */
  and: Expr[];
  /** `not`s waiting for their operand. */
  nots: IToken[];
  /** A collection ended the or-chain: only the end of the group may follow. */
  ended: boolean;
}

export class FilterParser extends EmbeddedActionsParser {
  /** The expression text, for error messages. */
  private source = "";
  private limits: ParserLimits = { maxDepth: 1000, maxExpressions: 0 };
  private depth = 0;
  private matchCount = 0;

  constructor() {
    super(T.allTokens, { maxLookahead: 4, skipValidations: process.env.FILTER_EXPR_VALIDATE_GRAMMAR !== "1" });
    this.performSelfAnalysis();
  }

  /** Resets the parser for a new input. */
  begin(source: string, tokens: IToken[], limits: ParserLimits): void {
    this.source = source;
    this.limits = limits;
    this.depth = 0;
    this.matchCount = 0;
    this.input = tokens;
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers used by gates and actions.

  private is(k: number, type: TokenType): boolean {
    return tokenMatcher(this.LA(k), type);
  }

  /** Throws a predicate error of the reference grammar: final, even during speculation. */
  private fail(code: SyntaxErrorCode, summary: string, span: Span): never {
    throw new FilterSyntaxError(code, summary, this.source, span);
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
   * whitespace, or whitespace followed by operator words, each followed by whitespace where the
   * reference requires it.
   */
  private operatorAhead(k: number): OperatorMatch | undefined {
    let i = k;
    if (this.is(i, T.WhiteSpace)) i++;
    if (this.is(i, T.Equal)) return { op: "==" };
    if (this.is(i, T.NotEqual)) return { op: "!=" };
    if (i === k) return undefined;
    const ws = (j: number) => this.is(j, T.WhiteSpace);
    if (this.is(i, T.Contains) && ws(i + 1)) return { op: "contains" };
    if (this.is(i, T.Matches) && ws(i + 1)) return { op: "matches" };
    if (this.is(i, T.In) && ws(i + 1)) return { op: "in" };
    if (this.is(i, T.Not) && ws(i + 1) && ws(i + 3)) {
      if (this.is(i + 2, T.In)) return { op: "not in" };
      if (this.is(i + 2, T.Contains)) return { op: "not contains" };
      if (this.is(i + 2, T.Matches)) return { op: "not matches" };
    }
    if (this.is(i, T.Is) && ws(i + 1)) {
      if (this.is(i + 2, T.Empty)) return { op: "is empty" };
      if (this.is(i + 2, T.Nil)) return { op: "is nil" };
      if (this.is(i + 2, T.Not) && ws(i + 3)) {
        if (this.is(i + 4, T.Empty)) return { op: "is not empty" };
        if (this.is(i + 4, T.Nil)) return { op: "is not nil" };
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
    return (this.is(1, T.Any) || this.is(1, T.All)) && this.is(2, T.WhiteSpace) && this.operatorAhead(2) === undefined;
  }

  /** `not` followed by whitespace negates, unless the reference reads `not` as a field name. */
  private negationAhead(depth: number): boolean {
    if (!this.is(1, T.Not) || !this.is(2, T.WhiteSpace)) return false;
    // Without an operator after it, `not` cannot be a field: it negates (or the parse fails either way).
    if (this.operatorAhead(2) === undefined) return true;
    // Otherwise the reference tries the negation first and reads a field `not` if it fails.
    const saved = this.depth;
    this.depth = depth;
    try {
      return this.BACKTRACK(this.negation).call(this);
    } finally {
      this.depth = saved;
    }
  }

  /** `ws "and" ws` follows, and the group may continue. */
  private andAhead(g: Group): boolean {
    return !g.ended && g.kind !== "operand" && this.is(1, T.WhiteSpace) && this.is(2, T.And) && this.is(3, T.WhiteSpace);
  }

  /** `ws "or" ws` follows, and the group may continue. */
  private orAhead(g: Group): boolean {
    return !g.ended && g.kind !== "operand" && this.is(1, T.WhiteSpace) && this.is(2, T.Or) && this.is(3, T.WhiteSpace);
  }

  /** One level deeper (a parenthesis, a collection body or a `not`); the limit is checked here. */
  private enter(open: IToken, depth: number): number {
    if (depth + 1 > this.limits.maxDepth) {
      this.fail("nesting-too-deep", `the expression nests deeper than the limit of ${this.limits.maxDepth} (parentheses, collection bodies and "not"s)`, spanOf(open));
    }
    return depth + 1;
  }

  private countMatch(span: Span): void {
    if (this.limits.maxExpressions > 0 && ++this.matchCount > this.limits.maxExpressions) {
      this.fail("too-many-expressions", `the expression has more than the limit of ${this.limits.maxExpressions} matches`, span);
    }
  }

  /** Reads a quoted string token to its value, or throws the reference's error for it. */
  private stringValue(t: IToken): string {
    const value = unquote(t.image);
    if (typeof value === "string") return value;
    return this.fail("invalid-string", `invalid string literal: ${value.reason}`, {
      start: t.startOffset,
      end: t.startOffset + Math.max(value.offset + 2, 1),
    });
  }

  private unterminated(t: IToken): never {
    return this.fail("unterminated-string", "unterminated string literal", {
      start: t.startOffset,
      end: end(t),
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Rules. The EBNF above each rule is the normative grammar of grammar/filter.ebnf.

  /**
   * filter  = [ws] orExpr [ws] EOF
   * orExpr  = collection | andExpr { ws "or" ws ( collection | andExpr ) }   (a collection ends the chain)
   * andExpr = notExpr { ws "and" ws notExpr }
   * notExpr = { "not" ws } ( "(" [ws] orExpr [ws] ")" | match )
   *
   * These four rules are parsed by one loop with an explicit stack (see `expression`), so nesting
   * depth costs heap, not call stack.
   */
  public filter = this.RULE("filter", (): Expr => {
    this.OPTION(() => this.CONSUME(T.WhiteSpace));
    const expr = this.SUBRULE(this.expression, { ARGS: [false] });
    this.OPTION2(() => this.CONSUME2(T.WhiteSpace));
    this.CONSUME(EOF);
    return expr;
  });

  /**
   * Parses an `orExpr` (or, with `operandOnly`, a single `notExpr`, to decide a `not` speculatively)
   * as a loop over operands and operators with an explicit stack of open groups: parentheses and
   * collection bodies.
   */
  public expression = this.RULE("expression", (operandOnly: boolean): Expr => {
    const base: Group = { kind: operandOnly ? "operand" : "root", open: undefined, head: undefined, or: [], and: [], nots: [], ended: false };
    const stack: Group[] = [base];
    const top = () => stack[stack.length - 1]!;
    let expectOperand = true;
    let result: Expr | undefined;
    let depth = this.depth;

    /** Hands a finished operand to the group on top of the stack, closing groups that are complete. */
    const complete = (operand: Expr) => {
      const g = top();
      let e = operand;
      for (let i = g.nots.length - 1; i >= 0; i--) {
        e = { kind: "not", operand: e, span: { start: g.nots[i]!.startOffset, end: e.span.end } };
      }
      depth -= g.nots.length;
      g.nots = [];
      g.and.push(e);
      expectOperand = false;
      if (g.kind === "operand") result = e;
    };
    const close = (g: Group): Expr => {
      if (g.and.length > 0) g.or.push(flat("and", g.and));
      return flat("or", g.or);
    };
    const atEnd = () => {
      const g = top();
      if (expectOperand || this.andAhead(g) || this.orAhead(g)) return false;
      return g.kind === "root" || g.kind === "operand";
    };

    this.MANY({
      GATE: () => result === undefined && !atEnd(),
      DEF: () => {
        // The gates are exclusive; one token of lookahead confirms the chosen alternative.
        this.OR({ MAX_LOOKAHEAD: 1, IGNORE_AMBIGUITIES: true, DEF: [
          {
            // A collection stands where a whole or-operand may start.
            GATE: () => expectOperand && top().and.length === 0 && top().nots.length === 0 && this.collectionAhead(),
            ALT: () => {
              const head = this.SUBRULE(this.collectionHead);
              this.ACTION(() => {
                depth = this.enter(head.open, depth);
                stack.push({ kind: "collection", open: head.open, head, or: [], and: [], nots: [], ended: false });
              });
            },
          },
          {
            GATE: () => expectOperand && this.negationAhead(depth),
            ALT: () => {
              const not = this.CONSUME(T.Not);
              this.CONSUME(T.WhiteSpace);
              this.ACTION(() => {
                depth = this.enter(not, depth);
                top().nots.push(not);
              });
            },
          },
          {
            GATE: () => expectOperand && this.is(1, T.LParen),
            ALT: () => {
              const open = this.CONSUME(T.LParen);
              this.OPTION(() => this.CONSUME2(T.WhiteSpace));
              this.ACTION(() => {
                depth = this.enter(open, depth);
                stack.push({ kind: "paren", open, head: undefined, or: [], and: [], nots: [], ended: false });
              });
            },
          },
          {
            GATE: () => expectOperand,
            ALT: () => {
              const m = this.SUBRULE(this.match);
              this.ACTION(() => complete(m));
            },
          },
          {
            GATE: () => !expectOperand && this.andAhead(top()),
            ALT: () => {
              this.CONSUME3(T.WhiteSpace);
              this.CONSUME(T.And);
              this.CONSUME4(T.WhiteSpace);
              expectOperand = true;
            },
          },
          {
            GATE: () => !expectOperand && this.orAhead(top()),
            ALT: () => {
              this.CONSUME5(T.WhiteSpace);
              this.CONSUME(T.Or);
              this.CONSUME6(T.WhiteSpace);
              this.ACTION(() => {
                const g = top();
                g.or.push(flat("and", g.and));
                g.and = [];
              });
              expectOperand = true;
            },
          },
          {
            GATE: () => !expectOperand && top().kind === "paren",
            ALT: () => {
              this.OPTION2(() => this.CONSUME7(T.WhiteSpace));
              this.ACTION(() => {
                if (!this.is(1, T.RParen)) {
                  const open = top().open!;
                  this.fail("unmatched-parenthesis", `expected ")" to close the "(" at ${posText(this.source, open.startOffset)}`, tokenSpan(this.LA(1), this.source));
                }
              });
              this.CONSUME(T.RParen);
              this.ACTION(() => {
                const g = stack.pop()!;
                depth--;
                complete(close(g));
              });
            },
          },
          {
            GATE: () => !expectOperand && top().kind === "collection",
            ALT: () => {
              this.OPTION3(() => this.CONSUME8(T.WhiteSpace));
              const brace = this.CONSUME(T.RBrace);
              this.ACTION(() => {
                const g = stack.pop()!;
                depth--;
                const head = g.head!;
                const collection: CollectionExpr = {
                  kind: "collection",
                  quantifier: head.quantifier,
                  selector: head.selector,
                  binding: head.binding,
                  body: close(g),
                  span: { start: head.start, end: end(brace) },
                };
                complete(collection);
                // Nothing but the end of the group may follow a collection.
                top().ended = true;
              });
            },
          },
        ] });
      },
    });
    return this.ACTION(() => {
      if (result !== undefined) return result;
      const g = top();
      if (expectOperand) {
        throw this.SAVE_ERROR(new NoViableAltException(`expected an operand`, this.LA(1), this.LA(0)));
      }
      if (g.kind === "paren") {
        const at = this.is(1, T.WhiteSpace) ? this.LA(2) : this.LA(1);
        this.fail("unmatched-parenthesis", `expected ")" to close the "(" at ${posText(this.source, g.open!.startOffset)}`, tokenSpan(at, this.source));
      }
      if (g.kind === "collection") {
        throw this.SAVE_ERROR(new MismatchedTokenException(`expected "}"`, this.is(1, T.WhiteSpace) ? this.LA(2) : this.LA(1), this.LA(0)));
      }
      return close(base);
    });
  });

  /** negation = "not" ws notExpr   (only to decide, speculatively, whether a `not` negates) */
  public negation = this.RULE("negation", (): Expr => {
    this.CONSUME(T.Not);
    this.CONSUME(T.WhiteSpace);
    return this.SUBRULE(this.expression, { ARGS: [true] });
  });

  /** collection head = ( "any" | "all" ) ws selector ws "as" ws binding [ws] "{" [ws] */
  public collectionHead = this.RULE("collectionHead", (): CollectionHead => {
    const q = this.OR([{ ALT: () => this.CONSUME(T.Any) }, { ALT: () => this.CONSUME(T.All) }]);
    this.CONSUME(T.WhiteSpace);
    const selector = this.SUBRULE(this.selector);
    this.CONSUME2(T.WhiteSpace);
    this.CONSUME(T.As);
    this.CONSUME3(T.WhiteSpace);
    const binding = this.SUBRULE(this.binding);
    this.OPTION(() => this.CONSUME4(T.WhiteSpace));
    const open = this.CONSUME(T.LBrace);
    this.OPTION2(() => this.CONSUME5(T.WhiteSpace));
    return this.ACTION(() => ({ quantifier: q.image as "any" | "all", selector, binding, open, start: q.startOffset }));
  });

  /**
   * match = selector ( compareOp value | emptyOp | inOp selector )
   *       | plainValue inOp selector
   */
  public match = this.RULE("match", (): MatchExpr => {
    const m = this.OR([
      {
        GATE: () => this.selectorAt(1),
        ALT: () => {
          const selector = this.SUBRULE(this.selector);
          return this.SUBRULE(this.selectorTail, { ARGS: [selector] });
        },
      },
      {
        ALT: () => {
          const value = this.SUBRULE(this.plainValue);
          const op = this.SUBRULE(this.inOp);
          const selector = this.SUBRULE2(this.selectorAfterIn);
          return this.ACTION(() => matchNode(op, selector, value, join(value, selector)));
        },
      },
    ]);
    this.ACTION(() => this.countMatch(m.span));
    return m;
  });

  /** The operator and operand after a leading selector (see `match`). */
  public selectorTail = this.RULE("selectorTail", (selector: Selector): MatchExpr => {
    return this.OR([
      {
        ALT: () => {
          const op = this.SUBRULE(this.compareOp);
          const value = this.SUBRULE(this.value);
          return this.ACTION(() => matchNode(op, selector, value, join(selector, value)));
        },
      },
      {
        ALT: () => {
          const op = this.SUBRULE(this.emptyOp);
          return this.ACTION(() => matchNode(op, selector, undefined, { start: selector.span.start, end: op.span.end }));
        },
      },
      {
        ALT: () => {
          const op = this.SUBRULE(this.inOp);
          const right = this.SUBRULE(this.selectorAfterIn);
          return this.ACTION(() => matchNode(op, right, wordLiteral(selector), join(selector, right)));
        },
      },
    ]);
  });

  /**
   * compareOp = [ws] "==" [ws] | [ws] "!=" [ws]
   *           | ws ( "contains" | "matches" | "not" ws ( "contains" | "matches" ) ) ws
   */
  public compareOp = this.RULE("compareOp", (): { op: MatchOp; span: Span } => {
    return this.OR([
      {
        GATE: () => { const o = this.operatorAhead(1); return o?.op === "==" || o?.op === "!="; },
        ALT: () => {
          this.OPTION(() => this.CONSUME(T.WhiteSpace));
          const t = this.OR2([{ ALT: () => this.CONSUME(T.Equal) }, { ALT: () => this.CONSUME(T.NotEqual) }]);
          this.OPTION2(() => this.CONSUME2(T.WhiteSpace));
          return this.ACTION(() => ({ op: t.image as MatchOp, span: spanOf(t) }));
        },
      },
      {
        ALT: () => {
          this.CONSUME3(T.WhiteSpace);
          const r = this.OR3([
            { ALT: () => { const t = this.CONSUME(T.Contains); return this.ACTION(() => ({ op: "contains" as MatchOp, span: spanOf(t) })); } },
            { ALT: () => { const t = this.CONSUME(T.Matches); return this.ACTION(() => ({ op: "matches" as MatchOp, span: spanOf(t) })); } },
            {
              ALT: () => {
                const not = this.CONSUME(T.Not);
                this.CONSUME4(T.WhiteSpace);
                const t = this.OR4([{ ALT: () => this.CONSUME2(T.Contains) }, { ALT: () => this.CONSUME2(T.Matches) }]);
                return this.ACTION(() => ({ op: `not ${t.image}` as MatchOp, span: { start: not.startOffset, end: end(t) } }));
              },
            },
          ]);
          this.CONSUME5(T.WhiteSpace);
          return r;
        },
      },
    ]);
  });

  /** emptyOp = ws "is" ws [ "not" ws ] ( "empty" | "nil" ) */
  public emptyOp = this.RULE("emptyOp", (): { op: MatchOp; span: Span } => {
    this.CONSUME(T.WhiteSpace);
    const is = this.CONSUME(T.Is);
    this.CONSUME2(T.WhiteSpace);
    let negated = false;
    this.OPTION(() => {
      this.CONSUME(T.Not);
      this.CONSUME3(T.WhiteSpace);
      negated = true;
    });
    const t = this.OR([{ ALT: () => this.CONSUME(T.Empty) }, { ALT: () => this.CONSUME(T.Nil) }]);
    return this.ACTION(() => ({ op: `is ${negated ? "not " : ""}${t.image}` as MatchOp, span: { start: is.startOffset, end: end(t) } }));
  });

  /** inOp = ws [ "not" ws ] "in" ws */
  public inOp = this.RULE("inOp", (): { op: MatchOp; span: Span } => {
    this.CONSUME(T.WhiteSpace);
    let start: IToken | undefined;
    this.OPTION(() => {
      start = this.CONSUME(T.Not);
      this.CONSUME2(T.WhiteSpace);
    });
    const t = this.CONSUME(T.In);
    this.CONSUME3(T.WhiteSpace);
    return this.ACTION(() => ({ op: (start ? "not in" : "in") as MatchOp, span: { start: (start ?? t).startOffset, end: end(t) } }));
  });

  /** The selector after `in`: its absence is the reference's "Invalid selector" error. */
  public selectorAfterIn = this.RULE("selectorAfterIn", (): Selector => {
    this.ACTION(() => {
      if (!this.selectorAt(1)) {
        this.fail("invalid-selector", `expected a selector after "in"`, tokenSpan(this.LA(1), this.source));
      }
    });
    return this.SUBRULE(this.selector);
  });

  /** binding = "_" [ws] "," [ws] name | name [ws] "," [ws] ( "_" | name ) | name */
  public binding = this.RULE("binding", (): Binding => {
    return this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Underscore);
          this.OPTION(() => this.CONSUME(T.WhiteSpace));
          this.CONSUME(T.Comma);
          this.OPTION2(() => this.CONSUME2(T.WhiteSpace));
          const value = this.CONSUME(T.Identifier);
          return this.ACTION((): Binding => ({ mode: "value", value: value.image }));
        },
      },
      {
        ALT: () => {
          const firstToken = this.CONSUME2(T.Identifier);
          const first = this.ACTION(() => firstToken.image);
          let binding: Binding = { mode: "default", name: first };
          this.OPTION3({
            GATE: () => this.is(1, T.Comma) || (this.is(1, T.WhiteSpace) && this.is(2, T.Comma)),
            DEF: () => {
              this.OPTION4(() => this.CONSUME3(T.WhiteSpace));
              this.CONSUME2(T.Comma);
              this.OPTION5(() => this.CONSUME4(T.WhiteSpace));
              binding = this.OR2([
                { ALT: (): Binding => { this.CONSUME2(T.Underscore); return { mode: "index", index: first }; } },
                { ALT: (): Binding => { const v = this.CONSUME3(T.Identifier); return this.ACTION(() => ({ mode: "index-value", index: first, value: v.image })); } },
              ]);
            },
          });
          return binding;
        },
      },
    ]);
  });

  /**
   * selector = name { "." name | "." digits | index } | pointer
   * index    = "[" [ws] string [ws] "]"
   */
  public selector = this.RULE("selector", (): Selector => {
    return this.OR([
      {
        GATE: () => this.pointerAt(1),
        ALT: () => {
          const t = this.CONSUME(T.DoubleQuoted);
          return this.ACTION(() => pointerSelector(t));
        },
      },
      {
        ALT: () => {
          const first = this.CONSUME(T.Identifier);
          const segments: Segment[] = [];
          this.ACTION(() => segments.push({ kind: "name", name: first.image, span: spanOf(first) }));
          this.MANY(() => {
            this.OR2([
              {
                ALT: () => {
                  const dot = this.CONSUME(T.Dot);
                  this.OR3([
                    {
                      ALT: () => {
                        const t = this.CONSUME2(T.Identifier);
                        this.ACTION(() => segments.push({ kind: "name", name: t.image, span: { start: dot.startOffset, end: end(t) } }));
                      },
                    },
                    {
                      ALT: () => {
                        const t = this.CONSUME(T.Digits);
                        this.ACTION(() => segments.push({ kind: "index", name: t.image, span: { start: dot.startOffset, end: end(t) } }));
                      },
                    },
                  ]);
                },
              },
              { ALT: () => { const seg = this.SUBRULE(this.indexSegment); this.ACTION(() => segments.push(seg)); } },
            ]);
          });
          return this.ACTION(() => ({
            kind: "selector" as const,
            form: "path" as const,
            segments,
            raw: "",
            span: { start: first.startOffset, end: segments[segments.length - 1]!.span.end },
          }));
        },
      },
    ]);
  });

  /** index = "[" [ws] string [ws] "]" */
  public indexSegment = this.RULE("indexSegment", (): Segment => {
    const open = this.CONSUME(T.LBracket);
    this.OPTION(() => this.CONSUME(T.WhiteSpace));
    this.ACTION(() => {
      const t = this.LA(1);
      if (this.is(1, T.UnterminatedDoubleQuoted) || this.is(1, T.UnterminatedBackQuoted)) this.unterminated(t);
      if (!this.is(1, T.DoubleQuoted) && !this.is(1, T.BackQuoted)) {
        this.fail("invalid-index", `expected a quoted key after "["`, tokenSpan(t, this.source));
      }
    });
    const key = this.OR([{ ALT: () => this.CONSUME(T.DoubleQuoted) }, { ALT: () => this.CONSUME(T.BackQuoted) }]);
    const name = this.ACTION(() => this.stringValue(key));
    this.OPTION2(() => this.CONSUME2(T.WhiteSpace));
    this.ACTION(() => {
      if (!this.is(1, T.RBracket)) {
        this.fail("unclosed-index", `expected "]" to close the "[" at ${posText(this.source, open.startOffset)}`, tokenSpan(this.LA(1), this.source));
      }
    });
    const close = this.CONSUME(T.RBracket);
    return this.ACTION((): Segment => ({ kind: "key", name, raw: key.image, span: { start: open.startOffset, end: end(close) } }));
  });

  /** value = pointer | selector (taken as its text) | number | string */
  public value = this.RULE("value", (): Literal => {
    return this.OR([
      {
        GATE: () => this.pointerAt(1),
        ALT: () => {
          const t = this.CONSUME(T.DoubleQuoted);
          return this.ACTION(() => pointerLiteral(t));
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
    ]);
  });

  /** plainValue = number | string */
  public plainValue = this.RULE("plainValue", (): Literal => {
    return this.OR([
      { ALT: () => this.SUBRULE(this.number) },
      {
        ALT: () => {
          const t = this.OR2([
            { GATE: () => !this.pointerAt(1), ALT: () => this.CONSUME(T.DoubleQuoted) },
            { ALT: () => this.CONSUME(T.BackQuoted) },
          ]);
          return this.ACTION((): Literal => ({ kind: "literal", type: "string", raw: t.image, text: this.stringValue(t), span: spanOf(t) }));
        },
      },
      {
        ALT: () => {
          const t = this.OR3([
            { ALT: () => this.CONSUME(T.UnterminatedDoubleQuoted) },
            { ALT: () => this.CONSUME(T.UnterminatedBackQuoted) },
          ]);
          return this.ACTION(() => this.unterminated(t));
        },
      },
    ]);
  });

  /** number = [ "-" ] digits [ "." digits ]   (followed by whitespace, ")" or the end) */
  public number = this.RULE("number", (): Literal => {
    let minus: IToken | undefined;
    this.OPTION(() => {
      minus = this.CONSUME(T.Minus);
    });
    const int = this.CONSUME(T.Digits);
    let last = int;
    // The fraction is part of the number only when digits follow the dot.
    this.OPTION2({
      GATE: () => this.is(1, T.Dot) && this.is(2, T.Digits),
      DEF: () => {
        this.CONSUME(T.Dot);
        last = this.CONSUME2(T.Digits);
      },
    });
    return this.ACTION((): Literal => {
      const start = (minus ?? int).startOffset;
      // "0" or a run without a leading zero; the reference then requires whitespace, ")" or the end.
      const validEnd = int.image.length > 1 && int.image[0] === "0" ? int.startOffset + 1 : end(last);
      const bad = validEnd !== end(last) || !(this.is(1, T.WhiteSpace) || this.is(1, T.RParen) || this.is(1, EOF));
      if (bad) {
        const next = this.LA(1);
        const stop = next.tokenType !== EOF && next.startOffset === end(last) && next.tokenType !== T.WhiteSpace ? end(next) : end(last);
        const text = this.source.slice(start, stop);
        this.fail("invalid-number", `invalid number literal ${JSON.stringify(text)}: a number is an optional "-", "0" or digits not starting with "0", an optional "." and digits, then whitespace, ")" or the end`, { start, end: stop });
      }
      const raw = this.source.slice(start, end(last));
      return { kind: "literal", type: "number", raw, text: raw, span: { start, end: end(last) } };
    });
  });
}

/** The source position "line:column" of an offset. */
function posText(source: string, offset: number): string {
  let line = 1;
  let col = 1;
  for (let i = 0; i < offset && i < source.length; i++) {
    if (source.charCodeAt(i) === 10) {
      line++;
      col = 1;
    } else col++;
  }
  return `${line}:${col}`;
}

/** The span of a token, or the end of the input for EOF. */
export function tokenSpan(t: IToken, source: string): Span {
  if (t.tokenType === EOF || Number.isNaN(t.startOffset)) return { start: source.length, end: source.length };
  return spanOf(t);
}

function flat(kind: "and" | "or", operands: Expr[]): Expr {
  if (operands.length === 1) return operands[0]!;
  return { kind, operands, span: { start: operands[0]!.span.start, end: operands[operands.length - 1]!.span.end } };
}

function matchNode(op: { op: MatchOp; span: Span }, selector: Selector, value: Literal | undefined, span: Span): MatchExpr {
  return value === undefined
    ? { kind: "match", op: op.op, selector, opSpan: op.span, span }
    : { kind: "match", op: op.op, selector, value, opSpan: op.span, span };
}

function pointerSelector(t: IToken): Selector {
  const path = pointerPath(t.image) ?? [];
  const span = spanOf(t);
  return {
    kind: "selector",
    form: "pointer",
    segments: path.map((name) => ({ kind: "key", name, raw: "", span })),
    raw: t.image,
    span,
  };
}

function pointerLiteral(t: IToken): Literal {
  const path = pointerPath(t.image) ?? [];
  return { kind: "literal", type: "pointer", raw: t.image, text: path.join("/"), span: spanOf(t) };
}

/** A selector written where a value is expected: the reference takes its text (names joined by "."). */
export function wordLiteral(s: Selector): Literal {
  if (s.form === "pointer") return { kind: "literal", type: "pointer", raw: s.raw, text: s.segments.map((x) => x.name).join("/"), span: s.span };
  return { kind: "literal", type: "word", raw: selectorSource(s), text: s.segments.map((x) => x.name).join("."), span: s.span };
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
