/**
 * Adversarial texts for parsing and rejecting (issue 39): each shape at any size, for
 * bench/parse-worst.ts and the tests that hold their answers (test/syntax/long-texts.test.ts). The
 * shapes are those that made the reference's budget replay or the Chevrotain lexer slow, and those a
 * search over generated megabytes found slowest since.
 */

/** `unit` repeated to `n` characters (cut). */
export const fill = (unit: string, n: number): string => unit.repeat(Math.max(1, Math.ceil(n / unit.length))).slice(0, n);

/** A seeded text of the language's characters, most of it not an expression. */
function garbage(n: number): string {
  const chars = '()[]{}"`=! abcnotrand01.-,_/\\';
  let s = "";
  let x = 12345;
  while (s.length < n) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += chars[x % chars.length];
  }
  return s;
}

/** Each shape as a text of `n` characters. */
export const SHAPES: Readonly<Record<string, (n: number) => string>> = {
  "deep parentheses": (n) => {
    const d = Math.floor((n - 6) / 2);
    return `${"(".repeat(d)}a == 1${")".repeat(n - 6 - d)}`;
  },
  "open parentheses": (n) => "(".repeat(n),
  "bare word": (n) => "x".repeat(n),
  "long string": (n) => `a == "${"x".repeat(n - 7)}"`,
  "escaped string": (n) => `a == "${fill("\\n", n - 7)}"`,
  "long number": (n) => `a == ${"1".repeat(n - 5)}`,
  "or chain": (n) => fill("a == 1 or ", n - 6) + "a == 1",
  "and chain": (n) => fill("a == 1 and ", n - 6) + "a == 1",
  "not chain": (n) => fill("not ", n - 6) + "a == 1",
  "not chain, failing": (n) => fill("not  ", Math.min(n, 26_105)) + fill("1.5 ,[(", n - Math.min(n, 26_105)),
  "nested any": (n) => fill("any a as b { ", n),
  "nested not (": (n) => fill("not (", n),
  "index keys": (n) => `a${fill('["k"]', n - 6)} == 1`,
  "JSON pointer": (n) => `a == "${fill("/ab", n - 7)}"`,
  "garbage": garbage,
  "blank, then an error": (n) => fill("\n ", Math.floor(n * 0.4)) + "andany (a == 1)" + fill("(all _", n - Math.floor(n * 0.4) - 15),
  "words, then an error": (n) => `v v ${fill("a.0", n - 4)}`,
  "one word, then an error": (n) => `Meta.team ${fill("Name01", n - 12)} )`,
  "deep index error": (n) => {
    const d = Math.floor((n - 12) / 2);
    return `${"(".repeat(d)}x["a" == 1${")".repeat(n - 10 - d)}`;
  },
};
