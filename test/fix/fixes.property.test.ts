/**
 * Every fix offered for a generated mistake, applied, compiles; and fixing a mistake made in a valid
 * expression gives that expression back (up to layout) where the intent is unambiguous.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyFix, compile, diagnose, fixAll, parse, print, schemas, type Expr } from "../../src/index.js";
import { scoreOf } from "../../src/fix/diagnose.js";
import { runs } from "../support/runs.js";

/** Canonical text with nested and/or chains flattened (`a and (b and c)` is `a and b and c`). */
function canonical(text: string): string {
  const flat = (e: Expr): Expr => {
    switch (e.kind) {
      case "and":
      case "or": {
        const operands = e.operands.map(flat).flatMap((o) => (o.kind === e.kind ? o.operands : [o]));
        return { ...e, operands };
      }
      case "not":
        return { ...e, operand: flat(e.operand) };
      case "collection":
        return { ...e, body: flat(e.body) };
      default:
        return e;
    }
  };
  return print(flat(parse(text)));
}

const job = { schema: schemas.job };
/** String fields whose values are open (Status and Type list theirs: a random word there is an `unknown-value` warning, whose fix is another test's). */
const STRING_FIELDS = ["Name", "Namespace", "ID", "ParentID", "StatusDescription"] as const;

/** A valid clause and the same clause with a mistake people make. */
interface Clause {
  readonly good: string;
  readonly bad: string;
  /** The fix gives `good` back exactly (up to layout); false where only "it compiles" is promised. */
  readonly exact: boolean;
}

const field = fc.constantFrom(...STRING_FIELDS);
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/);
/** Values a bare word cannot hold: a hyphen, a colon, or dotted digits. */
const awkward = fc.oneof(
  fc.tuple(word, fc.constantFrom("-", ":"), fc.stringMatching(/^[a-z0-9]{1,4}$/)).map(([a, s, b]) => `${a}${s}${b}`),
  fc.tuple(fc.integer({ min: 1, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })).map((p) => p.join(".")),
);

const bareValue: fc.Arbitrary<Clause> = fc
  .tuple(field, fc.constantFrom("==", "!=", "contains"), awkward)
  .map(([f, op, v]) => ({ good: `${f} ${op} "${v}"`, bad: `${f} ${op} ${v}`, exact: true }));
const singleEquals: fc.Arbitrary<Clause> = fc.tuple(field, word).map(([f, v]) => ({ good: `${f} == "${v}"`, bad: `${f} = "${v}"`, exact: true }));
const listLiteral: fc.Arbitrary<Clause> = fc
  .tuple(field, fc.boolean(), fc.uniqueArray(word, { minLength: 1, maxLength: 3 }))
  .map(([f, negative, vs]) => {
    const good = vs.map((v) => `${f} ${negative ? "!=" : "=="} "${v}"`).join(negative ? " and " : " or ");
    return { good: vs.length > 1 ? `(${good})` : good, bad: `${f} ${negative ? "not in" : "in"} [${vs.map((v) => `"${v}"`).join(", ")}]`, exact: true };
  });
const listHolds: fc.Arbitrary<Clause> = fc.tuple(fc.boolean(), word).map(([eq, v]) => ({
  good: `"${v}" ${eq ? "in" : "not in"} Datacenters`,
  bad: `Datacenters ${eq ? "==" : "!="} "${v}"`,
  exact: true,
}));
const bang: fc.Arbitrary<Clause> = fc.tuple(field, word).map(([f, v]) => ({ good: `not (${f} == "${v}")`, bad: `!(${f} == "${v}")`, exact: true }));
/** A misspelt field: two letters swapped, one dropped, or the wrong case. */
const TYPO_CLAUSES: Readonly<Record<string, (f: string) => string>> = {
  Status: (f) => `${f} == "running"`,
  Namespace: (f) => `${f} != "default"`,
  ParentID: (f) => `${f} is empty`,
  Datacenters: (f) => `"dc1" in ${f}`,
  Priority: (f) => `${f} == 50`,
  JobSummary: (f) => `${f} is nil`,
};
const typo: fc.Arbitrary<Clause> = fc
  .tuple(fc.constantFrom(...Object.keys(TYPO_CLAUSES)), fc.nat(), fc.constantFrom("swap", "drop", "case"))
  .map(([f, n, kind]) => {
    const i = 1 + (n % (f.length - 2));
    let bad = kind === "swap" ? f.slice(0, i) + f[i + 1] + f[i] + f.slice(i + 2) : kind === "drop" ? f.slice(0, i) + f.slice(i + 1) : f.toLowerCase();
    if (bad === f) bad = `${f}x`;
    const clause = TYPO_CLAUSES[f]!;
    return { good: clause(f), bad: clause(bad), exact: false };
  });
const missingKey: fc.Arbitrary<Clause> = fc.tuple(word, fc.nat(9)).map(([g, n]) => ({
  good: `"${g}" in JobSummary.Summary and JobSummary.Summary.${g}.Running == ${n}`,
  bad: `JobSummary.Summary.${g}.Running == ${n}`,
  exact: true,
}));

const mistake = fc.oneof(bareValue, singleEquals, listLiteral, listHolds, bang, typo, missingKey);
const fine = fc.tuple(field, word).map(([f, v]) => `${f} == "${v}"`);
const joiner = fc.constantFrom(
  { good: " and ", bad: " && " },
  { good: " or ", bad: " || " },
  { good: " and ", bad: "&&" },
);

