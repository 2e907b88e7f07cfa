/**
 * Where the playground's assets come from: the prebuilt ones next to the built server (dist/ui, made
 * by `npm run build -w filter-server`), or, running from source (`npm start`), a build in memory with
 * esbuild the first time the page is asked for, so that the page always matches the sources.
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { buildPage, contentType, type Asset } from "./build.js";

/**
 * The folder of prebuilt assets: `ui/` beside the running module. The built server is one file,
 * dist/main.js, so this is dist/ui; from source it would be src/ui/ui, which does not exist.
 */
const PREBUILT = fileURLToPath(new URL("./ui/", import.meta.url));

/** The assets by file name. */
export type Assets = ReadonlyMap<string, Asset>;

/** Reads the prebuilt assets of `dir`, or undefined when it holds no index.html. */
export async function readPrebuilt(dir = PREBUILT): Promise<Assets | undefined> {
  if (!existsSync(`${dir}index.html`)) return undefined;
  const out = new Map<string, Asset>();
  for (const name of await readdir(dir)) {
    out.set(name, { path: name, body: await readFile(`${dir}${name}`), contentType: contentType(name), immutable: name !== "index.html" });
  }
  return out;
}

/** The prebuilt assets, else a fresh build. */
export async function loadAssets(): Promise<Assets> {
  const prebuilt = await readPrebuilt();
  if (prebuilt) return prebuilt;
  return new Map((await buildPage()).map((a) => [a.path, a]));
}
