/**
 * Static checks against a schema (or `any`, for plain JSON): an unknown field (with a did-you-mean), a
 * match whose operator cannot apply to the field's type or whose literal cannot convert to it (when the
 * selector cannot end in a missing map key, which would answer without error), and an invalid regular
 * expression (certain when no fixed answer for a missing last key can skip it; in plain JSON a missing
 * top-level key is an error, so `x matches "("` fails on every datum).
 *
 * Each finding says whether it fails on every record (`alwaysFails`): the match is evaluated for every
 * record (it is not behind a short-circuit or inside a collection body) and fails whenever it is.
 * `compile` rejects only those; the others keep the reference's lazy behaviour and are for linters.
 */
import type { FilterTypeError, Span, TypeErrorCode, TypeErrorDetail } from "../errors.js";
import { typeError, type TypeFacts } from "../messages.js";
import { notRun, type CollectionExpr, type Expr, type MatchExpr, type Selector } from "../syntax/ast.js";
import { selectorSource } from "../syntax/print.js";
import { compilePattern } from "./pattern.js";
import { OPERATORS } from "./operators.js";
import { impossibleOn } from "./table.js";
import { typeName, type Type } from "./schema.js";
import { bind, concrete, placeholderClash, resolve as resolvePath, type Scope } from "./path.js";
import { literalValue } from "./values.js";

/** Options of the check. */
export interface CheckOptions {
  /** With an unknown value for missing keys, unknown fields are not errors. */
  readonly unknownValue?: boolean;
}

/** All static type errors of `ast` against `schema`, in source order. */
export function checkAst(ast: Expr, source: string, schema: Type, options: CheckOptions = {}): FilterTypeError[] {
  const errors: FilterTypeError[] = [];
  return staticErrors(ast, source, schema, options, (_span, make) => errors.push(make())) ? errors : [];
}

/** The spans of the static type errors of `ast`: `checkAst(…)`'s, without building the errors (their messages, suggestions and stacks). */
export function staticErrorSpans(ast: Expr, source: string, schema: Type, options: CheckOptions = {}): Span[] {
  const spans: Span[] = [];
  return staticErrors(ast, source, schema, options, (span) => spans.push(span)) ? spans : [];
}

/**
 * Finds the static type errors of `ast`, in source order, and gives `found` the way to build each.
 * False when collections nest too deep to check (then there are none to report).
 */
