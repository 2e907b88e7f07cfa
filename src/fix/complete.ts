/**
 * `completionsAt(text, offset, { schema })`: what an editor offers at a position of a filter being
 * typed, which usually does not parse yet. The tokens before the position (the lexer's, which never
 * fails) are read by a small state machine that knows where an expression, a selector, an operator or
 * a value is expected; the types come from `selectorAt`, asked about a small expression made of the
 * enclosing `any`/`all` headers and the selector, so bound names are typed as `selectorAt` types them.
 */
import { tokenMatcher, type IToken, type TokenType } from "chevrotain";
import type { Schema } from "../semantics/schema.js";
import * as T from "../syntax/tokens.js";
import { keywordsOf } from "../syntax/words.js";
import { selectorAt } from "./hover.js";

/** One thing to offer. */
export interface Completion {
  /** What the list shows: a field name, a bound name, a keyword or an operator (`is not empty`). */
  readonly label: string;
  /** `field` of a record, `variable` (a name bound by `any`/`all`), `keyword` (`not`, `any`, `and`, `as`, …), `operator` (`==`, `contains`, `is empty`, …) or `value` (one the schema lists for the field compared, quoted). */
  readonly kind: "field" | "variable" | "keyword" | "operator" | "value";
  /** For fields and bound names: the schema's type (`list of string`, `record JobSummary`, `any JSON value`). */
  readonly detail?: string;
  /** The text that replaces `[from, to)` of the result: the label, or `["key"]` for a field whose name is not a plain name. */
  readonly insert: string;
  /** Where this item's replacement starts when not at the result's `from`: a key step `["a b"]` replaces the dot before it. */
  readonly from?: number;
}

/** The result of `completionsAt`. */
export interface Completions {
  /** The start of the word being typed (UTF-16 offset): an editor filters `items` by `text.slice(from, to)`. */
  readonly from: number;
  /** The position asked about. */
  readonly to: number;
  /** Best first: fields and bound names, then keywords; for an operator position, the operators. */
  readonly items: readonly Completion[];
}

/** Options of `completionsAt`. */
export interface CompleteOptions {
  /** The record type of the data (`schemas.job`, …); without one, plain JSON (no fields are known). */
  readonly schema?: Schema | undefined;
}

/** The operators offered after a selector, in the order a person reaches for them. */
const OPERATORS = ["==", "!=", "contains", "not contains", "matches", "not matches", "in", "not in", "is empty", "is not empty", "is nil", "is not nil"] as const;

/** Where the text before the position stands. */
type State =
  /** An expression may start: a selector, a value of `value in selector`, `not`, `(`, `any`/`all`. */
  | "expression"
  /** After a selector (or a bare word, which `in` then makes a value): an operator. */
  | "operator"
  /** After `Selector not`: `contains`, `matches` or `in`. */
  | "operator-not"
  /** After `is`: `empty`, `nil`, `not`. */
  | "is"
  /** After `is not`: `empty`, `nil`. */
  | "is-not"
  /** After `==`, `contains`, …: a value (nothing is offered). */
  | "value"
  /** After a quoted or number value at the start: `in`, `not in`. */
  | "value-in"
  /** After `value not`: `in`. */
  | "value-not"
  /** After `in`: a selector. */
  | "selector"
  /** After `any`/`all`: the collection's selector. */
  | "collection"
  /** After `any S`: `as`. */
  | "as"
  /** In the names of `as …` (nothing is offered). */
  | "binding"
  /** After a whole match or `)`/`}`: `and`, `or`. */
  | "junction"
  /** Text the machine cannot follow (nothing is offered). */
  | "lost";

/** An enclosing `any`/`all`: the header as written, to type its bound names. */
interface Frame {
  readonly header: string;
  readonly names: readonly string[];
}

/**
 * What to offer at `offset` of `text` (UTF-16 offsets; the text need not parse):
 * - at the start of an expression (after `and`, `or`, `not`, `(`, `{`): the schema's fields, the names
 *   bound by the enclosing `any`/`all`, `not`, `any`, `all`;
 * - after `X.`: the fields of X's record type (X may start with a bound name);
 * - after a selector: the operators (`==`, `contains`, `is empty`, …), after `is`/`not` their rest;
 * - after a whole match: `and`, `or`; after `any X`: `as`.
 *
 * ```ts
 * completionsAt("JobSummary.Ch", 13, { schema: schemas.job })
 * // { from: 11, to: 13, items: [{ label: "JobID", kind: "field", detail: "string", insert: "JobID" }, …] }
 * ```
 */