/** A valid expression, and one mistake in it: a clause or a joiner. */
const expression = fc
  .tuple(fc.array(fine, { maxLength: 2 }), mistake, fc.array(fine, { maxLength: 2 }), fc.array(joiner, { minLength: 4, maxLength: 4 }), fc.boolean())
  .map(([before, clause, after, joins, joinerIsWrong]) => {
    const parts = [...before, clause, ...after];
    const wrongJoin = joinerIsWrong && parts.length > 1 ? 0 : -1;
    let good = "";
    let bad = "";
    parts.forEach((p, i) => {
      if (i > 0) {
        const j = joins[i - 1]!;
        // The joiner mistake replaces the clause mistake (one mistake per expression).
        good += j.good;
        bad += i - 1 === wrongJoin ? j.bad : j.good;
      }
      const c = typeof p === "string" ? { good: p, bad: p } : p;
      // A guard's "and" binds tighter than "or": parenthesised in both texts.
      const paren = (s: string) => (typeof p !== "string" && parts.length > 1 && / and | or /.test(s) ? `(${s})` : s);
      good += paren(c.good);
      bad += wrongJoin >= 0 ? paren(c.good) : typeof p === "string" ? p : paren(c.bad);
    });
    const exact = wrongJoin >= 0 || (typeof clause !== "string" && clause.exact);
    return { good, bad, exact };
  })
  .filter(({ good, bad }) => good !== bad);

describe("fixes for generated mistakes", () => {
  it("every fix offered, applied, compiles; fixing all gives the intended expression", () => {
    fc.assert(
      fc.property(expression, ({ good, bad, exact }) => {
        compile(good, job);
        const found = diagnose(bad, job);
        expect(found.some((d) => d.fixes.length > 0), `a fix for ${bad}: ${JSON.stringify(found)}`).toBe(true);
        for (const d of found) {
          for (const fix of d.fixes) {
            const fixed = applyFix(bad, fix);
            expect(() => compile(fixed, job), `${bad} → ${fixed} (${fix.title})`).not.toThrow();
          }
        }
        const all = fixAll(bad, job);
        expect(all.remaining, `${bad} → ${all.text}`).toEqual([]);
        if (exact) expect(canonical(all.text)).toBe(canonical(good));
        else compile(all.text, job);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe("diagnose on any text", () => {
  const piece = fc.constantFrom(
    "Status", "Name", "Datacenters", "JobSummary.Summary", ".web", ".Running", "Stauts", " ", " ", "==", "=", "!=", "!", "&&", "||",
    " and ", " or ", "not ", " in ", " contains ", " matches ", " is ", "empty", "nil", "null", "(", ")", "[", "]", ",", '"', "'", "`",
    "web-1", "1.2.3", "x", "1", "-", ":", "any ", " as ", "{", "}", "AND",
  );
  it("never throws, and every fix it offers applies and removes its finding or gets past it", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }).map((p) => p.join("")), fc.boolean(), (text, typed) => {
        const options = typed ? job : {};
        const found = diagnose(text, options);
        for (const d of found) {
          expect(d.span.start).toBeGreaterThanOrEqual(0);
          expect(d.span.end).toBeLessThanOrEqual(text.length);
          for (const fix of d.fixes) {
            const fixed = applyFix(text, fix);
            expect(fixed).not.toBe(text);
            // The same finding (code and place) is not reported again at the start of the first edit.
            const again = diagnose(fixed, options).filter((x) => x.code === d.code && x.span.start === d.span.start && x.message === d.message);
            expect(again, `${text} → ${fixed}`).toEqual([]);
          }
        }
      }),
      { numRuns: runs(400) },
    );
  });

  it("a fix is checked by counting the findings of the text it makes: the counts are diagnose's", () => {
    // Whole clauses with errors and warnings (a warning about an error's text is folded into it), joined by the pieces.
    const clause = fc.constantFrom(
      'Datacenters.web == "x"', "Stauts == 1", "Priority == high", "JobSummary.Summary.web.Running == 1", 'ID == "/x"', 'Status == "RUNNING"',
      '"dc1" in Datacenters', 'Name matches "("', "Name == Status", "Priority == 1",
    );
    const parsing = fc.tuple(fc.array(clause, { minLength: 1, maxLength: 5 }), fc.constantFrom(" and ", " or ")).map(([cs, j]) => cs.join(j));
    const text = fc.oneof(parsing, fc.array(fc.oneof(piece, clause), { maxLength: 10 }).map((p) => p.join("")));

    const sorted = <D extends { readonly span: { readonly start: number } }>(ds: readonly D[]): D[] => ds.slice().sort((a, b) => a.span.start - b.span.start);
    fc.assert(
      fc.property(text, fc.boolean(), fc.constantFrom(undefined, "go-bexpr@0.1.11", "nomad@1.10.5"), fc.boolean(), (text, typed, target, warnings) => {
        const options = { ...(typed ? job : {}), ...(target ? { target } : {}), warnings };
        const found = diagnose(text, options);
        let parsed = true;
        try {
          parse(text, target ? { target } : {});
        } catch {
          parsed = false;
        }
        const syntax = sorted(found).filter((d) => !parsed || d.code === "not-in-target");
        const counted = scoreOf(text, options);
        expect(counted.parses).toBe(syntax.length === 0);
        expect(counted.errors).toBe(found.filter((d) => d.severity === "error").length);
        expect(counted.warnings).toBe(found.filter((d) => d.severity === "warning").length);
        expect(counted.firstSyntax).toEqual(syntax[0] && { code: syntax[0].code, span: syntax[0].span });
      }),
      { numRuns: runs(400) },
    );
  });
});
