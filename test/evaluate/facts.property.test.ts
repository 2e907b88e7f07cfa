import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { print, type CompileOptions, type PlanNode } from "../../src/index.js";
// The library's modules (not its build): the regular-expression engine is installed by loading it (src/semantics/pattern.ts).
import "../../src/semantics/regex.js";
import { compileAst } from "../../src/evaluate/compile.js";
import { evaluationRules } from "../../src/semantics/rules.js";
import { interpretedFacts, levelMatches, MAX_COMPILED_NESTING, filterFacts, planFacts, type PlanFacts } from "../../src/semantics/facts.js";
import { nextClones } from "../../src/evaluate/generated/clones.js";
import { compileTrace } from "../../src/evaluate/trace.js";
import { SETTINGS, type FilterSettings } from "../../src/evaluate/settings.js";
import { NEWEST_TARGET, resolveTarget } from "../../src/releases.js";
import type { Type } from "../../src/semantics/schema.js";
import { parse } from "../../src/syntax/parse.js";
import { conjuncts, type Expr } from "../../src/syntax/ast.js";
import { FilterSet } from "../../src/table/filter-set.js";
import { splitFilter } from "../../src/targets/split.js";
import { exprArb } from "../support/arbitraries.js";
import { MODES, compiledOrRejected } from "../support/modes.js";
import { runs } from "../support/runs.js";

// `planFacts` (semantics/facts.ts) tells, without compiling, what the compiled plan says of each of its
// nodes: its cost, whether it can fail, whether it is metered, what it charges a budget, whether its
// work grows with the datum. Static questions (a FilterSet's key leaf, a split, a server's budget
// rule) read it, and take no slot of closure copies.

/** Whether `e` holds an any/all or a regular expression: counted on the AST, apart from the facts. */
function holdsGrowing(e: Expr): boolean {
  switch (e.kind) {
    case "collection":
      return true;
    case "match":
      return e.op === "matches" || e.op === "not matches";
    case "not":
      return holdsGrowing(e.operand);
    case "and":
    case "or":
      return e.operands.some(holdsGrowing);
  }
}

/** A plan's facts, node by node (its labels left out). */
function factsOfPlan(p: PlanNode): PlanFacts {
  return { cost: p.cost, infallible: p.infallible, metered: p.metered, charge: p.charge, grows: p.grows, children: p.children.map(factsOfPlan) };
}

/** One slot of closure copies for the compilations of these tests (taken once). */
const SLOT = nextClones();

const optionsArb = fc.record(
  {
    check: fc.boolean(),
    target: fc.constantFrom<string | undefined>(undefined, "go-bexpr@0.1.11", "go-bexpr@0.1.12"),
    unknownValue: fc.constantFrom<unknown>(null, "", "x", 0, true),
  },
  { requiredKeys: ["check"] },
);

describe.each(MODES)("the facts of a plan over $name", ({ names, schema }) => {
  /** The facts equal the plan of `text` compiled with `extra`, when it compiles. */
  function agree(text: string, extra: object): void {
    const options: CompileOptions = { schema, ...(extra as CompileOptions) };
    const f = compiledOrRejected(text, options);
    if (!f) return;
    const root: Type = schema ?? { kind: "any" };
    const rules = evaluationRules(options, resolveTarget(options.target ?? NEWEST_TARGET));
    const facts = planFacts(f.ast, text, root, rules);
    // The package's plan (its build) and the compiler's module alike.
    expect(facts).toEqual(factsOfPlan(f.plan));
    expect(facts).toEqual(factsOfPlan(compileAst(f.ast, text, root, rules, SLOT).plan));
    // The filter's facts are its plan's root, its charge the match tests of its top level.
    expect(f.facts).toMatchObject({ canFail: !facts.infallible, metered: facts.metered, cost: facts.cost, levelCharge: facts.charge, growsWithItems: facts.grows });
    expect(facts.charge).toBe(levelMatches(f.ast));
    expect(facts.grows).toBe(holdsGrowing(f.ast));
    expect(filterFacts(f.ast, text, root, rules)).toEqual(f.facts);
    // Each conjunct's facts are its own plan's.
    expect(f.facts.conjuncts.map((c) => c.expr)).toEqual(conjuncts(f.ast));
    for (const c of f.facts.conjuncts) {
      const own = planFacts(c.expr, text, root, rules);
      expect([c.canFail, c.metered]).toEqual([!own.infallible, own.metered]);
    }
  }

  it("equal compile's plan on every node: cost, whether it can fail, whether it is metered, its charge, whether it grows", () => {
    fc.assert(
      fc.property(exprArb(names), optionsArb, (ast, extra) => agree(print(ast), extra)),
      { numRuns: runs(3_000) },
    );
  });

  it("equal it where equalities on one key fuse into a membership", () => {
    // Plain keys only (the words of the language would need quotes).
    const keys = names.filter((n) => /^[A-Za-z][A-Za-z0-9]*$/.test(n) && !KEYWORDS_USED.has(n));
    const membership = fc
      .tuple(fc.constantFrom(...keys), fc.array(fc.constantFrom("a", "b", "c", "d", "", "running"), { minLength: 2, maxLength: 5 }), fc.boolean())
      .map(([key, texts, negated]) => `${negated ? "not " : ""}(${texts.map((t) => `${key} == ${JSON.stringify(t)}`).join(" or ")})`);
    fc.assert(
      fc.property(membership, exprArb(names, 2), fc.constantFrom("and", "or"), fc.boolean(), optionsArb, (m, other, junction, first, extra) => {
        const o = `(${print(other)})`;
        agree(first ? `${m} ${junction} ${o}` : `${o} ${junction} ${m}`, extra);
      }),
      { numRuns: runs(2_000) },
    );
  });
});

