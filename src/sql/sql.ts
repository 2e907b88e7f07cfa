/**
 * A tiny builder of NULL-free SQL conditions: constants fold, `and`/`or` flatten, and rendering
 * numbers the bound values in the dialect's placeholder style. Every atom is a NULL-free boolean SQL
 * fragment whose variable parts are bound values, never text spliced from the expression.
 */

/** A bound value, with an optional PostgreSQL cast (`$1::text[]`). */
export interface Param {
  readonly value: unknown;
  readonly cast?: string;
}

/** SQL text pieces and bound values, in order. */
export type Frag = readonly (string | Param)[];

/** A NULL-free SQL condition. */
export type Cond =
  | { readonly k: "const"; readonly v: boolean }
  | { readonly k: "atom"; readonly f: Frag; readonly size: number }
  | { readonly k: "not"; readonly x: Cond; readonly size: number }
  | { readonly k: "and" | "or"; readonly xs: readonly Cond[]; readonly size: number }
  /** `CASE WHEN w THEN a ELSE b END`: evaluates `a` only where `w` holds (guards casts). */
  | { readonly k: "case"; readonly w: Cond; readonly a: Cond; readonly b: Cond; readonly size: number };

export const TRUE: Cond = { k: "const", v: true };
export const FALSE: Cond = { k: "const", v: false };

export function param(value: unknown, cast?: string): Param {
  return cast === undefined ? { value } : { value, cast };
}

function sizeOf(c: Cond): number {
  return c.k === "const" ? 1 : c.size;
}

/** A NULL-free boolean fragment (the caller guarantees it is never NULL). */
export function atom(...f: Frag): Cond {
  let size = 1;
  for (const p of f) size += typeof p === "string" ? 1 : 2;
  return { k: "atom", f, size };
}

export function not(x: Cond): Cond {
  if (x.k === "const") return x.v ? FALSE : TRUE;
  if (x.k === "not") return x.x;
  return { k: "not", x, size: sizeOf(x) + 1 };
}

function junction(k: "and" | "or", parts: readonly Cond[]): Cond {
  const unit = k === "and"; // TRUE for and, FALSE for or
  const xs: Cond[] = [];
  const add = (p: Cond) => {
    if (!xs.some((x) => same(x, p))) xs.push(p);
  };
  for (const p of parts) {
    if (p.k === "const") {
      if (p.v === unit) continue;
      return p;
    }
    if (p.k === k) p.xs.forEach(add);
    else add(p);
  }
  if (xs.length === 0) return unit ? TRUE : FALSE;
  if (xs.length === 1) return xs[0]!;
  return { k, xs, size: xs.reduce((n, x) => n + sizeOf(x), 1) };
}

export const and = (...parts: Cond[]): Cond => junction("and", parts);
export const or = (...parts: Cond[]): Cond => junction("or", parts);

/** `CASE WHEN w THEN a ELSE b END`, folded when it can be. */
export function caseWhen(w: Cond, a: Cond, b: Cond): Cond {
  if (w.k === "const") return w.v ? a : b;
  if (a.k === "const" && b.k === "const") return a.v === b.v ? a : a.v ? w : not(w);
  return { k: "case", w, a, b, size: sizeOf(w) + sizeOf(a) + sizeOf(b) + 1 };
}

/** The size of a condition, to keep translations bounded. */
export function size(c: Cond): number {
  return sizeOf(c);
}

/** Structural equality (used to tell whether U and L are the same condition). */
export function same(a: Cond, b: Cond): boolean {
  if (a === b) return true;
  if (a.k !== b.k) return false;
  switch (a.k) {
    case "const":
      return a.v === (b as typeof a).v;
    case "atom": {
      const f = (b as typeof a).f;
      return a.f.length === f.length && a.f.every((p, i) => (typeof p === "string" ? p === f[i] : typeof f[i] !== "string" && sameParam(p, f[i] as Param)));
    }
    case "not":
      return same(a.x, (b as typeof a).x);
    case "and":
    case "or": {
      const xs = (b as typeof a).xs;
      return a.xs.length === xs.length && a.xs.every((x, i) => same(x, xs[i]!));
    }
    case "case": {
      const o = b as typeof a;
      return same(a.w, o.w) && same(a.a, o.a) && same(a.b, o.b);
    }
  }
}

function sameParam(a: Param, b: Param): boolean {
  return a.cast === b.cast && paramKey(a.value) === paramKey(b.value);
}

function paramKey(v: unknown): string {
  return typeof v === "string" ? `s${v}` : `j${JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? `${x}n` : x))}`;
}

/** How a dialect writes placeholders. */
export type Placeholders = "numbered" | "positional";

/** Renders a condition, appending its bound values to `params` (numbered placeholders continue from them). */
export function render(c: Cond, style: Placeholders, params: unknown[] = []): { sql: string; params: unknown[] } {
  const numbers = new Map<string, number>();
  const out: string[] = [];
  const place = (p: Param): string => {
    if (style === "positional") {
      params.push(p.value);
      return "?";
    }
    const key = `${p.cast ?? ""}:${paramKey(p.value)}`;
    let n = numbers.get(key);
    if (n === undefined) {
      params.push(p.value);
      n = params.length;
      numbers.set(key, n);
    }
    return `$${n}${p.cast ? `::${p.cast}` : ""}`;
  };
  const emit = (x: Cond, parent: "and" | "or" | "not" | "top"): void => {
    switch (x.k) {
      case "const":
        out.push(x.v ? "TRUE" : "FALSE");
        return;
      case "atom":
        if (parent !== "top") out.push("(");
        for (const p of x.f) out.push(typeof p === "string" ? p : place(p));
        if (parent !== "top") out.push(")");
        return;
      case "not":
        out.push("NOT ");
        emit(x.x, "not");
        return;
      case "and":
      case "or": {
        const paren = parent !== "top" && !(parent === x.k);
        if (paren) out.push("(");
        x.xs.forEach((y, i) => {
          if (i > 0) out.push(x.k === "and" ? " AND " : " OR ");
          emit(y, x.k);
        });
        if (paren) out.push(")");
        return;
      }
      case "case":
        out.push("(CASE WHEN ");
        emit(x.w, "top");
        out.push(" THEN ");
        emit(x.a, "top");
        out.push(" ELSE ");
        emit(x.b, "top");
        out.push(" END)");
        return;
    }
  };
  emit(c, "top");
  return { sql: out.join(""), params };
}
