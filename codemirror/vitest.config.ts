import { defineProject } from "vitest/config";
import { LIBRARY_BUILD, SUITE } from "../test/support/suite-options.js";

export default defineProject({
  // The library as the page gets it: its build (test/support/suite-options.ts).
  resolve: { alias: { "filter-expr": LIBRARY_BUILD.path } },
  test: {
    name: "codemirror",
    server: { deps: { external: LIBRARY_BUILD.external } },
    include: ["test/**/*.test.ts"],
    ...SUITE,
  },
});
