/**
 * The playground in a real browser: Debian's chromium driven by playwright-core, against the real app
 * listening on loopback with ACLs on and the demo data. One browser for the file; a screenshot per
 * test, kept under test/screenshots/ (git-ignored). Every wait is on a condition of the page.
 */
import { execFile } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import type { FastifyInstance } from "fastify";
import { compile, schemas } from "filter-expr";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { generateDemo } from "../src/demo/generate.js";
import { MemoryStore } from "../src/store/memory/index.js";
import { SchedulerState } from "../src/store/memory/state.js";
import { testContext } from "./support/context.js";
import { HANG_MS } from "../../test/support/wait.js";
import { launchChromium, type Browser } from "../../test/support/chromium.js";

const run = promisify(execFile);
const SCREENSHOTS = join(import.meta.dirname, "screenshots");
const TOKEN = "playground-reader";
/** expect.poll's options: it waits (1 s by default) as long as the hang guard, however busy the machine. */
const POLL = { timeout: HANG_MS, interval: 50 };

let app: FastifyInstance;
let base: string;
let browser: Browser;
let context: BrowserContext;
const pageErrors: string[] = [];

beforeAll(async () => {
  const ctx = testContext([{ SecretID: TOKEN, Name: "reader", Capabilities: ["job:read", "node:read"] }]);
  app = await buildApp(ctx, { scheduler: new MemoryStore(new SchedulerState(generateDemo())) });
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  browser = await launchChromium("filter-playground", { width: 1100, height: 800 });
  context = browser.context;
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([]);
});

/** A new tab of the playground at `hash` (of the server at `at`), with the ACL token in its session storage unless `token` is false. */
async function open(hash: string, token = true, at = base): Promise<Page> {
  const page = await context.newPage();
  page.on("pageerror", (e) => pageErrors.push(e.message));
  if (token) await page.addInitScript((t) => sessionStorage.setItem("filter-playground.token", t), TOKEN);
  await page.goto(`${at}/ui/${hash}`);
  return page;
}

function hashOf(state: Record<string, string>): string {
  return `#${new URLSearchParams(state).toString()}`;
}

/** Waits until the results are those of the current state. */
async function settled(page: Page, state: "done" | "error" | "invalid" = "done"): Promise<void> {
  await page.locator(`#results[data-state="${state}"]`).waitFor();
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function editorText(page: Page): Promise<string> {
  return page.locator(".cm-content").innerText();
}

async function rowIds(page: Page): Promise<string[]> {
  return page.locator("#items tbody tr.item").evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id ?? ""));
}

/** The IDs the server answers for the page's request (the URL the page shows), fetched directly. */
async function directIds(page: Page): Promise<{ ids: string[]; next: string | null }> {
  const url = await page.locator("#curl").getAttribute("data-url");
  const response = await fetch(`${base}${url}`, { headers: { "X-Svc-Token": TOKEN } });
  expect(response.status).toBe(200);
  return { ids: ((await response.json()) as { ID: string }[]).map((j) => j.ID), next: response.headers.get("x-svc-nexttoken") };
}

