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

// The library's build: ESM and CommonJS entry points with their declarations, and the filter-check
// binary. No source maps in the package (they were two thirds of its bytes); `npm run build` in a
// checkout is the way to debug the sources.
export default defineConfig([
  {
    entry: { index: "src/index.ts" },
    format: ["esm"],
    dts: true,
    clean: true,
    target: "node20",
  },
  {
    // Chevrotain ships ESM only: the CommonJS build carries its own copy.
    entry: { index: "src/index.ts" },
    format: ["cjs"],
    dts: true,
    target: "node20",
    noExternal: ["chevrotain", /^@chevrotain\//, "lodash-es"],
  },
  {
    entry: { "cli/filter-check": "src/cli/filter-check.ts" },
    format: ["esm"],
    esbuildPlugins: [libraryEntry],
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
  },
]);
