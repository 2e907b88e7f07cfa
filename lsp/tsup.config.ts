import { defineConfig } from "tsup";

export default defineConfig({
  entry: { main: "src/main.ts" },
  format: ["esm"],
  target: "node20",
  clean: true,
  // The library and the protocol packages are dependencies, installed beside it, never bundled.
  external: ["filter-expr", "vscode-languageserver", "vscode-languageserver-textdocument"],
  banner: { js: "#!/usr/bin/env node" },
});