function staticErrors(ast: Expr, source: string, schema: Type, options: CheckOptions, found: (span: Span, make: () => FilterTypeError) => void): boolean {
  /** Whether the node being checked is evaluated for every record. */
  let always = true;
  const report = <C extends TypeErrorCode>(detail: Extract<TypeErrorDetail, { readonly code: C }>, facts: TypeFacts<C>, span: Span, suggestion?: string, certain = always) =>
    found(span, () => typeError(detail, facts, source, span, suggestion, certain));
  const visit = (e: Expr, scope: Scope): void => {
    switch (e.kind) {
      case "not": {
        return visit(notRun(e).operand, scope);
      }
      case "and":
      case "or": {
        const outer = always;
        const operands = e.operands;
        for (let i = 0; i < operands.length; i++) {
          always = outer && i === 0;
          visit(operands[i]!, scope);
        }
        always = outer;
        return;
      }
      case "match": {
        const target = resolve(e.selector, scope);
        checkMatch(e, target);
        if (e.op === "matches" || e.op === "not matches") {
          const p = compilePattern(e.value!.text);
          if (p.error !== undefined) {
            // The pattern is compiled whenever a value reaches the match; only a fixed answer for a
            // missing last key skips it (and with an unknown value, nothing is missing).
            const reached = options.unknownValue === true || (target !== undefined && !target.mayMiss);
            const facts = { pattern: p.source, reason: p.error };
            report({ code: "invalid-regex", ...facts }, facts, e.value!.span, undefined, always && reached);
          }
        }
        return;
      }
      case "collection":
        visitCollection(e, scope);
        return;
    }
  };

  /** The static type a selector reaches, whether it can end in a missing key, or undefined if unknown. */
  const resolve = (sel: Selector, scope: Scope): { type: Type; mayMiss: boolean } | undefined => {
    const path = resolvePath(sel.segments.map((s) => s.name), schema, scope);
    if (path.bound !== undefined && path.bound.type === undefined) return undefined;
    const i = path.failsAt;
    if (i !== undefined) {
      const step = path.steps[i]!;
      const at = i + path.taken;
      const seg = sel.segments[at]!;
      const span = sel.form === "pointer" ? sel.span : seg.span;
      const c = concrete(step.from!);
      if (step.failure === "unknown-field" && c.kind === "record") {
        if (!options.unknownValue) {
          const certain = always;
          found(span, () => {
            const suggestion = didYouMean(seg.name, Object.keys(c.fields));
            const facts = { name: seg.name, record: c.name, suggestion };
            return typeError({ code: "unknown-field", field: seg.name, record: c.name }, facts, source, span, suggestion, certain);
          });
        }
      } else if (step.failure === "invalid-index") {
        // A list is walked by index: a step that is not an integer fails wherever it is reached.
        const list = selectorSource({ ...sel, segments: sel.segments.slice(0, at) });
        report({ code: "invalid-index", selector: list, type: c, step: seg.name }, { list, type: typeName(c), name: seg.name }, span);
      } else {
        const selector = selectorSource({ ...sel, segments: sel.segments.slice(0, at) });
        report({ code: "not-a-record", selector, type: c, step: seg.name }, { selector, type: typeName(c), name: seg.name }, sel.span);
      }
      return undefined;
    }
    // Past an `any`, the last step may be a key missing from a map, unless it is the top level of
    // plain JSON, where a missing key is an error; with an unknown value, nothing is missing.
    return { type: path.type!, mayMiss: options.unknownValue === true || path.mayMiss };
  };

  const checkMatch = (e: MatchExpr, target: { type: Type; mayMiss: boolean } | undefined): void => {
    if (!target || target.mayMiss) return;
    const lit = literalValue(e.value?.text ?? "");
    const why = impossibleOn(OPERATORS[e.op].base, target.type, lit);
    if (why === undefined) return;
    const selector = selectorSource(e.selector);
    if (why.problem === "invalid-literal") {
      const type: Type = { kind: why.target };
      report({ code: "invalid-literal", selector, literal: lit.text, type }, { literal: lit.text, type: typeName(type), selector }, e.value?.span ?? e.span);
    } else {
      const nullable = target.type.kind === "pointer";
      report(
        { code: "operator-not-applicable", selector, type: concrete(target.type), nullable, operator: e.op },
        { selector, type: typeName(target.type), nullable, op: e.op, needs: why.needs },
        e.opSpan,
      );
    }
  };

  const visitCollection = (e: CollectionExpr, scope: Scope): void => {
    const target = resolve(e.selector, scope);
    if (target) {
      const c = concrete(target.type);
      if (c.kind !== "list" && c.kind !== "map" && c.kind !== "any" && !target.mayMiss) {
        const selector = selectorSource(e.selector);
        const detail = { code: "operator-not-applicable", selector, type: c, nullable: target.type.kind === "pointer", operator: e.quantifier } as const;
        report(detail, { selector, type: typeName(target.type), quantifier: e.quantifier }, e.selector.span);
      }
    }
    // `any k as k, v` and `any S as a, a`: reading the value fails, but only where the body reads it
    // (not on every record).
    const both = placeholderClash(e.binding, e.selector).both;
    const names = bind(e.binding, e.selector, target?.type).map((n) => (both && n.role === "value" ? { ...n, type: undefined } : n));
    const inner = [...scope, ...names];
    // The body runs once per element: possibly never.
    const outer = always;
    always = false;
    visit(e.body, inner);
    always = outer;
  };

  try {
    visit(ast, []);
  } catch (e) {
    // Collections nested beyond what the reference's parse budget allows: no static checks (the
    // evaluators, which do not recurse, still report every error at evaluation).
    if (e instanceof RangeError) return false;
    throw e;
  }
  return true;
}

/** The closest candidate to `name` (case-insensitive equality first, then edit distance ≤ 2). */
export function didYouMean(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const exact = candidates.find((c) => c.toLowerCase() === lower);
  if (exact) return exact;
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of candidates) {
    const d = distance(lower, c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  return best;
}

/** Damerau–Levenshtein distance (optimal string alignment), so `Stauts` is one step from `Status`. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
