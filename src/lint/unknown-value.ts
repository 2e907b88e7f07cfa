/**
 * `Status == "RUNNING"`: a string field whose schema lists the values it takes (the scheduler's
 * constants, `t.enumString`, a schema file's `enum`) compared with a text that is none of them. The
 * reference compares bytes, case-sensitively, and accepts any text, so this is a warning: the
 * comparison answers as if no record held the value. The fix is the listed spelling when the text
 * differs only in case, or the closest value by edit distance.
 *
 * Checked: `==`/`!=` on such a string, `in`/`contains` (and their negations) on a list of them (element
 * equality), and `in`/`contains` on such a string (a substring: warned when no value contains the
 * text). `matches` is not checked; neither is the empty text, the zero value of an absent field.
 */
import type { Literal, MatchExpr } from "../syntax/ast.js";
import { KEYWORDS } from "../syntax/words.js";
import { bytesInclude } from "../syntax/strings.js";
import { quote } from "../syntax/write-literal.js";
import { didYouMean } from "../semantics/check.js";
import { concrete } from "../semantics/path.js";
import { knownValues, type Type } from "../semantics/schema.js";
import { isName, selectorText } from "./text.js";
import type { Warning } from "./warning.js";

/** How many values a message names before it writes "…". */
const SHOWN = 10;

/**
 * The `unknown-value` warning of a match whose selector reaches `type`, or undefined. `isFree(word)`
 * says whether a bare word would read as plain text here (not a field nor a bound name), so that a
 * fix of a bare word stays a bare word only when no other warning would follow.
 */
export function unknownValue(m: MatchExpr, type: Type | undefined, isFree: (word: string) => boolean): Warning | undefined {
  const value = m.value;
  if (value === undefined || value.text === "" || type === undefined) return undefined;
  // A bare word that names a field or a bound name is the word-is-selector warning's.
  if (value.type === "word" && !isFree(/^[A-Za-z][A-Za-z0-9_/]*/.exec(value.raw)?.[0] ?? "")) return undefined;
  const c = concrete(type);
  const membership = m.op === "in" || m.op === "not in" || m.op === "contains" || m.op === "not contains";
  const negated = m.op === "!=" || m.op === "not in" || m.op === "not contains";
  const field = selectorText(m.selector);
  let values: readonly string[] | undefined;
  let form: "string" | "substring" | "list" = "string";
  if (m.op === "==" || m.op === "!=") values = knownValues(c);
  else if (membership && c.kind === "string") [values, form] = [c.values, "substring"];
  else if (membership && c.kind === "list") [values, form] = [knownValues(c.elem), "list"];
  if (values === undefined) return undefined;

  const text = value.text;
  const listed = `${values.slice(0, SHOWN).map((v) => JSON.stringify(v)).join(", ")}${values.length > SHOWN ? ", …" : ""}`;
  const takes = form === "list" ? `the elements of ${field} take (${listed})` : `${field} takes (${listed})`;
  const whose = form === "list" ? `whose ${field} holds only them` : `whose ${field} is one of them`;
  const outcome = `this ${negated ? "holds for every" : "matches no"} record ${whose}`;
  let summary: string;
  let wanted: string | undefined;
  if (form === "substring") {
    if (values.some((v) => bytesInclude(v, text))) return undefined;
    const within = caseVariantWithin(text, values);
    wanted = within?.spelt;
    summary =
      within === undefined
        ? `no value ${takes} contains ${JSON.stringify(text)}: ${outcome}`
        : `no value ${takes} contains ${JSON.stringify(text)}: the test is case-sensitive, and ${JSON.stringify(within.value)} holds it as ${JSON.stringify(within.spelt)}`;
  } else {
    if (values.includes(text)) return undefined;
    const lower = text.toLowerCase();
    const sameLetters = values.find((v) => v.toLowerCase() === lower);
    // An edit-distance guess only for a text of a few characters (`zz` is not a misspelt `c`).
    wanted = sameLetters ?? (text.length >= 3 ? didYouMean(text, values) : undefined);
    summary =
      sameLetters !== undefined
        ? `${JSON.stringify(text)} is not one of the values ${takes}: the comparison is case-sensitive, and the value is spelt ${JSON.stringify(sameLetters)}`
        : `${JSON.stringify(text)} is not one of the values ${takes}${wanted === undefined ? `: ${outcome}` : `; did you mean ${JSON.stringify(wanted)}?`}`;
  }
  if (wanted === undefined) {
    const hint = form === "substring" ? `test for a part of one of the values: ${listed}` : `compare with one of the values: ${listed}`;
    return { code: "unknown-value", summary, hint, span: value.span };
  }
  const replace = literalLike(value, wanted, isFree);
  return { code: "unknown-value", summary, hint: `write ${replace}`, span: value.span, rewrite: { title: `write ${replace}`, at: value.span, replace } };
}

/**
 * The spelling of `text` inside one of `values` when it appears there only in another case (`RUN` in
 * `running`: `run`); undefined when none holds it or lower-casing changes a length.
 */
function caseVariantWithin(text: string, values: readonly string[]): { readonly value: string; readonly spelt: string } | undefined {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return undefined;
  for (const value of values) {
    const lv = value.toLowerCase();
    if (lv.length !== value.length) continue;
    const at = lv.indexOf(lower);
    if (at >= 0) return { value, spelt: value.slice(at, at + text.length) };
  }
  return undefined;
}

/**
 * A literal of `text` written as `like` was: a bare word stays a bare word when `text` reads as one
 * (a name, no keyword, free here), backticks stay backticks when `text` holds none; otherwise the
 * double-quoted literal of `quote`.
 */
function literalLike(like: Literal, text: string, isFree: (word: string) => boolean): string {
  if (like.type === "word" && isName(text) && !Object.hasOwn(KEYWORDS, text) && isFree(text)) return text;
  if (like.type === "string" && like.raw.startsWith("`") && !text.includes("`")) return `\`${text}\``;
  return quote(text);
}
