/**
 * Candidate fixes for a syntax error, derived from its code, its span and the text: operators from
 * other languages (`&&`, `||`, `!`, `=`, `AND`), bare values the language does not read as one value
 * (`web-1`, `10.0.0.1`), list literals after `in`, single quotes, unclosed strings and parentheses,
 * missing whitespace. `diagnose` keeps only the candidates that, applied, get past the error.
 */
import type { FilterSyntaxError } from "../errors.js";
import { keywordsOf } from "../syntax/words.js";
import { quote } from "./quote.js";
import type { Fix, TextEdit } from "./types.js";

/** Words written in another case are these operators (a capitalised quantifier or `as` may be a field's name). */
const OPERATOR_WORDS: ReadonlySet<string> = new Set(keywordsOf("junction", "negation", "operator", "operand"));

/** What the fixes need to know about a selector written in the text: is it a list? */
export type ListProbe = (selectorText: string) => boolean;

const isSpace = (c: string | undefined): boolean => c === " " || c === "\t" || c === "\r" || c === "\n";

/** Candidate fixes for `error`, best first. */
export function syntaxFixes(text: string, error: FilterSyntaxError, isList: ListProbe): Fix[] {
  const at = error.span.start;
  const c = text[at];
  const fixes: (Fix | undefined)[] = [];
  switch (error.code) {
    case "unmatched-parenthesis":
      fixes.push({ title: 'close the parenthesis: add ")" at the end', edits: [{ start: text.length, end: text.length, insert: ")" }] });
      break;
    case "missing-whitespace":
      fixes.push({ title: "insert a space", edits: [{ start: at, end: at, insert: " " }] });
      break;
    case "unterminated-string":
      if (c === '"' || c === "`") fixes.push({ title: `close the string with ${c}`, edits: [{ start: text.length, end: text.length, insert: c }] });
      break;
    case "unexpected-input":
    case "invalid-number":
    case "invalid-selector":
      fixes.push(...operatorFixes(text, at, error.span.end));
      fixes.push(listFix(text, at, isList));
      fixes.push(singleQuoteFix(text, at));
      fixes.push(bareValueFix(text, at));
      break;
    default:
      break;
  }
  return fixes.filter((f): f is Fix => f !== undefined);
}

/** Replaces `[start, end)` with an operator word, with whitespace on both sides. */
function wordEdit(text: string, start: number, end: number, word: string): TextEdit {
  const before = start > 0 && !isSpace(text[start - 1]) ? " " : "";
  const after = end < text.length && !isSpace(text[end]) ? " " : "";
  return { start, end, insert: `${before}${word}${after}` };
}

/** `&&`, `||`, `!`, `=`, `===`, `AND`, `is null`, a stray `)`. */
function operatorFixes(text: string, at: number, end: number): (Fix | undefined)[] {
  const c = text[at];
  const run = (ch: string) => {
    let e = at;
    while (text[e] === ch) e++;
    return e;
  };
  if (c === "&") return [{ title: `write "and" for "${text.slice(at, run("&"))}"`, edits: [wordEdit(text, at, run("&"), "and")] }];
  if (c === "|") return [{ title: `write "or" for "${text.slice(at, run("|"))}"`, edits: [wordEdit(text, at, run("|"), "or")] }];
  if (c === "!" && text[at + 1] !== "=") return [{ title: 'write "not" for "!"', edits: [wordEdit(text, at, at + 1, "not")] }];
  if (c === "=") {
    if (text[at - 1] === "=") return [{ title: 'remove the extra "="', edits: [{ start: at, end: run("="), insert: "" }] }];
    return [{ title: 'compare with "=="', edits: [{ start: at, end: at + 1, insert: "==" }] }];
  }
  if (c === ")") return [{ title: 'remove the unmatched ")"', edits: [{ start: at, end: at + 1, insert: "" }] }];
  const word = text.slice(at, end);
  const lower = word.toLowerCase();
  if (word !== lower && OPERATOR_WORDS.has(lower)) {
    return [{ title: `write "${lower}" (operators are lower case)`, edits: [{ start: at, end, insert: lower }] }];
  }
  const isNull = /^(is(?:\s+not)?\s+)(null|NULL|Null|None|none|undefined)\b/.exec(text.slice(at));
  if (isNull) {
    const s = at + isNull[1]!.length;
    return [{ title: `write "nil" for "${isNull[2]}"`, edits: [{ start: s, end: s + isNull[2]!.length, insert: "nil" }] }];
  }
  return [];
}

