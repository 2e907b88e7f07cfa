/**
 * What a browser bundle of the package costs (issue 43), from its build (dist/) as an application's
 * bundler takes it: esbuild, browser platform, ESM, minified, in memory; gzip level 9 per file. The
 * sizes are deterministic (the lockfile pins esbuild): each bound is the measured size plus a little,
 * so that growth is a decision, not an accident. scripts/bundle-size.mjs prints the same sizes and
 * where the bytes go (`--detail`).
 *
 * Measured (esbuild 0.27.7), gzip (minified):
 * - `import { compile } from "filter-expr/web"`, loaded first: 31.4 kB (172.8 kB); with what it loads
 *   on demand (the full parser, the regex engine, the diagnostics): 154.2 kB (569.1 kB)
 * - `import { compile } from "filter-expr"`: 147.4 kB (553.2 kB); before the web entry 146.6 kB
 * - `import { diagnose, fixAll, applyFix } from "filter-expr"`: 136.7 kB (432.6 kB); before 152.7 kB
 * - `import * from "filter-expr"`: 175.5 kB (631.0 kB)
 *
 * Issue 44 (the allocation, node and evaluation schemas): `schemas` is built in one pure call, so a
 * bundle that does not import it leaves every built-in schema out; one that does gets 2.4 kB gzip
 * more than before (web compile+schemas 34.0 kB). Measured then: web compile 31.6 kB (155.2 kB),
 * package compile 147.6 kB, diagnose 137.6 kB, everything 179.6 kB. The new schemas have no
 * generated field code (scripts/field-code.ts, GENERATED_OF_OTHERS: 2.7 kB more on every entry
 * that evaluates).
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { bundle as build, sizes } from "../scripts/bundle-size.mjs";

interface Bundle {
  /** The gzip bytes of what loads first (the entry and its static imports) and of every chunk. */
  readonly first: number;
  readonly all: number;
  /** The text of what loads first. */
  readonly firstText: string;
}

/** A scenario bundled as scripts/bundle-size.mjs bundles it (code splitting), and its sizes. */
async function bundle(source: string, minify = true): Promise<Bundle> {
  const s = sizes(await build(source, { splitting: true, minify }));
  return { first: s.entry.gzip, all: s.total.gzip, firstText: s.entryText };
}

const kB = 1000;

describe("browser bundles", () => {
  it("the web entry's compile loads 32 kB gzip first (goal 48 kB): no Chevrotain, no re2js", async () => {
    const b = await bundle('import { compile } from "filter-expr/web"; export default compile;');
    expect(b.first).toBeLessThanOrEqual(33 * kB);
    expect(b.all).toBeLessThanOrEqual(160 * kB);
    const plain = await bundle('import { compile } from "filter-expr/web"; export default compile;', false);
    expect(plain.firstText).not.toContain("EmbeddedActionsParser");
    expect(plain.firstText).not.toContain("RE2JS");
  });

  it("the package entry's bundles stay within their measured sizes", async () => {
    expect((await bundle('import { compile } from "filter-expr"; export default compile;')).first).toBeLessThanOrEqual(150 * kB);
    expect((await bundle('import { diagnose, fixAll, applyFix } from "filter-expr"; export default [diagnose, fixAll, applyFix];')).first).toBeLessThanOrEqual(140 * kB);
    expect((await bundle('import { parse } from "filter-expr"; export default parse;')).first).toBeLessThanOrEqual(72 * kB);
    expect((await bundle('import * as all from "filter-expr"; export default all;')).first).toBeLessThanOrEqual(181 * kB);
  });

  it("every export of the package entry that may compile a pattern brings the regex engine along", async () => {
    const names = Object.keys(await import(fileURLToPath(new URL("../dist/index.js", import.meta.url))));
    const missing: string[] = [];
    for (const name of names) {
      const { firstText } = await bundle(`import { ${name} } from "filter-expr"; export default ${name};`, false);
      if (firstText.includes("regular-expression engine is not loaded") && !firstText.includes("installPatternCompiler(buildPattern)")) missing.push(name);
    }
    expect(names.length).toBeGreaterThan(50);
    expect(missing).toEqual([]);
  });
});
