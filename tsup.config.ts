import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: { index: "src/index.ts" },
    format: ["esm"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
  },
  {
    // Chevrotain ships ESM only: the CommonJS build carries its own copy.
    entry: { index: "src/index.ts" },
    format: ["cjs"],
    dts: true,
    sourcemap: true,
    target: "node20",
    noExternal: ["chevrotain", /^@chevrotain\//, "lodash-es"],
  },
  {
    entry: {
      "cli/filter-check": "src/cli/filter-check.ts",
      "server/main": "src/server/main.ts",
    },
    format: ["esm"],
    sourcemap: true,
    target: "node20",
    banner: { js: "#!/usr/bin/env node" },
  },
]);
