import { fileURLToPath } from "node:url";
import { defineProject } from "vitest/config";
import { SUITE } from "../test/support/suite-options.js";

export default defineProject({
  resolve: {
    // The library as the server runs it, its build (made current by the run's global setup,
    // test/support/build-global.ts), imported by Node itself: every test file's worker loads one
    // bundled file instead of transforming the library's hundred modules.
    alias: { "filter-expr": fileURLToPath(new URL("../dist/index.js", import.meta.url)) },
  },
  test: {
    name: "server",
    server: { deps: { external: [/\/dist\/(index|chunk-[A-Z0-9]+)\.js$/] } },
    include: ["test/**/*.test.ts"],
    ...SUITE,
  },
});
