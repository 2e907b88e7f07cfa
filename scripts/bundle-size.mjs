#!/usr/bin/env node
/**
 * What a browser bundle of the package costs (issue 43): each scenario (an import of the package's
 * built entries, the way an application imports them) bundled by esbuild for the browser, minified,
 * in memory; its minified and gzip sizes, and with --detail the bytes attributed per package and per
 * module from esbuild's metafile. Run `npx tsup` first: the built dist/ is what is measured.
 *
 *   node scripts/bundle-size.mjs            the table of scenarios
 *   node scripts/bundle-size.mjs --detail   and where each scenario's bytes go
 *   node scripts/bundle-size.mjs --json     the sizes as JSON
 *   node scripts/bundle-size.mjs --source   from src/ instead of dist/ (per-module detail of the library)
 */
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The scenarios: a name and the module text an application would write. */
export const SCENARIOS = [
  { name: "compile", source: 'import { compile } from "filter-expr"; export default compile;' },
  { name: "compile+schemas", source: 'import { compile, schemas } from "filter-expr"; export default [compile, schemas];' },
  { name: "parse", source: 'import { parse } from "filter-expr"; export default parse;' },
  { name: "diagnose+fixes", source: 'import { diagnose, fixAll, applyFix } from "filter-expr"; export default [diagnose, fixAll, applyFix];' },
  { name: "web compile", source: 'import { compile } from "filter-expr/web"; export default compile;' },
  { name: "web compile+schemas", source: 'import { compile, schemas } from "filter-expr/web"; export default [compile, schemas];' },
  { name: "web diagnose", source: 'import { diagnose } from "filter-expr/web"; export default diagnose;' },
  { name: "web full", source: 'import * as all from "filter-expr/web"; export default all;' },
  { name: "full", source: 'import * as all from "filter-expr"; export default all;' },
  { name: "cel-js", source: 'import * as cel from "@marcbachmann/cel-js"; export default cel;', optional: true },
  { name: "jsonata", source: 'import jsonata from "jsonata"; export default jsonata;', optional: true },
];

/**
 * Bundles one module text for the browser, minified (unless `minify: false`), in memory. Returns the
 * output's bytes (every chunk, the ones loaded on demand included, and the entry's own) and the metafile.
 */
export async function bundle(source, options = {}) {
  const result = await esbuild.build({
    stdin: { contents: source, resolveDir: ROOT, loader: "js", sourcefile: "scenario.js" },
    bundle: true,
    minify: options.minify ?? true,
    format: "esm",
    platform: "browser",
    splitting: options.splitting ?? false,
    outdir: "out",
    write: false,
    metafile: true,
    logLevel: "silent",
    legalComments: "none",
    define: { "process.env.FILTER_EXPR_VALIDATE_GRAMMAR": '"0"' },
    // --source: the library's TypeScript sources instead of dist/, to attribute bytes per module.
    ...(options.source ? { alias: { "filter-expr": `${ROOT}src/index.ts` } } : {}),
  });
  return result;
}

/**
 * The minified and gzip sizes of a build's outputs: `entry`, what a page loads first (the entry and
 * the chunks it imports statically, transitively); `total`, every chunk (those loaded on demand by
 * `import()` too). Gzip at level 9, each file apart (as a server sends them). `entryText` is the text
 * of what loads first.
 */
export function sizes(result) {
  const files = new Map(result.outputFiles.filter((f) => f.path.endsWith(".js")).map((f) => [f.path.replace(/^.*\/out\//, "out/"), f]));
  const measure = (f) => ({ min: f.contents.length, gzip: gzipSync(f.contents, { level: 9 }).length });
  const add = (a, b) => ({ min: a.min + b.min, gzip: a.gzip + b.gzip });
  const outputs = result.metafile.outputs;
  const entryPath = Object.keys(outputs).find((k) => outputs[k].entryPoint !== undefined && k.endsWith(".js"));
  const loaded = new Set();
  const visit = (path) => {
    if (loaded.has(path)) return;
    loaded.add(path);
    for (const i of outputs[path].imports) if (i.kind === "import-statement" && outputs[i.path]) visit(i.path);
  };
  visit(entryPath);
  const zero = { min: 0, gzip: 0 };
  const entry = [...loaded].map((p) => measure(files.get(p))).reduce(add, zero);
  const total = [...files.values()].map(measure).reduce(add, zero);
  return { entry, total, chunks: files.size, entryText: [...loaded].map((p) => files.get(p).text).join("\n") };
}

/** The package (or "filter-expr:<path>" for the library's own modules) of a metafile input path. */
function owner(path) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (m) return m[1];
  return `filter-expr:${path}`;
}

/** Bytes in the outputs per package and per module. */
export function attribute(metafile) {
  const perModule = new Map();
  for (const out of Object.values(metafile.outputs)) {
    for (const [path, { bytesInOutput }] of Object.entries(out.inputs)) perModule.set(path, (perModule.get(path) ?? 0) + bytesInOutput);
  }
  const perPackage = new Map();
  for (const [path, bytes] of perModule) {
    const o = owner(path);
    const key = o.startsWith("filter-expr:") ? "filter-expr" : o;
    perPackage.set(key, (perPackage.get(key) ?? 0) + bytes);
  }
  const sort = (m) => [...m].sort((a, b) => b[1] - a[1]);
  return { perPackage: sort(perPackage), perModule: sort(perModule) };
}

const kB = (n) => (n / 1000).toFixed(1).padStart(6);

async function main() {
  const args = new Set(process.argv.slice(2));
  const rows = [];
  for (const s of SCENARIOS) {
    let result;
    try {
      result = await bundle(s.source, { splitting: true, source: args.has("--source") });
    } catch (e) {
      if (s.optional) continue;
      throw e;
    }
    const size = sizes(result);
    rows.push({ name: s.name, ...size });
    if (args.has("--detail")) {
      const { perPackage, perModule } = attribute(result.metafile);
      console.log(`\n== ${s.name}: entry ${kB(size.entry.min)} kB min, ${kB(size.entry.gzip)} kB gzip; all ${size.chunks} chunks ${kB(size.total.min)} kB min, ${kB(size.total.gzip)} kB gzip`);
      console.log("  per package (minified bytes before gzip, all chunks):");
      for (const [p, b] of perPackage) console.log(`    ${kB(b)} kB  ${p}`);
      console.log("  largest modules:");
      for (const [p, b] of perModule.slice(0, 30)) console.log(`    ${kB(b)} kB  ${p.replace(/^.*node_modules\//, "")}`);
    }
  }
  if (args.has("--json")) {
    console.log(JSON.stringify(rows, null, 2));
    return;
  }
  console.log("\nscenario            entry min   entry gzip   all min   all gzip  chunks");
  for (const r of rows) console.log(`${r.name.padEnd(18)} ${kB(r.entry.min)} kB  ${kB(r.entry.gzip)} kB  ${kB(r.total.min)} kB ${kB(r.total.gzip)} kB  ${r.chunks}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
