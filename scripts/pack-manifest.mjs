// The package.json a tarball carries, for both packages of the repository: `prepack` rewrites the
// package's manifest for its users and `postpack` puts the repository's back (from a copy kept beside it).
//   node <repo>/scripts/pack-manifest.mjs write     (prepack, in the package's folder)
//   node <repo>/scripts/pack-manifest.mjs restore   (postpack)
// In the tarball: no `prepare` (it builds a git checkout; a tarball holds the build already, and npm asks
// users to approve any install script), no workspaces or install-script approvals (the repository's own),
// and the server's workspace dependency on the library (`file:..`) becomes the library's version range.
import { copyFileSync, existsSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const manifest = join(process.cwd(), "package.json");
const kept = `${manifest}.repository`;
const library = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const mode = process.argv[2];

if (existsSync(kept)) renameSync(kept, manifest); // an earlier pack that did not finish
if (mode === "write") {
  copyFileSync(manifest, kept);
  // The copy keeps the manifest's times, so that it goes back unchanged (build-if-stale.mjs reads them).
  const { atime, mtime } = statSync(manifest);
  utimesSync(kept, atime, mtime);
  const pkg = JSON.parse(readFileSync(manifest, "utf8"));
  delete pkg.scripts?.prepare;
  delete pkg.workspaces;
  delete pkg.allowScripts;
  if (pkg.dependencies?.[library.name]?.startsWith("file:")) pkg.dependencies[library.name] = `^${library.version}`;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (mode !== "restore") {
  throw new Error(`usage: pack-manifest.mjs write|restore (got ${mode})`);
}
