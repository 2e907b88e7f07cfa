import { defineConfig } from "tsup";

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
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
  },
]);
