/** The engine test suite, run once per engine (pglite.test.ts, sqlite.test.ts). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "../../src/index.js";
import { storable, stringify, type Engine } from "./engines.js";
import { corpusFiles, loadAllCases, runDifferential } from "./differential.js";
import { bigIntegerRoundTrip, bomKeyedPages, runEdges } from "./edges.js";
import { chainProperty, containmentProperty, predicateProperty } from "./predicates.js";
import { runs } from "../support/runs.js";
import { measureTightness, TIGHT_QUERIES } from "./tightness.js";

/** `pageEvery`: every how many cases also run through `filterPage` (PGlite statements cost more). */
export function engineSuite(name: string, open: () => Promise<Engine>, pageEvery: number): void {
  describe(`SQL pushdown on ${name}`, () => {
    let engine: Engine;
    beforeAll(async () => {
      engine = await open();
    });
    afterAll(async () => {
      await engine.close();
    });

    it("answers every case of every conformance file as the compiled filter over the full list (no row dropped that it keeps or fails on, no SQL error; items, order, next token, first error)", async () => {
      const files = corpusFiles();
      expect(files).toContain("bexpr-cases.jsonl");
      expect(files).toContain("edge-cases.jsonl");
      const corpus = loadAllCases();
      const r = await runDifferential(engine, pageEvery, corpus);
      expect(r.disagreements).toEqual([]);
      // Every case that parses went through (all modes), counted here on its own; each against dozens
      // of rows; a sample also through filterPage, some over several pages.
      const parses = corpus.filter((c) => {
        try {
          parse(c.expr);
          return true;
        } catch (e) {
          if ((e as Error).name !== "FilterSyntaxError") throw e;
          return false;
        }
      });
      expect(r.cases).toBe(parses.length);
      expect(r.parseErrors).toBe(corpus.length - parses.length);
      expect(r.unstorable).toBe(parses.filter((c) => !storable(engine.dialect, stringify(c.datum))).length);
      expect(r.rowsCompared).toBeGreaterThan(r.cases * 25);
      expect(r.paged).toBe(Math.floor(r.cases / pageEvery));
      expect(r.pages).toBeGreaterThan(r.paged);
      // The SQL narrowed (most corpus expressions fail on most data, so most rows stay candidates).
      expect(r.candidates).toBeLessThan(r.rowsCompared);
    });

    it("keeps every row the filter keeps or fails on, without an SQL error, for inputs at the edges (U+0000, U+FEFF, lone surrogates, odd keys, big integers, chains of 7,000, deep nesting)", async () => {
      const r = await runEdges(engine);
      expect(r.failures).toEqual([]);
      expect(r.statements).toBeGreaterThan(60);
    });

    it("pages over keys that start with U+FEFF keep them (keys and next tokens), every row once", async () => {
      const r = await bomKeyedPages(engine);
      expect(r.keys).toEqual(r.expected);
    });

    it("stores integers beyond 2^53 exactly with stringifyJson: read back equal, filtered as the job itself", async () => {
      const r = await bigIntegerRoundTrip(engine);
      expect(r.read).toEqual(r.written);
      expect(r.got).toEqual(["max"]);
      expect(r.expected).toEqual([true, false, false]);
    });

    it("u, l and e keep their laws on single random rows (JSON and typed jobs)", async () => {
      await predicateProperty(engine, runs(400));
    });

    it("u, l and e keep their laws, and exact stays exact, where containment decides (equalities and memberships on typed fields, mistyped values, canonical numbers or not)", async () => {
      await containmentProperty(engine, runs(1000));
    });

    it("u, l and e keep their laws on long chains (membership runs on one selector, chains cut at the bounds)", async () => {
      await chainProperty(engine, runs(60));
    });

    it("selects at most 1.5 × the matching jobs for every query of the fixed set, never fewer", async () => {
      const rows = await measureTightness(engine);
      expect(rows).toHaveLength(TIGHT_QUERIES.length * 2);
      const loose = rows.filter((r) => r.candidates < r.matches || r.candidates > 1.5 * r.matches);
      expect(loose).toEqual([]);
      // The queries are selective: a translation that became TRUE cannot pass.
      for (const r of rows) expect(r.matches).toBeLessThan(2000 / 1.5);
      // Typed equality, membership and emptiness need no re-check.
      const exact = rows.filter((r) => r.mode === "typed" && r.exact).map((r) => r.query);
      expect(exact).toContain('Status == "running"');
      expect(exact).toContain('"dc1" in Datacenters and Type == "service"');
      expect(exact).toContain('not (Status == "dead") and ParentID is empty');
    });
  });
}
