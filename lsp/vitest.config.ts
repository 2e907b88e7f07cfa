import { defineProject } from "vitest/config";
import { LIBRARY_BUILD, SUITE } from "../test/support/suite-options.js";

export default defineProject({
  // The library as the language server runs it: its build (test/support/suite-options.ts).
  resolve: { alias: { "filter-expr": LIBRARY_BUILD.path } },
  test: {
    name: "lsp",
    server: { deps: { external: LIBRARY_BUILD.external } },
    include: ["test/**/*.test.ts"],
    ...SUITE,
  },
});
