/**
 * `ID == Name`: a bare word is always a literal text, never a value from the data. Warned when the
 * word is a field of the schema or a name bound by `any`/`all`; without a schema, when it is shaped
 * like a path (`a.b`, `a["b"]`) or names the root of a selector used in the expression.
 */
import type { Literal } from "../syntax/ast.js";
import type { Schema } from "../semantics/schema.js";
import { lookup, type Scope } from "../semantics/path.js";
import type { Warning } from "./warning.js";

export function wordIsSelector(value: Literal, schema: Schema | undefined, scope: Scope, selectorRoots: ReadonlySet<string>): Warning | undefined {
  if (value.type !== "word") return undefined;
  const first = /^[A-Za-z][A-Za-z0-9_/]*/.exec(value.raw)?.[0] ?? "";
  let reason: string | undefined;
  if (lookup(scope, first)) reason = `${first} is the name bound by any/all here`;
  else if (schema && Object.hasOwn(schema.fields, first)) reason = `${first} is a field of ${schema.name}`;
  else if (!schema && /[.[]/.test(value.raw)) reason = `it is shaped like a selector path`;
  else if (!schema && selectorRoots.has(first)) reason = `${first} is also used as a selector in this expression`;
  if (reason === undefined) return undefined;
  return {
    code: "word-is-selector",
    summary: `the bare word ${value.raw} is the text ${JSON.stringify(value.text)}, not a value from the data (${reason})`,
    hint: `a value is always a literal: the language cannot compare two values from the data; if the text is meant, quote it: ${JSON.stringify(value.text)}`,
    span: value.span,
    rewrite: { title: `quote the text: ${JSON.stringify(value.text)}`, at: value.span, replace: JSON.stringify(value.text) },
  };
}