/** The words of the language among the generators' names. */
const KEYWORDS_USED = new Set(["in", "not", "and", "or", "is", "any", "all", "as", "contains", "matches", "empty", "nil"]);

describe("the facts of a plan", () => {
  it("of collections nested deeper than closures may are the interpreted program's", () => {
    const leaf = parse("v.x == 1");
    if (leaf.kind !== "match") throw new Error("a match");
    let body: Expr = leaf;
    for (let i = 0; i <= MAX_COMPILED_NESTING; i++) body = { kind: "collection", quantifier: "any", selector: leaf.selector, binding: { mode: "default", name: "v" }, body, span: leaf.span };
    const source = "x".repeat(MAX_COMPILED_NESTING * 10 + 1);
    const root: Type = { kind: "any" };
    expect(planFacts(body, source, root)).toEqual(interpretedFacts(body));
    expect(planFacts(body, source, root)).toEqual(factsOfPlan(compileAst(body, source, root, {}, SLOT).plan));
  });
});

describe("static questions take no slot of closure copies", () => {
  /** Runs `question` between two slots taken: true when the 32 slots after the first come back to it with no other taken. */
  function between(question: () => void): boolean {
    const first = nextClones();
    question();
    for (let i = 0; i < 31; i++) nextClones();
    return nextClones() === first;
  }
  const job = MODES[1]!.schema as Type;
  /** Parsed as `compile` parses for the newest release. */
  const parsed = (text: string): Expr => parse(text, { target: resolveTarget(NEWEST_TARGET) });
  const settings = (root: Type): FilterSettings => ({ root, options: {}, maxSteps: undefined, target: resolveTarget(NEWEST_TARGET) });

  it("compiling takes one (so that the rotation is seen)", () => {
    const text = "Status == \"running\" and Priority == 50";
    expect(between(() => compileAst(parsed(text), text, job))).toBe(false);
  });

  it("computing facts takes none", () => {
    const text = "(any Datacenters as d { d matches \"^eu\" }) and Status == \"running\" and Priority == 50";
    expect(between(() => planFacts(parsed(text), text, job))).toBe(true);
  });

  it("compiling a filter's explain takes none (it runs in the filter's own)", () => {
    const text = "(any Datacenters as d { d matches \"^eu\" }) and Status == \"running\"";
    expect(between(() => compileTrace(parsed(text), text, job, {}, SLOT))).toBe(true);
  });

  it("splitting a filter takes none", () => {
    const text = "Status == \"running\" and Priority == 50 and Meta.x is empty";
    expect(between(() => splitFilter({ expression: text, ast: parsed(text) }, settings(job), "go-bexpr@0.1.11"))).toBe(true);
  });

  it("finding a FilterSet filter's key leaf takes none", () => {
    // Under plain JSON no conjunct is sure not to fail: there is no key leaf, and nothing to compile.
    const text = "a == 1 and b == \"x\"";
    const filter = { expression: text, ast: parsed(text), evaluate: () => true, [SETTINGS]: settings({ kind: "any" }) };
    expect(between(() => new FilterSet<string>().add("k", filter))).toBe(true);
  });
});
