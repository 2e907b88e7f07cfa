/**
 * The laws of `split(filter, target)`, for every release and both modes: the server part parses under
 * the target's rules; where the server (evaluating as the target) drops an item or fails, the filter
 * answers false or fails too; on every item the server keeps, the residual answers exactly as the
 * filter (answers, and errors by class, code and place in the filter's text).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BEXPR_VERSIONS, compile, parse, print, split, type Expr } from "../../src/index.js";
import { exprArb } from "../support/arbitraries.js";
import { compiledOrRejected, MODES } from "../support/modes.js";
import { runs } from "../support/runs.js";

/** The class, code and place of a failure (its span in the text the user wrote, its line and column), or the answer. */
function verdict(run: () => boolean): string {
  try {
    return String(run());
  } catch (e) {
    const err = e as { name: string; code?: string; span?: { start: number; end: number }; line?: number; column?: number; source?: string };
    if (err.name !== "FilterEvaluationError") throw e;
    return `error:${err.code} at ${err.span?.start}-${err.span?.end} (${err.line}:${err.column}) of ${JSON.stringify(err.source)}`;
  }
}

const SPAN = { start: 0, end: 0 };

describe.each(MODES)("split laws ($name)", ({ names, data, schema }) => {
  // Top-level conjunctions of random parts, where split chooses among conjuncts.
  const filterArb = fc.array(exprArb(names, 3), { minLength: 1, maxLength: 4 }).map((parts): Expr => (parts.length === 1 ? parts[0]! : { kind: "and", operands: parts, span: SPAN }));

  it.each(BEXPR_VERSIONS.map((v) => `go-bexpr@${v}`))("%s: the server keeps every item the filter keeps, the residual decides exactly", (target) => {
    fc.assert(
      fc.property(filterArb, fc.array(data, { maxLength: 6 }), (ast, items) => {
        const text = print(ast);
        const f = compiledOrRejected(text, { schema, check: false });
        if (f === undefined) return;
        const { server, residual } = split(f, target);
        if (server !== undefined) expect(() => parse(server, { target })).not.toThrow();
        const onServer = server === undefined ? undefined : compile(server, { schema, target, check: false });
        for (const item of items) {
          const want = verdict(() => f.evaluate(item));
          const kept = onServer === undefined ? "true" : verdict(() => onServer.evaluate(item));
          if (kept === "false") expect(want).toBe("false");
          else if (kept !== "true") expect(want.startsWith("error:")).toBe(true);
          else expect(residual === undefined ? "true" : verdict(() => residual.evaluate(item))).toBe(want);
        }
      }),
      { numRuns: runs(300) },
    );
  });
});

describe("split", () => {
  it("sends the scheduler's own example without what the release lacks", () => {
    const s = split('ParentID == "" and ParameterizedJob is not nil', "nomad@1.10.5");
    expect(s.server).toBe('ParentID == ""');
    expect(s.residual?.expression).toBe("ParameterizedJob is not nil");
    expect(s.target).toEqual({ name: "nomad@1.10.5", bexpr: "0.1.14" });
  });

  it("sends the whole filter where the release answers alike, and needs no residual", () => {
    const s = split('Status == "running" and "dc1" in Datacenters', "nomad@1.3.0");
    expect(s.server).toBe('Status == "running" and "dc1" in Datacenters');
    expect(s.residual).toBeUndefined();
  });

  it("a residual's error is the filter's: its span, line and column point into the text the user wrote", () => {
    const f = compile('x == "a" and y.z == 1');
    const s = split(f, "go-bexpr@0.1.11");
    expect([s.server, s.residual?.expression]).toEqual(['x == "a"', "y.z == 1"]);
    const want = verdict(() => f.evaluate({ x: "a" }));
    expect(want).toMatch(/^error:missing-key at 13-\d+ \(1:14\)/);
    expect(verdict(() => s.residual!.evaluate({ x: "a" }))).toBe(want);
    // Compiled (second call), filtering, and explaining alike.
    expect(verdict(() => s.residual!.evaluate({ x: "a" }))).toBe(want);
    expect(verdict(() => s.residual!.filter([{ x: "a" }]).length > 0)).toBe(want);
    const explained = s.residual!.explain({ x: "a" });
    const original = f.explain({ x: "a" });
    expect(explained.result).toEqual(original.result);
  });

  it("keeps a map key that may be missing away from go-bexpr 0.1.11, which fails on it", () => {
    const s = split('a.b == 1 and c == 2', "go-bexpr@0.1.11");
    expect(s.server).toBeUndefined();
    expect(s.residual?.expression).toBe('a.b == 1 and c == 2');
    expect(s.residual?.evaluate({ a: {}, c: 2 })).toBe(false);
    expect(() => compile("a.b == 1", { target: "go-bexpr@0.1.11" }).evaluate({ a: {}, c: 2 })).toThrow(/has no key "b"/);
  });
});
