/**
 * Regular expressions with RE2 syntax and semantics (Go's `regexp`), matched anywhere in the string
 * unless anchored, in linear time (re2js). A pattern is compiled once per filter; patterns that are a
 * plain literal, optionally anchored, take an exact string fast path.
 */
import { RE2JS } from "re2js";

/** A compiled pattern: `test` or the reason it does not compile (raised when first used). */
export interface Pattern {
  readonly source: string;
  /** Undefined when the pattern is valid. */
  readonly error: string | undefined;
  test(s: string): boolean;
}

const META = /[\\.+*?()|[\]{}^$]/;

/** Compiles an RE2 pattern. Never throws: an invalid pattern reports its error when tested. */
export function compilePattern(source: string): Pattern {
  const fast = literalMatcher(source);
  if (fast) return { source, error: undefined, test: fast };
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (e) {
    const error = e instanceof Error ? e.message.replace(/^error parsing regexp: /, "") : String(e);
    return {
      source,
      error,
      test() {
        throw new Error(error);
      },
    };
  }
  return { source, error: undefined, test: (s) => re.test(s) };
}

/** An exact matcher for `lit`, `^lit`, `lit$` and `^lit$` where `lit` has no metacharacters. */
function literalMatcher(source: string): ((s: string) => boolean) | undefined {
  const start = source.startsWith("^");
  const endAnchor = source.endsWith("$") && source.length > (start ? 1 : 0);
  const body = source.slice(start ? 1 : 0, endAnchor ? -1 : undefined);
  if (META.test(body)) return undefined;
  if (start && endAnchor) return (s) => s === body;
  if (start) return (s) => s.startsWith(body);
  if (endAnchor) return (s) => s.endsWith(body);
  return (s) => s.includes(body);
}