export function completionsAt(text: string, offset: number, options: CompleteOptions = {}): Completions {
  const to = Math.max(0, Math.min(offset, text.length));
  // A double-quoted value being typed (its closing quote not yet there) is replaced whole.
  const quoted = openQuote(text.slice(0, to));
  if (quoted !== undefined) {
    const before = completionsAt(text.slice(0, quoted), quoted, options);
    return { from: quoted, to, items: before.items.filter((item) => item.kind === "value") };
  }
  const lexed = T.lexer.tokenize(text.slice(0, to));
  // A character no token matches (`&&`): the text is not one the machine can follow.
  if (lexed.errors.length > 0) return { from: to, to, items: [] };
  const tokens = lexed.tokens;
  // The selector being typed: the run of selector tokens that touch each other and the position.
  let runStart = tokens.length;
  while (runStart > 0 && isSelectorPart(tokens[runStart - 1]!) && tokenEnd(tokens[runStart - 1]!) === (runStart === tokens.length ? to : tokens[runStart]!.startOffset)) runStart--;
  // A run starts with a name (a selector's first step); anything else before it is not part of it.
  while (runStart < tokens.length && !tokenMatcher(tokens[runStart]!, T.Identifier)) runStart++;
  const run = tokens.slice(runStart);
  const last = run[run.length - 1];
  let from = to;
  let base: string | undefined;
  if (last !== undefined) {
    if (tokenMatcher(last, T.Dot)) base = text.slice(run[0]!.startOffset, last.startOffset);
    else if (tokenMatcher(last, T.Identifier)) {
      from = last.startOffset;
      const dot = run[run.length - 2];
      if (dot !== undefined && tokenMatcher(dot, T.Dot)) base = text.slice(run[0]!.startOffset, dot.startOffset);
    }
    // A run that ends in a digit or `]` is a whole selector: what follows it is decided by the state.
  }
  const wholeRun = last !== undefined && base === undefined && from === to;
  const { state, frames } = follow(text, wholeRun ? tokens : tokens.slice(0, runStart));
  const schema = options.schema;
  const items: Completion[] = [];
  const fieldsOf = (path: string | undefined) => fieldItems(frames, path, schema, from);
  const compared = state === "value" && !wholeRun ? comparedSelector(text, tokens.slice(0, runStart)) : undefined;
  switch (wholeRun ? afterSelector(state) : state) {
    case "expression":
      if (base !== undefined) items.push(...fieldsOf(base));
      else items.push(...boundItems(frames, schema), ...fieldsOf(undefined), ...words(keywordsOf("negation", "quantifier")));
      break;
    case "collection":
    case "selector":
      if (base !== undefined) items.push(...fieldsOf(base));
      else items.push(...boundItems(frames, schema), ...fieldsOf(undefined));
      break;
    case "operator":
      items.push(...OPERATORS.map((op): Completion => ({ label: op, kind: "operator", insert: op })));
      break;
    case "operator-not":
      items.push(...operators(["contains", "matches", "in"]));
      break;
    case "is":
      items.push(...operators(["empty", "not empty", "nil", "not nil"]));
      break;
    case "is-not":
      items.push(...operators(["empty", "nil"]));
      break;
    case "value-in":
      items.push(...operators(["in", "not in"]));
      break;
    case "value-not":
      items.push(...operators(["in"]));
      break;
    case "as":
      items.push(...words(["as"]));
      break;
    case "junction":
      items.push(...words(keywordsOf("junction")));
      break;
    case "value":
      if (compared !== undefined) {
        const info = typeAt(frames, compared, schema);
        for (const v of info?.values ?? []) items.push({ label: JSON.stringify(v), kind: "value", detail: info!.type, insert: JSON.stringify(v) });
      }
      break;
    default:
      break;
  }
  return { from, to, items };
}

/** Where a double-quoted literal that is still open starts (an odd count of unescaped quotes), if one does. */
function openQuote(text: string): number | undefined {
  let open: number | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (open !== undefined && c === "\\") i++;
    else if (c === '"') open = open === undefined ? i : undefined;
    else if (c === "`" && open === undefined) {
      // A raw string: no escapes, and no double quote ends it.
      const end = text.indexOf("`", i + 1);
      if (end < 0) return undefined;
      i = end;
    }
  }
  return open;
}

