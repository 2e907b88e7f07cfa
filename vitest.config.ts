import { defineConfig } from "vitest/config";
import { LIBRARY_BUILD, SUITE } from "./test/support/suite-options.js";

// One `npm test` for the packages of the repository: the library (this folder), the server (server/),
// the language server (lsp/) and the CodeMirror package (codemirror/).
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // Most files wait on other processes (servers, PostgreSQL, Chromium, npm): four at a time keep the
    // two cores busy (the suite took 296–309 s with three, 281 s with four), where vitest's default
    // (cores − 1) runs one file at a time.
    maxWorkers: 4,
    // Current builds of both packages (processes under test start from them, and the server's tests
    // import the library's), and one PostgreSQL cluster for the run (each test file takes databases
    // of its own in it).
    globalSetup: ["./test/support/build-global.ts", "./test/support/postgres-global.ts"],
    minWorkers: 1,
    projects: [
      {
        // The tests import the package face (src/index.ts) as its build; the internal modules a few
        // of them test directly are transformed as usual.
        resolve: { alias: [{ find: /^(\.\.\/)+src\/index\.js$/, replacement: LIBRARY_BUILD.path }] },
        test: {
          server: { deps: { external: LIBRARY_BUILD.external } },
          name: "filter-expr",
          include: ["test/**/*.test.ts"],
          ...SUITE,
        },
      },
      "server/vitest.config.ts",
      "lsp/vitest.config.ts",
      "codemirror/vitest.config.ts",
    ],
  },
});
