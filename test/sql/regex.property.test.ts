/**
 * The law behind deciding `matches` in PostgreSQL: for random RE2 patterns and random strings, the
 * PostgreSQL regular expression `postgresRegex` writes (when it writes one) matches exactly the
 * strings the filter's own matcher (Go's parser, re2js) matches, on PGlite and on Debian's PostgreSQL.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compilePattern } from "../../src/semantics/regex.js";
import { postgresRegex } from "../../src/sql/postgres-regex.js";
import { openPglite, openPostgres, type Engine } from "./engines.js";
import { runs } from "../support/runs.js";

/** Characters on both sides: ASCII letters and digits, punctuation, newline, case-fold partners (K, U+212A KELVIN SIGN, ſ), non-ASCII letters and digits. */
const ALPHABET = ["a", "b", "z", "A", "K", "k", "\u212a", "s", "S", "\u017f", "0", "7", "_", "-", ".", " ", "\n", "\t", "é", "É", "日", "٣", "😀", "$", "^"];

const piece: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("a", "b", "k", "K", "s", "0", "7", "_", "-", "é", "日", "😀", " "),
  fc.constantFrom("\\.", "\\$", "\\^", "\\-", "\\n", "\\t", "\\x{212a}", "\\x{e9}"),
  fc.constantFrom(".", "\\d", "\\w", "\\s", "\\D", "\\W", "\\S", "\\pL", "\\p{Greek}", "\\PN", "[[:alpha:]]", "[[:^digit:]]"),
  fc.constantFrom("[a-z]", "[^a]", "[^\\n]", "[0-9_]", "[A-Za-z]", "[é-日]", "[^a-zA-Z0-9]", "[\\d\\s]", "[-a]", "[]a]"),
  fc.constantFrom("^", "$", "\\A", "\\z", "\\b", "\\B"),
);

const { pattern } = fc.letrec<{ pattern: string; atom: string }>((tie) => ({
  atom: fc.oneof(
    { depthSize: "small", maxDepth: 3 },
    { weight: 4, arbitrary: piece },
    { weight: 1, arbitrary: tie("pattern").map((p) => `(${p})`) },
    { weight: 1, arbitrary: tie("pattern").map((p) => `(?:${p})`) },
    { weight: 1, arbitrary: tie("pattern").map((p) => `(?i:${p})`) },
  ),
  pattern: fc
    .tuple(
      fc.array(
        fc.tuple(tie("atom"), fc.constantFrom("", "", "", "*", "+", "?", "*?", "{2}", "{1,3}", "{0,}", "{2,}?")).map(([a, q]) => (q !== "" && /^[\^$]|^\\[AzbB]$/.test(a) ? a : a + q)),
        { minLength: 1, maxLength: 4 },
      ),
      fc.option(fc.constantFrom("|"), { nil: undefined }),
      fc.array(tie("atom"), { maxLength: 2 }),
    )
    .map(([left, bar, right]) => (bar === undefined ? left.join("") : `${left.join("")}|${right.join("")}`)),
}));

const NUM_RUNS = runs(400);

const subject = fc.array(fc.constantFrom(...ALPHABET), { maxLength: 8 }).map((cs) => cs.join(""));

describe.each([
  ["PGlite", openPglite],
  ["PostgreSQL (Debian)", openPostgres],
] as const)("matches decided in PostgreSQL: %s", (_name, open) => {
  let db: Engine;
  beforeAll(async () => {
    db = await open();
  });
  afterAll(async () => {
    await db.close();
  });

  it("a translated pattern matches in PostgreSQL exactly the strings RE2 matches", async () => {
    let translated = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(pattern, pattern.map((p) => `(?i)${p}`)), fc.array(subject, { minLength: 12, maxLength: 12 }), async (source, strings) => {
        const re2 = compilePattern(source);
        if (re2.error !== undefined) return;
        const are = postgresRegex(source);
        if (are === undefined) return;
        translated++;
        const rows = await db.query("SELECT s ~ $1 AS m FROM unnest($2::text[]) WITH ORDINALITY AS t(s, i) ORDER BY i", [are, strings]);
        const got = rows.map((r) => r["m"]);
        const want = strings.map((s) => re2.test(s));
        if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`${JSON.stringify(source)} as ${JSON.stringify(are)} on ${JSON.stringify(strings)}: PostgreSQL ${JSON.stringify(got)}, RE2 ${JSON.stringify(want)}`);
      }),
      { numRuns: NUM_RUNS, seed: 40 },
    );
    // The subset is not a trivial one: most random patterns are written.
    expect(translated).toBeGreaterThan(NUM_RUNS * 0.6);
  });
});

describe("postgresRegex", () => {
  it("writes the patterns people use, and leaves out what PostgreSQL reads otherwise", () => {
    expect(postgresRegex("^web-[0-9]+$")).toBe("\\Aweb\\u002d(?:[0-9])+\\Z");
    expect(postgresRegex("(?i)kx")).toBe("[Kk\\u212a][Xx]");
    expect(postgresRegex("(?m)^a$")).toBeUndefined();
    expect(postgresRegex("a{256}")).toBeUndefined();
    expect(postgresRegex("((a{200}){200}){200}")).toBeUndefined();
    expect(postgresRegex("[")).toBeUndefined();
  });
});