/** The selector a value is compared with: the selector tokens before the operator that ends `tokens` (`S ==`, `S not contains`). */
function comparedSelector(text: string, tokens: readonly IToken[]): string | undefined {
  let i = tokens.length - 1;
  if (i >= 0 && !(tokenMatcher(tokens[i]!, T.EqualityOperator) || tokenMatcher(tokens[i]!, T.TextOperator))) return undefined;
  i--;
  if (i >= 0 && tokenMatcher(tokens[i]!, T.Not)) i--;
  const end = i;
  while (i >= 0 && isSelectorPart(tokens[i]!) && (i === end || tokenEnd(tokens[i]!) === tokens[i + 1]!.startOffset)) i--;
  if (i === end) return undefined;
  return text.slice(tokens[i + 1]!.startOffset, tokenEnd(tokens[end]!));
}

/** The state after a whole selector typed in the state before it. */
function afterSelector(state: State): State {
  switch (state) {
    case "expression":
      return "operator";
    case "collection":
      return "as";
    case "selector":
    case "value":
      return "junction";
    default:
      return "lost";
  }
}

function operators(labels: readonly string[]): Completion[] {
  return labels.map((label) => ({ label, kind: "operator", insert: label }));
}

function words(labels: readonly string[]): Completion[] {
  return labels.map((label) => ({ label, kind: "keyword", insert: label }));
}

function tokenEnd(t: IToken): number {
  return t.startOffset + t.image.length;
}

const SELECTOR_PARTS: readonly TokenType[] = [T.Identifier, T.Dot, T.Digits, T.LBracket, T.RBracket, T.QuotedKey, T.Underscore];

function isSelectorPart(t: IToken): boolean {
  return SELECTOR_PARTS.some((type) => tokenMatcher(t, type));
}

/**
 * Follows the tokens: the state at their end and the enclosing `any`/`all`. Each selector (or value)
 * is one run of touching selector tokens; whitespace is where tokens do not touch.
 */
function follow(text: string, tokens: readonly IToken[]): { state: State; frames: Frame[] } {
  let state: State = "expression";
  /** Open `(` (undefined) and `{` (its frame), innermost last. */
  const open: (Frame | undefined)[] = [];
  let header: { start: number; names: string[] } | undefined;
  let i = 0;
  /** Skips the run of touching selector tokens that starts at `i`. */
  const skipSelector = () => {
    i++;
    while (i < tokens.length && tokens[i]!.startOffset === tokenEnd(tokens[i - 1]!) && isSelectorPart(tokens[i]!)) i++;
  };
  while (i < tokens.length) {
    const t = tokens[i]!;
    const is = (type: TokenType) => tokenMatcher(t, type);
    switch (state) {
      case "expression":
      case "selector":
      case "collection":
        if (state === "expression" && is(T.Not) && followedBySpace(text, t)) state = "expression";
        else if (state === "expression" && is(T.LParen)) open.push(undefined);
        else if (state === "expression" && is(T.Quantifier) && followedBySpace(text, t)) {
          state = "collection";
          header = { start: t.startOffset, names: [] };
        } else if (is(T.Identifier)) {
          skipSelector();
          state = state === "expression" ? "operator" : state === "collection" ? "as" : "junction";
          continue;
        } else if (state === "expression" && (is(T.QuotedKey) || is(T.Digits) || is(T.Minus))) {
          // A plain value first: `"dc1" in Datacenters`, `-1 in Ports`.
          if (is(T.Minus)) i++;
          while (i + 1 < tokens.length && tokens[i + 1]!.startOffset === tokenEnd(tokens[i]!) && (tokenMatcher(tokens[i + 1]!, T.Digits) || tokenMatcher(tokens[i + 1]!, T.Dot))) i++;
          state = "value-in";
        } else if (state === "selector" && is(T.QuotedKey)) state = "junction";
        else return { state: "lost", frames: [] };
        break;
      case "operator":
        if (is(T.EqualityOperator) || is(T.TextOperator)) state = "value";
        else if (is(T.In)) state = "selector";
        else if (is(T.Not)) state = "operator-not";
        else if (is(T.Is)) state = "is";
        else return { state: "lost", frames: [] };
        break;
      case "operator-not":
        if (is(T.TextOperator)) state = "value";
        else if (is(T.In)) state = "selector";
        else return { state: "lost", frames: [] };
        break;
      case "is":
        if (is(T.Not)) state = "is-not";
        else if (is(T.Emptiness)) state = "junction";
        else return { state: "lost", frames: [] };
        break;
      case "is-not":
        if (is(T.Emptiness)) state = "junction";
        else return { state: "lost", frames: [] };
        break;
      case "value":
        if (is(T.Minus)) break;
        if (is(T.Identifier)) {
          skipSelector();
          state = "junction";
          continue;
        }
        if (is(T.Digits)) {
          while (i + 1 < tokens.length && tokens[i + 1]!.startOffset === tokenEnd(tokens[i]!) && (tokenMatcher(tokens[i + 1]!, T.Digits) || tokenMatcher(tokens[i + 1]!, T.Dot))) i++;
          state = "junction";
        } else if (is(T.QuotedKey)) state = "junction";
        else return { state: "lost", frames: [] };
        break;
      case "value-in":
        if (is(T.In)) state = "selector";
        else if (is(T.Not)) state = "value-not";
        else return { state: "lost", frames: [] };
        break;
      case "value-not":
        if (is(T.In)) state = "selector";
        else return { state: "lost", frames: [] };
        break;
      case "as":
        if (is(T.As)) state = "binding";
        else return { state: "lost", frames: [] };
        break;
      case "binding":
        if (is(T.Identifier)) header?.names.push(t.image);
        else if (is(T.LBrace) && header !== undefined) {
          open.push({ header: text.slice(header.start, tokenEnd(t)), names: header.names });
          header = undefined;
          state = "expression";
        } else if (!is(T.Comma) && !is(T.Underscore)) return { state: "lost", frames: [] };
        break;
      case "junction":
        if (is(T.And) || is(T.Or)) state = "expression";
        else if ((is(T.RParen) || is(T.RBrace)) && open.length > 0) open.pop();
        else return { state: "lost", frames: [] };
        break;
      default:
        return { state: "lost", frames: [] };
    }
    i++;
  }
  return { state, frames: open.filter((f): f is Frame => f !== undefined) };
}

