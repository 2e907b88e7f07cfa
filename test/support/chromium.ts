/**
 * Debian's Chromium for the browser tests, driven by playwright-core (it downloads nothing): a headless
 * context in a throw-away profile, every wait on a page as long as the hang guard. .ci/run installs it.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";
import { HANG_MS } from "./wait.js";

export const CHROMIUM = "/usr/bin/chromium";

/** A browser context and how to close it (and remove its profile). */
export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium headless with a profile of its own (`name` prefixes its folder). */
export async function launchChromium(name: string, viewport?: { width: number; height: number }): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Debian's chromium is not installed at ${CHROMIUM}: the browser tests need it (apt-get install -y chromium; .ci/run installs it)`);
  const profile = mkdtempSync(join(tmpdir(), `${name}-chromium-`));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    ...(viewport ? { viewport } : {}),
    timeout: HANG_MS,
  });
  // Every wait on a page (an element, a navigation) as long as the hang guard: 30 s by default.
  context.setDefaultTimeout(HANG_MS);
  context.setDefaultNavigationTimeout(HANG_MS);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
