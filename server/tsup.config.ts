import { defineConfig } from "tsup";

export default defineConfig({
  entry: { main: "src/main.ts" },
  format: ["esm"],
  target: "node20",
  clean: true,
  // The library is a dependency (the workspace's root package), never bundled: one copy of its
  // classes in a process that imports both. esbuild (a development dependency) is loaded only to
  // build the playground when dist/ui is missing (src/ui/assets.ts).
  external: ["filter-expr", "esbuild"],
  banner: { js: "#!/usr/bin/env node" },
});