/** `not`, `any`, `all` are words only when whitespace follows them (else they are field names). */
function followedBySpace(text: string, t: IToken): boolean {
  const c = text.charCodeAt(tokenEnd(t));
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 40 /* ( */;
}

/** A plain name as a selector step writes it. */
const PLAIN_NAME = /^[A-Za-z][A-Za-z0-9_/]*$/;

/** `selectorAt` asked about `selector` inside the enclosing headers. */
function typeAt(frames: readonly Frame[], selector: string, schema: Schema | undefined): ReturnType<typeof selectorAt> {
  const prefix = frames.map((f) => `${f.header} `).join("");
  const probe = `${prefix}${selector} is empty${" }".repeat(frames.length)}`;
  return selectorAt(probe, prefix.length + selector.length, { schema });
}

/** The fields of the record at `path` (the root record without one), each with its type. */
function fieldItems(frames: readonly Frame[], path: string | undefined, schema: Schema | undefined, from: number): Completion[] {
  let names: readonly string[];
  if (path === undefined) names = schema === undefined ? [] : Object.keys(schema.fields);
  else names = typeAt(frames, path, schema)?.fields ?? [];
  const out: Completion[] = [];
  for (const name of names) {
    const plain = PLAIN_NAME.test(name);
    // A name that is not plain is a key step (`["a b"]`), which cannot start a selector.
    if (!plain && path === undefined) continue;
    const step = plain ? name : `[${JSON.stringify(name)}]`;
    const selector = path === undefined ? step : plain ? `${path}.${step}` : `${path}${step}`;
    const type = typeAt(frames, selector, schema)?.type;
    // A key step replaces the dot before it (`X.` becomes `X["a b"]`).
    out.push({ label: name, kind: "field", ...(type === undefined ? {} : { detail: type }), insert: step, ...(plain ? {} : { from: from - 1 }) });
  }
  return out;
}

/** The names the enclosing `any`/`all` bind (innermost first; `_` binds nothing), each with its type. */
function boundItems(frames: readonly Frame[], schema: Schema | undefined): Completion[] {
  const out: Completion[] = [];
  const seen = new Set<string>();
  for (let f = frames.length - 1; f >= 0; f--) {
    for (const name of frames[f]!.names) {
      if (seen.has(name)) continue;
      seen.add(name);
      const type = typeAt(frames, name, schema)?.type;
      out.push({ label: name, kind: "variable", ...(type === undefined ? {} : { detail: type }), insert: name });
    }
  }
  return out;
}
