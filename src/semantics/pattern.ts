/**
 * Compiled patterns (`matches`): what the evaluator and the checks use of a pattern, the patterns
 * compiled lately, and the slot of the engine that compiles them (regex.ts: Go's parser and re2js).
 * The engine is installed, not imported, so that a bundle without `matches` can leave it out (the
 * web entry, src/web.ts, loads it on demand); the package's entry installs it at import.
 */

/** A compiled pattern: `test` or the reason it does not compile (raised when first used). */
export interface Pattern {
  readonly source: string;
  /** How it matches: an exact string test, a JavaScript RegExp that agrees with RE2 here, or re2js. */
  readonly engine: "literal" | "native" | "re2";
  /** Undefined when the pattern is valid. */
  readonly error: string | undefined;
  test(s: string): boolean;
  /**
   * What a test on a text of `length` UTF-16 units costs at most, in evaluation steps beyond the
   * match test's own: re2js simulates the program on every character (measured worst case: about
   * one step, ~50 ns, per character and instruction); the exact fast paths read the text once.
   */
  cost(length: number): number;
}

/** The engine that compiles a pattern (regex.ts `buildPattern`), once installed. */
let build: ((source: string) => Pattern) | undefined;

/** Makes `compile` the engine of `compilePattern` (regex.ts does on load). */
export function installPatternCompiler(compile: (source: string) => Pattern): void {
  build = compile;
}

/** Whether an engine is installed. */
export function patternCompilerInstalled(): boolean {
  return build !== undefined;
}

/**
 * Patterns compiled lately, by source: a filter's pattern is compiled by the static check and by the
 * compiler, and filters repeat patterns. A `Pattern` holds no state (its `test` is pure), so one
 * serves every filter. Bounded: the 256 most recent, of sources up to 1,024 characters.
 */
const PATTERNS = new Map<string, Pattern>();
const PATTERNS_KEPT = 256;
const PATTERN_SOURCE_KEPT = 1024;

/**
 * Compiles an RE2 pattern with the engine installed (regex.ts). Never throws for a pattern: an
 * invalid one reports its error when tested. Throws when no engine is installed: the package's entry
 * installs it at import, the web entry before it compiles a filter that has a pattern.
 */
export function compilePattern(source: string): Pattern {
  const kept = PATTERNS.get(source);
  if (kept !== undefined) {
    PATTERNS.delete(source);
    PATTERNS.set(source, kept);
    return kept;
  }
  if (build === undefined) throw new Error("filter-expr: the regular-expression engine is not loaded (semantics/regex.ts)");
  const pattern = build(source);
  if (source.length <= PATTERN_SOURCE_KEPT) {
    if (PATTERNS.size >= PATTERNS_KEPT) PATTERNS.delete(PATTERNS.keys().next().value!);
    PATTERNS.set(source, pattern);
  }
  return pattern;
}

