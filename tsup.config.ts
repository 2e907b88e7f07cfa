import { readFile, writeFile } from "node:fs/promises";
import { transform } from "esbuild";
import { defineConfig, type Options } from "tsup";

/**
 * Chevrotain and what it imports at run time, bundled into the build. Its ESM entry loads lodash-es file
 * by file (644 modules): importing the library took 0.3–1.4 s that way, against 43–106 ms bundled.
 * Bundled, they are development dependencies (an install does not fetch a second copy that nothing
 * loads), and their licences travel in dist/THIRD-PARTY-LICENSES.txt. (`@chevrotain/types` holds only
 * types.) One list: what is bundled, minified and credited.
 */
const BUNDLED_PACKAGES = ["chevrotain", "@chevrotain/cst-dts-gen", "@chevrotain/gast", "@chevrotain/regexp-to-ast", "@chevrotain/utils", "lodash-es"];

/** A package's name as a pattern: its slash matches either separator. */
const namePattern = (name: string): string => name.replace("/", "[\\\\/]");

/** Imports of a bundled package (its entry or a file of it). */
const bundled = BUNDLED_PACKAGES.map((name) => new RegExp(`^${namePattern(name)}(?:/|$)`));

/**
 * The bundled packages' modules minified as they are loaded (the library's own code stays as written,
 * for readable stack traces): Chevrotain and its lodash-es were 417 of the package's 1,000 kB of
 * JavaScript.
 */
const minifyBundled: NonNullable<Options["esbuildPlugins"]>[number] = {
  name: "minify-bundled",
  setup(build) {
    build.onLoad({ filter: new RegExp(`[\\\\/]node_modules[\\\\/](?:${BUNDLED_PACKAGES.map(namePattern).join("|")})[\\\\/].*\\.js$`) }, async (args) => {
      const { code } = await transform(await readFile(args.path, "utf8"), { minify: true, format: "esm", loader: "js", target: "node20" });
      return { contents: code, loader: "js" };
    });
  },
};

/** The licences of the bundled packages: each text once, after the packages (name, version) it covers. */
async function thirdPartyLicenses(): Promise<string> {
  const byText = new Map<string, string[]>();
  for (const name of BUNDLED_PACKAGES) {
    const dir = `node_modules/${name}`;
    const manifest = JSON.parse(await readFile(`${dir}/package.json`, "utf8")) as { version: string; license: string };
    const text = (await readFile(`${dir}/LICENSE.txt`, "utf8").catch(() => readFile(`${dir}/LICENSE`, "utf8"))).trim();
    byText.set(text, [...(byText.get(text) ?? []), `${name}@${manifest.version} (${manifest.license})`]);
  }
  const parts = [...byText].map(([text, names]) => `${names.join("\n")}\n\n${text}\n`);
  return `The build of filter-expr bundles parts of these packages:\n\n${parts.join(`\n${"-".repeat(72)}\n\n`)}`;
}

/**
 * The build `npm ci` and `npm install` run (`prepare`) in a checkout: what `npm start` and the CLI
 * need, without the type declarations (two thirds of the build's time) and without a log in the
 * newcomer's terminal. Packing and `npm run build` build everything.
 */
const install = process.env.npm_lifecycle_event === "prepare" && ["ci", "install"].includes(process.env.npm_command ?? "");
const dts = !install;

/**
 * The CommonJS entry: the ESM build itself, through Node's `require` of an ES module (Node 20.19 and
 * later, 22.12 and later; no warning). One copy of the library for `import` and `require` alike (no
 * dual-package hazard), and no second bundle of the library and Chevrotain in the package.
 */
const COMMONJS_ENTRY = `"use strict";
// filter-expr is an ES module; require("filter-expr") loads it (Node 20.19+, 22.12+).
module.exports = require("./index.js");
`;

// The library's build: ESM and CommonJS entry points with their declarations, and the filter-check
// binary. No source maps in the package (they were two thirds of its bytes); `npm run build` in a
// checkout is the way to debug the sources.
export default defineConfig([
  {
    // The library and the filter-check binary in one build: code both use lives in shared chunks, so
    // the binary carries no second copy of the library (nor of the parser and chevrotain) whatever it
    // imports, and starts as fast as the library imports. The binary's hashbang comes from its source.
    // The web entry (src/web.ts) shares the same chunks: a page that imports both carries one copy;
    // its full parser and regular-expression engine are chunks of their own, loaded on demand.
    entry: { index: "src/index.ts", web: "src/web.ts", "cli/filter-check": "src/cli/filter-check.ts" },
    format: ["esm"],
    splitting: true,
    dts: dts && { entry: { index: "src/index.ts", web: "src/web.ts" } },
    clean: true,
    target: "node20",
    silent: install,
    noExternal: bundled,
    esbuildPlugins: [minifyBundled],
    onSuccess: async () => {
      await writeFile("dist/index.cjs", COMMONJS_ENTRY);
      await writeFile("dist/THIRD-PARTY-LICENSES.txt", await thirdPartyLicenses());
    },
  },
  {
    // The CommonJS entry's declarations (index.d.cts); its JavaScript is COMMONJS_ENTRY.
    entry: { index: "src/index.ts" },
    format: ["cjs"],
    dts: dts && { only: true },
    target: "node20",
    silent: install,
  },
]);
