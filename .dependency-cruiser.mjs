/**
 * The import rules of the library (issue 42): no module is part of an import circle, and no folder
 * imports a folder that imports it back. `npm run check:imports` applies them to src/, and
 * test/imports.test.ts runs the same check in the suite.
 *
 * The modules at the top of src/ (errors.ts, messages.ts, json.ts, releases.ts, …) stand outside
 * every folder: any folder may import them. `src/index.ts`, the package face, imports every folder,
 * so no module under src/ imports it (that would be a circle); the CLI, a client of the package,
 * does, and nothing imports the CLI.
 * @type {import("dependency-cruiser").IConfiguration}
 */
export default {
  forbidden: [
    {
      name: "no-circular",
      comment: "A module imports, directly or through others, a module that imports it back.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-folder-loop",
      comment: "A folder imports, directly or through others, a folder that imports it back.",
      severity: "error",
      scope: "folder",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // `import type` counts: a circle of types is a circle of the design.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // Folders and their dependencies are derived with the metrics.
    metrics: true,
    doNotFollow: { path: "node_modules" },
  },
};
