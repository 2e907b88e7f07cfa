/** Random filter expressions for the list tests: atoms joined by and, or, not, and optional collection wraps. */
import fc from "fast-check";

/** Random filters from `atoms`; each of `wraps` puts an expression inside a collection (nested when wrapped twice). */
export function filterOf(atoms: readonly string[], wraps: readonly ((e: string) => string)[] = []): fc.Arbitrary<string> {
  const { expr } = fc.letrec<{ expr: string }>((tie) => ({
    expr: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constantFrom(...atoms),
      fc.tuple(tie("expr"), fc.constantFrom("and", "or"), tie("expr")).map(([a, op, b]) => `(${a}) ${op} (${b})`),
      tie("expr").map((a) => `not (${a})`),
      ...(wraps.length === 0 ? [] : [fc.tuple(fc.constantFrom(...wraps), tie("expr")).map(([wrap, a]) => wrap(a))]),
    ),
  }));
  return expr;
}
