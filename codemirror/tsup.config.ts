import { defineConfig } from "tsup";

export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  target: "es2022",
  platform: "browser",
  dts: true,
  clean: true,
  // The library and CodeMirror are installed beside it (CodeMirror once, the application's), never bundled.
  external: ["filter-expr", /^@codemirror\//, /^@lezer\//],
});
