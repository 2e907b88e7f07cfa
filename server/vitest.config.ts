import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { SUITE } from "../test/support/suite-options.js";

export default defineProject({
  resolve: {
    // The library from its source (as server/tsconfig.json's paths), not from its build.
    alias: { "filter-expr": fileURLToPath(new URL("../src/index.ts", import.meta.url)) },
  },
  test: {
    name: "server",
    include: ["test/**/*.test.ts"],
    ...SUITE,
  },
});
