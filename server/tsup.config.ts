import { defineConfig } from "tsup";

export default defineConfig({
  entry: { main: "src/main.ts" },
  format: ["esm"],
  target: "node20",
  clean: true,
  // The library is a dependency (the workspace's root package), never bundled: one copy of its
  // classes in a process that imports both.
  external: ["filter-expr"],
  banner: { js: "#!/usr/bin/env node" },
});
