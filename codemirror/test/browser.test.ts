/**
 * filter-expr-codemirror in a real browser: Debian's chromium driven by playwright-core, on a minimal page
 * (test/page/main.ts) that imports only the package's build, the library's and CodeMirror, bundled by
 * esbuild as an application would and served on loopback. Every wait is on a condition of the page.
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { build } from "esbuild";
import { completionsAt, schemas, selectorAt } from "filter-expr";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HANG_MS } from "../../test/support/wait.js";
import { launchChromium, type Browser } from "../../test/support/chromium.js";

/** expect.poll's options: it waits (1 s by default) as long as the hang guard, however busy the machine. */
const POLL = { timeout: HANG_MS, interval: 50 };
const HTML = '<!doctype html><html><head><meta charset="utf-8"><title>filter-expr-codemirror</title></head><body><div id="editor"></div><script type="module" src="/app.js"></script></body></html>';

let server: Server;
let base: string;
let browser: Browser;
let context: BrowserContext;
const pageErrors: string[] = [];

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, "page", "main.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    write: false,
    // A bundle as an application makes it from the installed builds: no tsconfig (this repository's
    // paths point at the sources) and no `define` (the library must not need `process` in a browser).
    tsconfigRaw: {},
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0]!.contents;
  server = createServer((req, res) => {
    const js = req.url === "/app.js";
    res.writeHead(200, { "content-type": js ? "text/javascript; charset=utf-8" : "text/html; charset=utf-8" });
    res.end(js ? script : HTML);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium("filter-codemirror", { width: 900, height: 600 });
  context = browser.context;
});

afterAll(async () => {
  await browser?.close();
  server?.close();
});

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

/** A new tab of the test page with `doc` for `schema`, once its editor is up. */
async function open(doc: string, schema = "job"): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  await page.goto(`${base}/?${new URLSearchParams({ doc, schema }).toString()}`);
  await page.locator('body[data-ready="true"] .cm-content').waitFor();
  return page;
}

async function text(page: Page): Promise<string> {
  return page.locator(".cm-content").innerText();
}

/** The labels of the open completion list, in its order. */
async function labels(page: Page): Promise<string[]> {
  await page.locator(".cm-tooltip-autocomplete").waitFor();
  return page.locator(".cm-tooltip-autocomplete li .cm-completionLabel").allInnerTexts();
}

/** Puts the cursor at the end of the text. */
async function end(page: Page): Promise<void> {
  await page.locator(".cm-content").click();
  await page.keyboard.press("Control+End");
}

describe("filter-expr-codemirror on a page of its own", () => {
  it("underlines errors and warnings with their codes, and a missing end on its last character", async () => {
    const page = await open('Stauts == "running"');
    const error = page.locator(".cm-lintRange-error");
    await expect.poll(() => error.first().innerText(), POLL).toBe("Stauts");
    await error.first().hover();
    const tooltip = page.locator(".cm-tooltip-lint");
    await tooltip.waitFor();
    expect(await tooltip.locator(".cm-diagnosticSource").innerText()).toBe("unknown-field");
    expect(await tooltip.innerText()).toContain('"Stauts" is not a field of JobListStub; did you mean "Status"?');
    await page.close();

    const warned = await open("JobSummary.Summary.web.Running == 1");
    await expect.poll(() => warned.locator(".cm-lintRange-warning").first().innerText(), POLL).toBe("web");
    await warned.close();

    const short = await open("Status ==");
    await expect.poll(() => short.locator(".cm-lintRange-error").first().innerText(), POLL).toBe("=");
    await short.close();
  });

  it("a fix is an action of the diagnostic, and Mod-. applies the first fix", async () => {
    const page = await open('Stauts == "running"');
    await page.locator(".cm-lintRange-error").first().hover();
    const action = page.locator(".cm-tooltip-lint .cm-diagnosticAction");
    await expect.poll(() => action.first().innerText(), POLL).toBe('replace "Stauts" with "Status"');
    await action.first().click();
    await expect.poll(() => text(page), POLL).toBe('Status == "running"');
    await page.locator(".cm-lint-marker, .cm-lintRange").first().waitFor({ state: "detached" });
    await page.close();

    const quoted = await open("Name == web-1");
    await quoted.locator(".cm-lintRange-error").first().waitFor();
    await end(quoted);
    await quoted.keyboard.press("Control+.");
    await expect.poll(() => text(quoted), POLL).toBe('Name == "web-1"');
    await quoted.close();
  });

  it("completes the fields of a nested record after a dot, with their types", async () => {
    const page = await open("");
    await page.locator(".cm-content").click();
    await page.keyboard.type("JobSummary.");
    const expected = completionsAt("JobSummary.", 11, { schema: schemas.job }).items;
    expect((await labels(page)).sort()).toEqual(expected.map((i) => i.label).sort());
    const summary = page.locator(".cm-tooltip-autocomplete li", { hasText: "Summary" }).filter({ hasNotText: "Children" });
    expect(await summary.locator(".cm-completionDetail").innerText()).toBe("map of record TaskGroupSummary");
    await page.keyboard.type("Chi");
    await page.locator(".cm-tooltip-autocomplete li", { hasText: "Children" }).click();
    expect(await text(page)).toBe("JobSummary.Children");
    await page.close();
  });

  it("completes the operators after a selector, in the library's order, and a key step from its own start", async () => {
    const page = await open("Status ");
    await end(page);
    await page.keyboard.press("Control+Space");
    expect(await labels(page)).toEqual(completionsAt("Status ", 7, { schema: schemas.job }).items.map((i) => i.label));
    await page.keyboard.type("ma");
    await expect.poll(async () => (await labels(page))[0], POLL).toBe("matches");
    await page.keyboard.press("Enter");
    await expect.poll(() => text(page), POLL).toBe("Status matches");
    await page.close();

    const odd = await open("", "odd");
    await odd.locator(".cm-content").click();
    await odd.keyboard.type("Inner.");
    expect((await labels(odd)).sort()).toEqual(["Plain", "a b"]);
    await odd.locator(".cm-tooltip-autocomplete li", { hasText: "a b" }).click();
    expect(await text(odd)).toBe('Inner["a b"]');
    await odd.close();
  });

  it("shows the type of the selector under the pointer, and colours the language's words", async () => {
    const doc = "JobSummary.Summary is empty";
    const page = await open(doc);
    await page.locator(".cm-line").getByText("JobSummary", { exact: true }).hover();
    const tooltip = page.locator(".cm-filter-type");
    await tooltip.waitFor();
    const info = selectorAt(doc, 3, { schema: schemas.job })!;
    expect(await tooltip.innerText()).toBe(`${info.text}: ${info.type}`);
    expect(info.type).toBe("map of record TaskGroupSummary");
    const colour = (word: string) => page.locator(".cm-line span", { hasText: new RegExp(`^${word}$`) }).first().evaluate((e) => getComputedStyle(e).color);
    expect(await colour("is")).toBe("rgb(130, 80, 223)");
    expect(await colour("empty")).toBe("rgb(130, 80, 223)");
    await page.close();
  });

  it("a schema given as a function is read at each lint", async () => {
    const page = await open('JobSummary.JobID == "x"');
    await page.locator(".cm-lintRange").first().waitFor({ state: "detached" });
    await page.evaluate(() => (window as unknown as { setSchema(name: string): void }).setSchema("deployment"));
    await expect.poll(() => page.locator(".cm-lintRange-error").first().innerText(), POLL).toBe("JobSummary");
    await page.close();
  });
});