describe("the playground at /ui/", () => {
  it("underlines a misspelt field with its did-you-mean as it is typed, without a submit", async () => {
    const page = await open(hashOf({ filter: "", endpoint: "jobs", per_page: "5" }));
    await settled(page);
    await page.locator(".cm-content").click();
    await page.keyboard.type('Stauts == "running"');
    // The lint runs as the text grows: wait for the underline of the whole text, not of a prefix.
    const underline = page.locator(".cm-lintRange-error");
    await expect.poll(() => underline.first().innerText(), POLL).toBe("Stauts");
    const item = page.locator("#diagnostics li.error");
    await expect.poll(() => item.innerText(), POLL).toContain('"Stauts" is not a field of JobListStub; did you mean "Status"?');
    await settled(page, "invalid");
    // Hovering the underline shows the message and the fix, as the editor's tooltip.
    await underline.first().hover();
    await page.locator(".cm-tooltip-lint").waitFor();
    expect(await page.locator(".cm-tooltip-lint").innerText()).toContain('did you mean "Status"?');
    await shot(page, "typo-underlined");
    await page.close();
  });

  it("clicking the fix makes the filter valid and runs it", async () => {
    const page = await open(hashOf({ filter: 'Stauts == "running"', endpoint: "jobs", per_page: "5" }));
    await settled(page, "invalid");
    const fix = page.locator("#diagnostics button.fix");
    expect(await fix.innerText()).toBe('Fix: replace "Stauts" with "Status"');
    await fix.click();
    await settled(page);
    expect(await editorText(page)).toBe('Status == "running"');
    expect(await page.locator("#diagnostics li").count()).toBe(0);
    expect(await page.locator(".cm-lintRange-error").count()).toBe(0);
    expect(new URLSearchParams(new URL(page.url()).hash.slice(1)).get("filter")).toBe('Status == "running"');
    await shot(page, "typo-fixed");
    await page.close();
  });

  it("shows the items the server answers for the same URL, with their count, time, curl command and plan, in light and dark", async () => {
    const filter = '"dc1" in Datacenters and Type == "service"';
    const page = await open(hashOf({ filter, endpoint: "jobs", namespace: "*", per_page: "7" }));
    await settled(page);
    const direct = await directIds(page);
    expect(direct.ids.length).toBeGreaterThan(0);
    expect(await rowIds(page)).toEqual(direct.ids);
    expect(await page.locator("#count").innerText()).toBe(String(direct.ids.length));
    expect(await page.locator("#elapsed").innerText()).toMatch(/^\d+\.\d ms$/);
    expect(await page.locator("#next-token").innerText()).toBe(direct.next);
    const curl = await page.locator("#curl").innerText();
    expect(curl).toBe(`curl -sG '${base}/v1/jobs' --data-urlencode 'namespace=*' --data-urlencode 'filter=${filter}' --data-urlencode 'per_page=7' -H "X-Svc-Token: $SVC_TOKEN"`);
    // The command shown, run by a shell, answers the same items.
    const { stdout } = await run("sh", ["-c", curl], { env: { ...process.env, SVC_TOKEN: TOKEN } });
    expect((JSON.parse(stdout) as { ID: string }[]).map((j) => j.ID)).toEqual(direct.ids);
    // The plan, on request, is the library's.
    await page.locator("#show-plan").click();
    await expect.poll(() => page.locator("#plan").innerText(), POLL).toMatch(/^and\b/);
    await shot(page, "results");
    // Readable in dark mode: the page follows prefers-color-scheme.
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe("rgb(255, 255, 255)");
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(background, POLL).toBe("rgb(13, 17, 23)");
    await shot(page, "results-dark");
    await page.close();
  });

  it("pages with the next token: each page is the server's page for that token", async () => {
    const page = await open(hashOf({ filter: 'Status == "running"', endpoint: "jobs", per_page: "4" }));
    await settled(page);
    const first = await rowIds(page);
    const firstDirect = await directIds(page);
    expect(first).toEqual(firstDirect.ids);
    expect(firstDirect.next).not.toBeNull();
    await page.keyboard.press("Alt+n");
    await expect.poll(() => new URL(page.url()).hash, POLL).toContain(`next_token=${encodeURIComponent(firstDirect.next!)}`);
    await settled(page);
    const second = await rowIds(page);
    expect(second[0]).toBe(firstDirect.next!.slice("default.".length));
    expect(second).toEqual((await directIds(page)).ids);
    expect(second.filter((id) => first.includes(id))).toEqual([]);
    await shot(page, "paging");
    await page.locator("#first-page").click();
    await settled(page);
    expect(await rowIds(page)).toEqual(first);
    await page.close();
  });

  it("a shared link restores the page: filter, endpoint, namespace, page size, page and plan", async () => {
    const page = await open(hashOf({ filter: 'Status == "successful"', endpoint: "deployments", namespace: "*", per_page: "3" }));
    await settled(page);
    await page.locator("#next-page").click();
    await settled(page);
    await page.locator("#show-plan").click();
    const rows = await rowIds(page);
    expect(rows).toHaveLength(3);
    const link = page.url();
    expect(link).toContain("next_token=");
    expect(link).not.toContain(TOKEN);
    await page.close();

    const shared = await open(new URL(link).hash);
    await settled(shared);
    expect(await editorText(shared)).toBe('Status == "successful"');
    expect(await shared.locator("#endpoint").inputValue()).toBe("deployments");
    expect(await shared.locator("#namespace").inputValue()).toBe("*");
    expect(await shared.locator("#per-page").inputValue()).toBe("3");
    expect(await rowIds(shared)).toEqual(rows);
    expect(await shared.locator("#plan").isVisible()).toBe(true);
    await shot(shared, "shared-link");
    await shared.close();
  });

  it("works with ACLs on: the token typed in is kept in session storage, never in the URL", async () => {
    const page = await open(hashOf({ filter: 'Type == "batch"', endpoint: "jobs", per_page: "2" }), false);
    await settled(page, "error");
    expect(await page.locator("#status").innerText()).toContain("403: Permission denied");
    await page.locator("#token").fill(TOKEN);
    await settled(page);
    expect(await rowIds(page)).toHaveLength(2);
    expect(page.url()).not.toContain(TOKEN);
    expect(await page.evaluate(() => sessionStorage.getItem("filter-playground.token"))).toBe(TOKEN);
    await page.reload();
    await settled(page);
    expect(await page.locator("#token").inputValue()).toBe(TOKEN);
    await shot(page, "acl");
    await page.close();
  });

  it("completes field names from the endpoint's schema and shows the type of a selector on hover", async () => {
    const page = await open(hashOf({ filter: "", endpoint: "deployments" }));
    await settled(page);
    await page.locator(".cm-content").click();
    await page.keyboard.type("TaskGroups.web.Desi");
    const option = page.locator(".cm-tooltip-autocomplete li", { hasText: "DesiredTotal" });
    await option.waitFor();
    await option.click();
    await page.keyboard.type(" == 3");
    expect(await editorText(page)).toBe("TaskGroups.web.DesiredTotal == 3");
    // The map key may be missing: a warning with the guarded form as its fix.
    await page.locator("#diagnostics li.warning").waitFor();
    await page.locator(".cm-content").press("Control+.");
    await expect.poll(() => editorText(page), POLL).toBe('"web" in TaskGroups and TaskGroups.web.DesiredTotal == 3');
    await settled(page);
    await page.locator(".cm-line").getByText("TaskGroups", { exact: true }).first().hover();
    const tooltip = page.locator(".cm-filter-type");
    await tooltip.waitFor();
    expect(await tooltip.innerText()).toBe("TaskGroups: map of record DeploymentState");
    await shot(page, "completion-hover");
    await page.close();
  });

  it("switching the endpoint underlines the filter against the new endpoint's schema", async () => {
    const page = await open(hashOf({ filter: 'JobSummary.JobID == "x"', endpoint: "jobs" }));
    await settled(page);
    expect(await page.locator(".cm-lintRange-error").count()).toBe(0);
    await page.locator("#endpoint").selectOption("deployments");
    await expect.poll(() => page.locator(".cm-lintRange-error").first().innerText(), POLL).toBe("JobSummary");
    await settled(page, "invalid");
    await page.close();
  });

  it("a typo clears the rows of the filter before it: no stale rows under an invalid filter", async () => {
    const page = await open(hashOf({ filter: 'Status == "running"', endpoint: "jobs", namespace: "*", per_page: "5" }));
    await settled(page);
    expect((await rowIds(page)).length).toBe(5);
    await page.locator(".cm-content").click();
    await page.keyboard.press("End");
    await page.keyboard.type(" and Stauts == dead");
    await settled(page, "invalid");
    expect(await page.locator("#items tbody tr").count()).toBe(0);
    expect(await page.locator("#status").innerText()).toContain("The filter has errors");
    await shot(page, "typo-clears-rows");
    await page.close();
  });

  it("a row opens to why it matched (the deciding parts and what they read) and its JSON, and closes again", async () => {
    const page = await open(hashOf({ filter: '"web" in JobSummary.Summary', endpoint: "jobs", namespace: "*", per_page: "3" }));
    await settled(page);
    const row = page.locator("#items tbody tr.item").first();
    const id = await row.getAttribute("data-id");
    await row.click();
    const json = page.locator("#items tbody tr.item-json pre");
    await json.waitFor();
    const item = JSON.parse(await json.innerText()) as { ID: string; JobSummary: { Summary: Record<string, unknown> } };
    expect(item.ID).toBe(id);
    expect(Object.keys(item.JobSummary.Summary)).toContain("web");
    expect(await row.getAttribute("aria-expanded")).toBe("true");
    // Why: the one part of the filter, true, with the keys it read.
    const why = await page.locator("#items tbody tr.item-json ul.why li").allInnerTexts();
    expect(why).toHaveLength(1);
    expect(why[0]).toMatch(/^"web" in JobSummary\.Summary true: JobSummary\.Summary is \{.*"web":\{/);
    await shot(page, "row-json");
    // The keyboard closes it too.
    await row.press("Enter");
    expect(await page.locator("#items tbody tr.item-json").count()).toBe(0);
    expect(await row.getAttribute("aria-expanded")).toBe("false");
    await page.close();
  });

  it("near misses: a few items that fail one part of the filter, each opening to why it did not match", async () => {
    const filter = 'Status == "running" and "dc1" in Datacenters';
    const page = await open(hashOf({ filter, endpoint: "jobs", namespace: "*", per_page: "3" }));
    await settled(page);
    await page.locator('#near[data-state="done"]:not([hidden])').waitFor();
    const rows = page.locator("#near-items tbody tr.item");
    const count = await rows.count();
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(5);
    const parts = ['Status == "running"', '"dc1" in Datacenters'];
    const compiled = parts.map((p) => compile(p, { schema: schemas.job }));
    for (let i = 0; i < count; i++) {
      const row = rows.nth(i);
      const fails = await row.locator("td.note").innerText();
      expect(parts).toContain(fails);
      await row.click();
      const detail = page.locator("#near-items tbody tr.item-json");
      const item = JSON.parse(await detail.locator("pre").innerText()) as Record<string, unknown>;
      // The item fails the part named, passes the other, and so fails the filter.
      expect(compiled.map((c) => c.evaluate(item))).toEqual(parts.map((p) => p !== fails));
      expect(await detail.locator("p.why-caption").innerText()).toBe("Why it did not match:");
      const why = await detail.locator("ul.why li").allInnerTexts();
      expect(why).toHaveLength(1);
      expect(why[0]!.startsWith(`${fails} false`)).toBe(true);
      await row.click();
    }
    await shot(page, "near-misses");
    // Without a filter, or with an invalid one, there are none.
    await page.locator(".cm-content").click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("Status ==");
    await settled(page, "invalid");
    expect(await page.locator("#near").isHidden()).toBe(true);
    expect(await page.locator("#near-items tbody tr").count()).toBe(0);
    await page.close();
  });

  it("a field the filter reads gets a column, labelled as written", async () => {
    const filter = '"web" in JobSummary.Summary and JobSummary.Summary["web"].Running != 0';
    const page = await open(hashOf({ filter, endpoint: "jobs", namespace: "*", per_page: "5" }));
    await settled(page);
    const headers = await page.locator("#items thead th").allInnerTexts();
    expect(headers).toContain('JobSummary.Summary["web"].Running');
    expect(headers).toContain("JobSummary.Summary");
    const at = headers.indexOf('JobSummary.Summary["web"].Running') + 1;
    const cells = await page.locator(`#items tbody tr.item td:nth-child(${at})`).allInnerTexts();
    expect(cells.length).toBeGreaterThan(0);
    for (const c of cells) expect(Number(c)).toBeGreaterThan(0);
    // Names bound by any/all are not columns; the collection's selector is.
    await page.locator(".cm-content").click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type('any Datacenters as dc { dc == "dc1" }');
    await settled(page);
    expect(await page.locator("#items thead th.read").allInnerTexts()).toEqual([]);
    await page.close();
  });

  it("every example runs without an error, on every endpoint", async () => {
    for (const endpoint of ["jobs", "deployments", "allocations", "evaluations", "nodes"]) {
      const page = await open(hashOf({ filter: "", endpoint, namespace: "*" }));
      await settled(page);
      const examples = await page.locator("#examples option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v !== ""));
      expect(examples.length).toBeGreaterThanOrEqual(3);
      for (const example of examples) {
        await page.locator("#examples").selectOption(example);
        await expect.poll(() => editorText(page), POLL).toBe(example);
        await settled(page);
        expect(await page.locator("#diagnostics li.error").count(), example).toBe(0);
      }
      await page.close();
    }
  });

  it("operators are not painted in the colour of errors", async () => {
    const page = await open(hashOf({ filter: 'Status == "running"', endpoint: "jobs" }));
    await settled(page);
    const colours = await page.evaluate(() => {
      const op = Array.from(document.querySelectorAll(".cm-content span")).find((s) => s.textContent === "==")!;
      const probe = document.createElement("span");
      probe.style.color = "var(--error)";
      document.body.append(probe);
      return { operator: getComputedStyle(op).color, error: getComputedStyle(probe).color };
    });
    expect(colours.operator).not.toBe(colours.error);
    await page.close();
  });

  it("a diagnostic's code links to what the documentation says of it", async () => {
    const page = await open(hashOf({ filter: "Stauts == running", endpoint: "jobs" }));
    await settled(page, "invalid");
    const link = page.locator("#diagnostics li.error a.code");
    expect(await link.innerText()).toBe("error[unknown-field]");
    const href = await link.getAttribute("href");
    expect(href).toBe("codes.html#unknown-field");
    await page.goto(`${base}/ui/${href}`);
    const section = page.locator("section#unknown-field");
    await section.waitFor();
    expect(await section.innerText()).toContain("a name that is not a field of the record");
    await shot(page, "codes");
    await page.close();
  });
});

describe("the playground of a server with --api-headers nomad", () => {
  let nomad: FastifyInstance;
  let nomadBase: string;
  beforeAll(async () => {
    const ctx = testContext([{ SecretID: TOKEN, Name: "reader", Capabilities: ["job:read"] }], { apiHeaders: "nomad" });
    nomad = await buildApp(ctx, { scheduler: new MemoryStore(new SchedulerState(generateDemo())) });
    await nomad.listen({ host: "127.0.0.1", port: 0 });
    nomadBase = `http://127.0.0.1:${(nomad.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => nomad?.close());

  /** The server's page for the page's request, asked with the scheduler's header names. */
  async function direct(page: Page): Promise<{ ids: string[]; next: string | null }> {
    const url = await page.locator("#curl").getAttribute("data-url");
    const response = await fetch(`${nomadBase}${url}`, { headers: { "X-Nomad-Token": TOKEN } });
    expect(response.status).toBe(200);
    return { ids: ((await response.json()) as { ID: string }[]).map((j) => j.ID), next: response.headers.get("x-nomad-nexttoken") };
  }

  it("sends the token as X-Nomad-Token, reads X-Nomad-Nexttoken and pages with it; its curl command says so", async () => {
    const page = await open(hashOf({ filter: 'Status == "running"', endpoint: "jobs", per_page: "4" }), true, nomadBase);
    await settled(page);
    expect(await page.locator('meta[name="filter-server-api-headers"]').getAttribute("content")).toBe("nomad");
    const first = await direct(page);
    expect(await rowIds(page)).toEqual(first.ids);
    expect(first.next).not.toBeNull();
    expect(await page.locator("#next-token").innerText()).toBe(first.next);
    const curl = await page.locator("#curl").innerText();
    expect(curl).toBe(`curl -sG '${nomadBase}/v1/jobs' --data-urlencode 'filter=Status == "running"' --data-urlencode 'per_page=4' -H "X-Nomad-Token: $NOMAD_TOKEN"`);
    const { stdout } = await run("sh", ["-c", curl], { env: { ...process.env, NOMAD_TOKEN: TOKEN } });
    expect((JSON.parse(stdout) as { ID: string }[]).map((j) => j.ID)).toEqual(first.ids);
    await page.locator("#next-page").click();
    await settled(page);
    const second = await rowIds(page);
    expect(second[0]).toBe(first.next!.slice("default.".length));
    expect(second).toEqual((await direct(page)).ids);
    await shot(page, "nomad-headers");
    await page.close();
  });
});
