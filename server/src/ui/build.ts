/**
 * Builds the playground's page (page/main.ts, page/style.css, page/index.html) with esbuild into
 * static assets: one script and one stylesheet named by their content hash, and index.html pointing
 * at them. The library is bundled from its source (filter-expr → ../src/index.ts), so the page checks
 * filters with exactly the code the server runs, and so is the editor support (filter-expr-codemirror →
 * ../codemirror/src/index.ts), so the page needs no build of either. esbuild is a development dependency: it is loaded
 * only when the assets are built (at `npm run build`, or at start when running from source).
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { codesPage } from "./codes.js";

/** One built file. */
export interface Asset {
  readonly path: string;
  readonly body: Buffer;
  readonly contentType: string;
  /** Named by its content hash: cached for a year. */
  readonly immutable: boolean;
}

const PAGE = fileURLToPath(new URL("./page/", import.meta.url));
const LIBRARY = fileURLToPath(new URL("../../../src/index.ts", import.meta.url));
const CODEMIRROR = fileURLToPath(new URL("../../../codemirror/src/index.ts", import.meta.url));

const TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

/** The content type of a file name. */
export function contentType(name: string): string {
  const ext = /\.[a-z]+$/.exec(name)?.[0] ?? "";
  return TYPES[ext] ?? "application/octet-stream";
}

/** Builds the page in memory. */
export async function buildPage(options: { minify?: boolean } = {}): Promise<Asset[]> {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: { app: `${PAGE}main.ts` },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["chrome110", "firefox110", "safari16"],
    minify: options.minify ?? true,
    sourcemap: false,
    write: false,
    outdir: "/ui",
    entryNames: "[name]-[hash]",
    alias: { "filter-expr": LIBRARY, "filter-expr-codemirror": CODEMIRROR },
    // The parser reads one environment variable (grammar validation, for its own tests).
    define: { "process.env.FILTER_EXPR_VALIDATE_GRAMMAR": '"0"' },
    logLevel: "silent",
    legalComments: "none",
  });
  const assets: Asset[] = result.outputFiles.map((f) => {
    const path = f.path.slice(f.path.lastIndexOf("/") + 1);
    return { path, body: Buffer.from(f.contents), contentType: contentType(path), immutable: true };
  });
  const script = assets.find((a) => a.path.endsWith(".js"));
  const style = assets.find((a) => a.path.endsWith(".css"));
  if (!script || !style) throw new Error("the playground build made no script or no stylesheet");
  const template = await readFile(`${PAGE}index.html`, "utf8");
  const html = template.replace("%SCRIPT%", script.path).replace("%STYLE%", style.path);
  assets.push({ path: "index.html", body: Buffer.from(html), contentType: contentType("index.html"), immutable: false });
  assets.push({ path: "codes.html", body: Buffer.from(await codesPage(template, style.path)), contentType: contentType("codes.html"), immutable: false });
  return assets;
}
