/**
 * How /ui/ serves the playground over real HTTP: content types, cache headers, the content security
 * policy, revalidation, the redirect from /ui, unknown files and methods; and the prebuilt assets that
 * `npm run build -w filter-server` writes (dist/ui), which the built server serves as they are.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { generateDemo } from "../src/demo/generate.js";
import { MemoryStore } from "../src/store/memory/index.js";
import { SchedulerState } from "../src/store/memory/state.js";
import { readPrebuilt } from "../src/ui/assets.js";
import { uiRoutes } from "../src/ui/index.js";
import { writePage } from "../src/ui/write.js";
import { testContext } from "./support/context.js";

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  const ctx = testContext([{ SecretID: "reader", Capabilities: ["job:read"] }]);
  app = await buildApp(ctx, { scheduler: new MemoryStore(new SchedulerState(generateDemo())) });
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
});

/** The script and stylesheet the page names. */
function assetsOf(html: string): { script: string; style: string } {
  const script = /<script type="module" src="(app-[A-Z0-9]+\.js)">/.exec(html)?.[1];
  const style = /<link rel="stylesheet" href="(app-[A-Z0-9]+\.css)">/.exec(html)?.[1];
  expect(script).toBeDefined();
  expect(style).toBeDefined();
  return { script: script!, style: style! };
}

describe("GET /ui/", () => {
  it("serves the page without a token (ACLs guard the data, which the page asks for with one)", async () => {
    const r = await fetch(`${base}/ui/`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("no-cache");
    expect(r.headers.get("x-content-type-options")).toBe("nosniff");
    expect(r.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await r.text();
    expect(html).toContain("<title>filter playground</title>");
    // No CDN: every script and stylesheet is the server's own.
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    expect((await fetch(`${base}/v1/jobs`)).status).toBe(403);
  });

  it("serves the hashed script and stylesheet as immutable, and revalidates the page with its ETag", async () => {
    const page = await fetch(`${base}/ui/`);
    const etag = page.headers.get("etag");
    const { script, style } = assetsOf(await page.text());
    const js = await fetch(`${base}/ui/${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // The library is bundled from its source: the page checks with the server's own code.
    expect(await js.text()).toContain("did you mean");
    const css = await fetch(`${base}/ui/${style}`, { headers: { "Accept-Encoding": "gzip" } });
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await css.text()).toMatch(/prefers-color-scheme: ?dark/);
    const again = await fetch(`${base}/ui/`, { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
  });

  it("redirects /ui to /ui/ (keeping the query); unknown files are 404, other methods 405", async () => {
    const r = await fetch(`${base}/ui?x=1`, { redirect: "manual" });
    expect(r.status).toBe(301);
    expect(r.headers.get("location")).toBe("/ui/?x=1");
    expect((await fetch(`${base}/ui/nope.js`)).status).toBe(404);
    const post = await fetch(`${base}/ui/`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(await post.text()).toBe("Invalid method");
  });
});

describe("prebuilt assets (dist/ui)", () => {
  it("writePage writes what the server serves; a server with prebuilt assets serves them as they are", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-playground-dist-"));
    try {
      const names = await writePage(dir);
      expect(names.sort()).toEqual(readdirSync(dir).sort());
      const prebuilt = await readPrebuilt(`${dir}/`);
      expect(prebuilt).toBeDefined();
      const html = readFileSync(join(dir, "index.html"), "utf8");
      const { script } = assetsOf(html);
      const server = Fastify();
      await server.register(uiRoutes(async () => prebuilt!), { prefix: "/ui" });
      await server.listen({ host: "127.0.0.1", port: 0 });
      try {
        const url = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
        expect(await (await fetch(`${url}/ui/`)).text()).toBe(html);
        expect(Buffer.from(await (await fetch(`${url}/ui/${script}`)).arrayBuffer()).equals(readFileSync(join(dir, script)))).toBe(true);
      } finally {
        await server.close();
      }
      expect(await readPrebuilt(`${dir}/missing/`)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
