/**
 * `GET /ui/`: the filter playground (docs/playground.md). One page and its hashed script and
 * stylesheet; the page calls this server's list endpoints itself (with the ACL token typed into it).
 */
import { createHash } from "node:crypto";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { loadAssets, type Assets } from "./assets.js";
import { DEFAULT_API_HEADERS, DIALECT_META_NAME, type ApiHeaderDialect } from "../api-headers.js";

/** What the page may load: its own files, CodeMirror's inline styles, requests to this server. */
const CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The assets with the page told the server's header dialect: the built page says `svc` in its
 * `<meta name="filter-server-api-headers">`, which the page reads (page/results.ts); another dialect is
 * written into it here.
 */
export function withDialect(assets: Assets, dialect: ApiHeaderDialect): Assets {
  if (dialect === DEFAULT_API_HEADERS) return assets;
  const built = `<meta name="${DIALECT_META_NAME}" content="${DEFAULT_API_HEADERS}">`;
  const out = new Map(assets);
  for (const [name, asset] of assets) {
    if (!name.endsWith(".html")) continue;
    const html = asset.body.toString("utf8");
    if (html.includes(built)) out.set(name, { ...asset, body: Buffer.from(html.replace(built, `<meta name="${DIALECT_META_NAME}" content="${dialect}">`)) });
  }
  return out;
}

/**
 * The playground's routes (registered at prefix /ui). `load` gives the assets (default: prebuilt, else
 * built once); `dialect` is the server's `--api-headers`, which the page is told.
 */
export function uiRoutes(load: () => Promise<Assets> = loadAssets, dialect: ApiHeaderDialect = DEFAULT_API_HEADERS): FastifyPluginAsync {
  let assets: Promise<Assets> | undefined;
  const get = (): Promise<Assets> => {
    assets ??= load().then((a) => withDialect(a, dialect)).catch((e: unknown) => {
      assets = undefined;
      throw e;
    });
    return assets;
  };

  const send = async (name: string, reply: FastifyReply, ifNoneMatch: string | undefined) => {
    let all: Assets;
    try {
      all = await get();
    } catch (e) {
      reply.log.error({ err: e }, "the playground could not be built");
      return reply.code(503).type("text/plain; charset=utf-8").send("the playground is not built: run npm run build -w filter-server");
    }
    const asset = all.get(name);
    if (!asset) return reply.code(404).send();
    const etag = `"${createHash("sha256").update(asset.body).digest("base64url").slice(0, 22)}"`;
    reply
      .header("Content-Type", asset.contentType)
      .header("Cache-Control", asset.immutable ? "public, max-age=31536000, immutable" : "no-cache")
      .header("ETag", etag)
      .header("X-Content-Type-Options", "nosniff");
    if (name === "index.html") reply.header("Content-Security-Policy", CSP).header("Referrer-Policy", "no-referrer");
    if (ifNoneMatch === etag) return reply.code(304).send();
    return reply.send(asset.body);
  };

  return async (app) => {
    // `/ui` redirects to `/ui/`, so that the page's relative URLs resolve under /ui/.
    app.route({
      method: "GET",
      url: "/",
      prefixTrailingSlash: "no-slash",
      handler: (request, reply) => {
        const query = request.url.indexOf("?");
        return reply.redirect(`/ui/${query < 0 ? "" : request.url.slice(query)}`, 301);
      },
    });
    app.route({ method: "GET", url: "/", prefixTrailingSlash: "slash", handler: (request, reply) => send("index.html", reply, request.headers["if-none-match"]) });
    app.get<{ Params: { file: string } }>("/:file", (request, reply) => send(request.params.file, reply, request.headers["if-none-match"]));
  };
}
