/**
 * What an editor shows over a selector: the selector under a position and the type the schema gives
 * it (bound names of `any`/`all` included), for hovers and completion.
 */
import { FilterError } from "../errors.js";
import { bind, concrete, resolve, type Scope } from "../semantics/path.js";
import { ANY, knownValues, typeName, type Schema, type Type } from "../semantics/schema.js";
import { notRun, type Expr, type Selector, type Span } from "../syntax/ast.js";
import { parse } from "../syntax/parse.js";

/** The selector at a position of the text and its type. */
export interface SelectorInfo {
  /** The selector's text as written. */
  readonly text: string;
  readonly span: Span;
  /** The schema's type of the value it selects (`string`, `list of string`, `map of TaskGroupSummary`, …), `any JSON value` without a schema, or `unknown` past a step the schema does not know. */
  readonly type: string;
  /** When the value is a record: its field names, in the schema's order. */
  readonly fields: readonly string[];
  /** The values the schema lists for it (a string field with known values, or a list of them), else none. */
  readonly values: readonly string[];
}

/**
 * The selector of `text` that holds `offset` (`start <= offset <= end`) and its type against `schema`
 * (plain JSON without one), or undefined when the text does not parse or no selector is there.
 */
export function selectorAt(text: string, offset: number, options: { schema?: Schema | undefined } = {}): SelectorInfo | undefined {
  let ast: Expr;
  try {
    ast = parse(text);
  } catch (e) {
    if (FilterError.is(e)) return undefined;
    throw e;
  }
  const found = findSelector(ast, offset, options.schema ?? ANY, []);
  if (!found) return undefined;
  const type = typeAt(found.selector, options.schema ?? ANY, found.scope);
  const c = type === undefined ? undefined : concrete(type);
  return {
    text: text.slice(found.selector.span.start, found.selector.span.end),
    span: found.selector.span,
    type: type === undefined ? "unknown" : typeName(type),
    fields: c?.kind === "record" ? Object.keys(c.fields) : [],
    values: knownValues(c) ?? (c?.kind === "list" ? knownValues(c.elem) : undefined) ?? [],
  };
}

/** The type of a dotted path of field names (`JobSummary.Summary`) from `schema`, or undefined. */
export function pathType(schema: Schema, path: string): Type | undefined {
  let ast: Expr;
  try {
    ast = parse(`${path} is empty`);
  } catch (e) {
    if (FilterError.is(e)) return undefined;
    throw e;
  }
  return ast.kind === "match" ? typeAt(ast.selector, schema, []) : undefined;
}

function within(span: Span, offset: number): boolean {
  return span.start <= offset && offset <= span.end;
}

/** The type a selector reaches from `root` in `scope`, or undefined when not known. */
function typeAt(sel: Selector, root: Type, scope: Scope): Type | undefined {
  return resolve(sel.segments.map((s) => s.name), root, scope).type;
}

function findSelector(e: Expr, offset: number, schema: Type, scope: Scope): { selector: Selector; scope: Scope } | undefined {
  if (!within(e.span, offset)) return undefined;
  switch (e.kind) {
    case "match":
      return within(e.selector.span, offset) ? { selector: e.selector, scope } : undefined;
    case "not": {
      return findSelector(notRun(e).operand, offset, schema, scope);
    }
    case "and":
    case "or":
      for (const o of e.operands) {
        const f = findSelector(o, offset, schema, scope);
        if (f) return f;
      }
      return undefined;
    case "collection": {
      if (within(e.selector.span, offset)) return { selector: e.selector, scope };
      const over = typeAt(e.selector, schema, scope);
      return findSelector(e.body, offset, schema, [...scope, ...bind(e.binding, e.selector, over)]);
    }
  }
}
