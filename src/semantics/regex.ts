/**
 * Regular expressions exactly as the reference's Go `regexp` reads them: Go 1.23's parser
 * (`re2/parse.ts`, with Go's Unicode 15.0 tables: class names, case folding, limits) decides what a
 * pattern means and whether it is valid; the meaning, written without flags or class names
 * (`re2/print.ts`), runs on re2js in linear time, matched anywhere unless anchored. A pattern is
 * compiled once per filter; a plain literal, optionally anchored, takes an exact string fast path.
 */
import { RE2JS } from "re2js";
import { parseRegex, programSize, RegexSyntaxError } from "./re2/parse.js";
import { print } from "./re2/print.js";
import { compilePattern, installPatternCompiler, type Pattern } from "./pattern.js";

export { compilePattern, type Pattern };

// Whoever loads the engine makes it the one `compilePattern` uses (the package's entry does so by name, src/index.ts).
installPatternCompiler(buildPattern);

/** Characters an exact fast path reads for one step. */
const FAST_CHARS_PER_STEP = 64;
const fastCost = (length: number): number => Math.floor(length / FAST_CHARS_PER_STEP);

const META = /[\\.+*?()|[\]{}^$]/;

/**
 * Compiles an RE2 pattern (`compilePattern` in pattern.ts, which keeps the patterns compiled lately).
 * Never throws: an invalid pattern reports its error when tested.
 */
export function buildPattern(source: string): Pattern {
  let tree;
  try {
    tree = parseRegex(source);
  } catch (e) {
    if (e instanceof RegexSyntaxError) return invalidPattern(source, e.message);
    throw e;
  }
  const literal = literalMatcher(source);
  if (literal) return { source, engine: "literal", error: undefined, test: literal, cost: fastCost };
  const native = nativeMatcher(source);
  if (native) return { source, engine: "native", error: undefined, test: native, cost: fastCost };
  const re = RE2JS.compile(print(tree));
  const size = programSize(tree);
  return { source, engine: "re2", error: undefined, test: (s) => re.test(s), cost: (length) => length * size };
}

function invalidPattern(source: string, error: string): Pattern {
  return {
    source,
    engine: "re2",
    error,
    test() {
      throw new Error(error);
    },
    cost: () => 0,
  };
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

const LITERAL = /[A-Za-z0-9 _\-:/@#%&=~,;'"<>!]/;
const ESCAPABLE = /[.+*?()|[\]{}^$\\/-]/;
const SIMPLE_CLASS = /^\^?(?:[A-Za-z0-9_]-[A-Za-z0-9_]|[A-Za-z0-9_ .:/@#~,;=+])+$/;
const BOUNDED = /^\{(\d{1,3})(,(\d{0,3}))?\}/;

/**
 * A JavaScript RegExp for the patterns where it provably agrees with RE2 and runs in linear time:
 * anchored at the start (`^`), made of literal characters, escaped punctuation, `\d` and simple ASCII
 * classes, with bounded quantifiers and at most one unbounded one (`+`, `*`, `{n,}`), optionally
 * anchored at the end. With a start anchor and one unbounded repetition a backtracking engine does at
 * most linear work; without groups, alternation, `.` or Unicode classes both syntaxes mean the same.
 * Anything else is left to re2js.
 */
function nativeMatcher(source: string): ((s: string) => boolean) | undefined {
  if (!source.startsWith("^")) return undefined;
  let end = source.length;
  if (source.endsWith("$") && !source.endsWith("\\$")) end--;
  let unbounded = 0;
  let i = 1;
  while (i < end) {
    const c = source[i]!;
    if (c === "\\") {
      const next = source[i + 1] ?? "";
      if (next !== "d" && !ESCAPABLE.test(next)) return undefined;
      i += 2;
    } else if (c === "[") {
      const close = source.indexOf("]", i + 1);
      if (close < 0 || close >= end || !SIMPLE_CLASS.test(source.slice(i + 1, close))) return undefined;
      i = close + 1;
    } else if (LITERAL.test(c)) {
      i++;
    } else {
      return undefined;
    }
    const q = source[i];
    if (i >= end) break;
    if (q === "+" || q === "*") {
      unbounded++;
      i++;
    } else if (q === "?") {
      i++;
    } else if (q === "{") {
      const m = BOUNDED.exec(source.slice(i, end));
      if (!m) return undefined;
      if (m[2] !== undefined && m[3] === "") unbounded++;
      i += m[0].length;
    }
  }
  if (unbounded > 1) return undefined;
  let re: RegExp;
  try {
    re = new RegExp(source, "u");
  } catch {
    return undefined;
  }
  return (s) => re.test(s);
}
