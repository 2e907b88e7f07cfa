/**
 * The web entry in a real browser: Debian's chromium driven by playwright-core runs a page that bundles
 * dist/web.js as an application would (esbuild, code splitting: the full parser and the regular
 * expression engine are chunks loaded on demand), served on loopback. On every case of the conformance
 * corpora its `parse`, `evaluate` and `compile` (with and without checks) answer, errors included
 * (class, code, span, message), as the package's entry does in Node. Every wait is on the page.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { basename, join } from "node:path";
import { build } from "esbuild";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as sync from "../src/index.js";
import { loadCorpus, type ConformanceCase } from "./support/corpus.js";
import { describeError, outcome } from "./support/outcome.js";
import { launchChromium, type Browser } from "./support/chromium.js";

const HTML = '<!doctype html><html><head><meta charset="utf-8"><title>filter-expr/web</title></head><body><script type="module" src="/main.js"></script></body></html>';

const cases = [...loadCorpus(), ...loadCorpus(["fidelity-cases.jsonl"]), ...loadCorpus(["regex-unicode-cases.jsonl"])];
/** The cases as the page reads them: integers beyond 2^53 as `{ "\u0000bigint": digits }`. */
const casesJson = JSON.stringify(cases, (_key, value: unknown) => (typeof value === "bigint" ? { "\u0000bigint": value.toString() } : value));

let server: Server;
let base: string;
let browser: Browser;
let context: BrowserContext;
/** The chunks the page asked for, by name. */
const served: string[] = [];

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, "web-page", "main.ts")],
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    outdir: "/page",
    write: false,
    tsconfigRaw: {},
    logLevel: "silent",
  });
  const files = new Map(bundle.outputFiles.map((f) => [`/${basename(f.path)}`, f.contents]));
  server = createServer((req, res) => {
    const path = req.url ?? "/";
    const file = files.get(path);
    if (file !== undefined) served.push(path);
    res.writeHead(200, { "content-type": file !== undefined ? "text/javascript; charset=utf-8" : path === "/cases.json" ? "application/json" : "text/html; charset=utf-8" });
    res.end(file ?? (path === "/cases.json" ? casesJson : HTML));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium("filter-web");
  context = browser.context;
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

/** What the package's entry answers in Node, as the page writes its answers. */
function expected(c: ConformanceCase): string[] {
  const schema = c.kind === "json" ? undefined : sync.schemas[c.kind];
  const parsed = outcome(() => {
    const ast = sync.parse(c.expr);
    return { text: sync.print(ast), span: ast.span };
  });
  const out = [parsed, outcome(() => sync.evaluate(c.expr, c.datum, { schema }))];
  for (const check of [true, false]) {
    let f: sync.Filter;
    try {
      f = sync.compile(c.expr, { schema, check });
    } catch (e) {
      out.push(`compile ${describeError(e)}`);
      continue;
    }
    out.push(outcome(() => f.evaluate(c.datum)));
  }
  return out;
}

describe("filter-expr/web in Chromium", () => {
  it("answers the conformance corpora as the package's entry does in Node, errors included, loading its parser and regex engine on demand", async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${base}/`);
    await page.locator('body[data-done="true"]').waitFor({ state: "attached" });
    const answers = (await page.evaluate(() => (globalThis as unknown as { answers: string[][] }).answers)) as string[][];
    expect(errors).toEqual([]);
    expect(answers).toHaveLength(cases.length);
    const bad: string[] = [];
    cases.forEach((c, i) => {
      const want = expected(c);
      const got = answers[i]!;
      want.forEach((w, k) => {
        if (w !== got[k]) bad.push(`${c.id} ${["parse", "evaluate", "compile", "compile check=false"][k]} ${JSON.stringify(c.expr).slice(0, 100)}: ${w.slice(0, 300)} / browser ${got[k]?.slice(0, 300)}`);
      });
    });
    expect(bad.slice(0, 20)).toEqual([]);
    // The corpora hold syntax errors and patterns: the page loaded more than its first chunks.
    expect(served.length).toBeGreaterThan(2);
    await page.close();
  });
});