/** `'web'` → `"web"`. */
function singleQuoteFix(text: string, at: number): Fix | undefined {
  if (text[at] !== "'") return undefined;
  const close = text.indexOf("'", at + 1);
  if (close < 0) return undefined;
  const value = text.slice(at + 1, close);
  const quoted = quote(value);
  return { title: `quote with double quotes: ${quoted}`, edits: [{ start: at, end: close + 1, insert: quoted }] };
}

/** Where a bare value run may not extend to the left / right. */
const LEFT_STOP = /[\s()="`'&|]/;
const RIGHT_STOP = /[\s()="`'&|]/;

/**
 * `Name == web-1` → `Name == "web-1"`: the run of characters around the error that sits where a value
 * stands (after `==`, `!=`, `contains`, `matches`, or before `in`), quoted.
 */
function bareValueFix(text: string, at: number): Fix | undefined {
  let left = at;
  while (left > 0 && !LEFT_STOP.test(text[left - 1]!)) left--;
  let right = at;
  while (right < text.length && !RIGHT_STOP.test(text[right]!)) right++;
  if (right <= left) return undefined;
  const before = text.slice(0, left).replace(/\s+$/, "");
  const after = text.slice(right).replace(/^\s+/, "");
  const afterValue = /(?:==|!=)$/.test(before) || /(?:^|[\s(])(?:not\s+)?(?:contains|matches)$/.test(before);
  const beforeIn = /^(?:not\s+)?in\s/.test(after) && right < text.length && isSpace(text[right]);
  if (!afterValue && !beforeIn) return undefined;
  const value = text.slice(left, right);
  if (/^(?:&|\||!|=)/.test(value)) return undefined;
  const quoted = quote(value);
  return { title: `quote the value: ${quoted}`, edits: [{ start: left, end: right, insert: quoted }] };
}

/** One item of a list literal: a quoted string (kept as written), a number, or a bare word (quoted). */
const LIST_ITEM = /\s*("[^"]*"|`[^`]*`|[^\s,\])]+)\s*(,|[\])])/y;

/**
 * `X in ["a", "b"]` → `X == "a" or X == "b"` (`X not in [...]` → `X != "a" and X != "b"`), the language
 * having no list literal. When X is itself a list (`Datacenters in ["dc1", "dc2"]`), the intent is
 * "holds one of": `"dc1" in Datacenters or "dc2" in Datacenters`.
 */
function listFix(text: string, at: number, isList: ListProbe): Fix | undefined {
  const open = text[at];
  if (open !== "[" && open !== "(") return undefined;
  const close = open === "[" ? "]" : ")";
  const head = /(\S+)\s+(not\s+in|in)\s*$/.exec(text.slice(0, at));
  if (!head) return undefined;
  let selector = head[1]!;
  let selStart = head.index;
  while (selector.startsWith("(")) {
    selector = selector.slice(1);
    selStart++;
  }
  if (selector === "" || /^["`]/.test(selector)) return undefined;
  const items: string[] = [];
  let pos = at + 1;
  if (/^\s*[\])]/.test(text.slice(pos))) return undefined;
  for (;;) {
    LIST_ITEM.lastIndex = pos;
    const m = LIST_ITEM.exec(text);
    if (!m) return undefined;
    const raw = m[1]!;
    items.push(/^["`]/.test(raw) || /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/.test(raw) ? raw : quote(raw));
    pos = LIST_ITEM.lastIndex;
    if (m[2] === close) break;
    if (m[2] !== ",") return undefined;
  }
  const negative = head[2] !== "in";
  const list = isList(selector);
  const one = (v: string) => (list ? `${v} ${negative ? "not in" : "in"} ${selector}` : `${selector} ${negative ? "!=" : "=="} ${v}`);
  let replacement = items.map(one).join(negative ? " and " : " or ");
  const whole = text.slice(0, selStart).trim() === "" && text.slice(pos).trim() === "";
  if (items.length > 1 && !whole) replacement = `(${replacement})`;
  return {
    title: `the language has no list literal: write ${replacement}`,
    edits: [{ start: selStart, end: pos, insert: replacement }],
  };
}
