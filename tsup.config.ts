import { resolve } from "node:path";
import { defineConfig } from "tsup";

/**
 * The CLI reaches the library only through its public entry (src/index.ts): in the build, that import
 * becomes the package's own dist/index.js, so the binary carries no second copy of the library.
 */
const libraryEntry = {
  name: "library-entry",
  setup(build: { onResolve: (options: { filter: RegExp }, callback: (args: { path: string; resolveDir: string }) => { path: string; external: boolean } | undefined) => void }) {
    const entry = resolve("src/index.js");
    build.onResolve({ filter: /(^|\/)index\.js$/ }, (args) => (resolve(args.resolveDir, args.path) === entry ? { path: "../index.js", external: true } : undefined));
  },
};

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
    entry: { index: "src/index.ts" },
    format: ["esm"],
    dts,
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
  {
    entry: { "cli/filter-check": "src/cli/filter-check.ts" },
    format: ["esm"],
    esbuildPlugins: [libraryEntry],
    target: "node20",
    silent: install,
    banner: { js: "#!/usr/bin/env node" },
  },
]);
