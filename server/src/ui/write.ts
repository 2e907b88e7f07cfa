/**
 * Writes the playground's built assets to a folder (default dist/ui, next to the built server's
 * dist/main.js, where `readPrebuilt` finds them): `npm run build -w filter-server` and `prepack` run it
 * after tsup. Run with tsx: `node --import tsx src/ui/write.ts [DIR]`.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildPage } from "./build.js";

/** Builds the page into `dir` (emptied first); resolves to the file names written. */
export async function writePage(dir: string): Promise<string[]> {
  const assets = await buildPage();
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const a of assets) await writeFile(`${dir.replace(/\/?$/, "/")}${a.path}`, a.body);
  return assets.map((a) => a.path);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.argv[2] ?? fileURLToPath(new URL("../../dist/ui/", import.meta.url));
  const names = await writePage(dir);
  process.stdout.write(`playground: ${names.join(", ")} in ${dir}\n`);
}
