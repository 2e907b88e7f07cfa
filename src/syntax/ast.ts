/**
 * The abstract syntax tree: a readonly discriminated union on `kind`. Every node carries a half-open
 * source span. The tree keeps the surface form the user wrote (`contains` vs `in`, each `not`, the
 * literal's raw text and kind); normalising is the compiler's job.
 */
import type { Span } from "../errors.js";

export type { Span };

/** Match operators, spelled as in the source (`contains` and `in` stay distinct). */
export type MatchOp =
  | "=="
  | "!="
  | "contains"
  | "not contains"
  | "matches"
  | "not matches"
  | "in"
  | "not in"
  | "is empty"
  | "is not empty"
  | "is nil"
  | "is not nil";

/** One step of a selector path. */
export type Segment =
  /** `.Name` or the first name. */
  | { readonly kind: "name"; readonly name: string; readonly span: Span }
  /** `.123`: a decimal index (also a map key "123"). */
  | { readonly kind: "index"; readonly name: string; readonly span: Span }
  /** `["key"]` or `` [`key`] ``: `raw` is the quoted text as written, `name` its value. */
  | { readonly kind: "key"; readonly name: string; readonly raw: string; readonly span: Span };

/** A path into the datum. */
export interface Selector {
  readonly kind: "selector";
  /** `path`: `A.b["c"].0`; `pointer`: a double-quoted JSON Pointer such as `"/a/b/0"`. */
  readonly form: "path" | "pointer";
  /** Path steps; for a pointer, one `key` segment per `/` part (with `~0`/`~1` unescaped). */
  readonly segments: readonly Segment[];
  /** The source text of a pointer selector (with quotes); "" for a path. */
  readonly raw: string;
  readonly span: Span;
}

/**
 * A literal value. `text` is the string the reference library compares with (it converts the text to
 * the data's type at match time); `raw` is the source text.
 * - `number`: `-1.5`
 * - `string`: `"a\n"` (Go escapes) or `` `raw` ``
 * - `pointer`: a double-quoted JSON-Pointer-shaped string, `"/x/y"`, whose text is `x/y` (a quirk of
 *   the reference, which reads it as a selector and prints it back without its leading slash)
 * - `word`: a bare selector-shaped word, `a.b["c"]`, taken as its text `a.b.c`
 *
 * Strings are bytes, as in the reference: where an escape makes the value invalid UTF-8 (`"\xff"`),
 * `text` holds each stray byte as the lone surrogate U+DC80 + (byte − 0x80) (see syntax/strings.ts:
 * `hasRawBytes`, `utf8Bytes`); such a text equals no decoded JSON string. Key segments likewise.
 */
export interface Literal {
  readonly kind: "literal";
  readonly type: "number" | "string" | "pointer" | "word";
  readonly raw: string;
  readonly text: string;
  readonly span: Span;
}

/** `S op V`, `S is empty`, `V in S`, ... */
export interface MatchExpr {
  readonly kind: "match";
  readonly op: MatchOp;
  readonly selector: Selector;
  /** Absent for the `is ...` forms. */
  readonly value?: Literal;
  /** Span of the operator words. */
  readonly opSpan: Span;
  readonly span: Span;
}

export interface NotExpr {
  readonly kind: "not";
  readonly operand: Expr;
  readonly span: Span;
}

/** An n-ary `and` (at least two operands), flat: `a and b and c` is one node. */
export interface AndExpr {
  readonly kind: "and";
  readonly operands: readonly Expr[];
  readonly span: Span;
}

/** An n-ary `or` (at least two operands), flat. */
export interface OrExpr {
  readonly kind: "or";
  readonly operands: readonly Expr[];
  readonly span: Span;
}

/** How `as ...` binds names in a collection expression. */
export type Binding =
  /** `as v`: the element of a list, the key of a map. */
  | { readonly mode: "default"; readonly name: string }
  /** `as i, _`: the index of a list, the key of a map. */
  | { readonly mode: "index"; readonly index: string }
  /** `as _, v`: the element or map value. */
  | { readonly mode: "value"; readonly value: string }
  /** `as k, v`: both. */
  | { readonly mode: "index-value"; readonly index: string; readonly value: string };

/** `any S as v { E }` / `all S as k, v { E }`. */
export interface CollectionExpr {
  readonly kind: "collection";
  readonly quantifier: "any" | "all";
  readonly selector: Selector;
  readonly binding: Binding;
  readonly body: Expr;
  readonly span: Span;
}

export type Expr = MatchExpr | NotExpr | AndExpr | OrExpr | CollectionExpr;

/** A parsed expression. */
export type Ast = Expr;

/**
 * A run of `not`s (the reference accepts tens of thousands) as the expression it negates and whether
 * it negates it (an odd count), walked without recursion.
 */
export function notRun(e: Expr): { readonly operand: Exclude<Expr, NotExpr>; readonly negated: boolean } {
  let x = e;
  let negated = false;
  while (x.kind === "not") {
    x = x.operand;
    negated = !negated;
  }
  return { operand: x, negated };
}

/**
 * The operands of the top-level `and`, nested `and`s flattened, in order (their answers and errors are
 * the chain's, in the same order); the expression itself otherwise.
 */
export function conjuncts(e: Expr): Expr[] {
  const out: Expr[] = [];
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    if (x.kind === "and") for (let i = x.operands.length - 1; i >= 0; i--) stack.push(x.operands[i]!);
    else out.push(x);
  }
  return out;
}
