import { defineConfig } from "tsup";

/**
 * Chevrotain and what it imports, bundled into both builds. Its ESM entry loads lodash-es file by file
 * (644 modules): importing the library took 0.3–1.4 s that way, against 43–106 ms bundled. It stays the
 * declared dependency it is (its licence and version are the package's); only the loading changes.
 */
const bundled = ["chevrotain", /^@chevrotain\//, "lodash-es"];

/**
 * The build `npm ci` and `npm install` run (`prepare`) in a checkout: what `npm start` and the CLI
 * need, without the type declarations (two thirds of the build's time) and without a log in the
 * newcomer's terminal. Packing and `npm run build` build everything.
 */
const install = process.env.npm_lifecycle_event === "prepare" && ["ci", "install"].includes(process.env.npm_command ?? "");
const dts = !install;

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
  },
  {
    // Chevrotain ships ESM only: the CommonJS build needs its own copy anyway.
    entry: { index: "src/index.ts" },
    format: ["cjs"],
    dts,
    target: "node20",
    silent: install,
    noExternal: bundled,
  },
]);
