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
/**
 * The folders of src/ and the folders each may import (docs/internals.md, "Rooms"): a folder importing
 * one that is not listed (an upward import) fails, whether or not it closes a circle.
 */
const MAY_IMPORT = {
  unicode: [],
  syntax: ["unicode"],
  semantics: ["syntax", "unicode"],
  evaluate: ["semantics", "syntax", "unicode"],
  lint: ["semantics", "syntax"],
  targets: ["evaluate", "lint", "semantics", "syntax"],
  fix: ["lint", "targets", "semantics", "syntax"],
  table: ["evaluate", "semantics", "syntax"],
  sql: ["evaluate", "semantics", "syntax", "unicode"],
  cli: ["lint", "targets", "semantics"],
};
const FOLDERS = Object.keys(MAY_IMPORT);

/** One rule per folder: it imports no folder but its own and the listed ones, and not the package face (but the CLI). */
const folderRules = FOLDERS.map((folder) => {
  const forbidden = FOLDERS.filter((f) => f !== folder && !MAY_IMPORT[folder].includes(f));
  const face = folder === "cli" ? [] : ["^src/index\\.ts$"];
  return {
    name: `${folder}-may-import`,
    comment: `src/${folder}/ may import only ${MAY_IMPORT[folder].map((f) => `${f}/`).join(", ") || "no other folder"} (and the top-level modules).`,
    severity: "error",
    from: { path: `^src/${folder}/` },
    to: { path: [...forbidden.map((f) => `^src/${f}/`), ...face] },
  };
});

export default {
  forbidden: [
    ...folderRules,
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
