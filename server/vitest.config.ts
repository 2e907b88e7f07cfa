import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";

export default defineProject({
  resolve: {
    // The library from its source (as server/tsconfig.json's paths), not from its build.
    alias: { "filter-expr": fileURLToPath(new URL("../src/index.ts", import.meta.url)) },
  },
  test: {
    name: "server",
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
