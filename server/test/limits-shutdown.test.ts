/**
 * Graceful shutdown under keep-alive load, on the filter-server bin: every request the server accepted
 * gets a whole answer (its own, or 503 once the server is closing), keep-alive connections are closed
 * cleanly, and no client sees a reset.
 */
import { afterAll, describe, expect, it } from "vitest";
import { killAll, start } from "./server-process.js";

afterAll(() => killAll());

interface Tally {
  ok: number;
  unavailable: number;
  /** Connections refused: the listener is closed (a new connection, never accepted). */
  refused: number;
  /** Resets and connections closed under a request: what must never happen. */
  broken: string[];
}

/** The code of a fetch failure (undici wraps it in `cause`). */
function codeOf(e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (e as Error).message;
}

/**
 * Keeps `connections` request loops going (fetch's global dispatcher keeps connections alive) against `api` until each one's connection is
 * refused (the server stopped listening) or `stop` resolves.
 */
async function load(api: string, connections: number, started: () => void, stop: Promise<unknown>): Promise<Tally> {
  const tally: Tally = { ok: 0, unavailable: 0, refused: 0, broken: [] };
  let done = false;
  void stop.then(() => (done = true));
  const paths = ["/v1/jobs?per_page=5", "/v1/deployments?per_page=3", "/v1/jobs?namespace=*&per_page=20", "/v1/agent/self"];
  const loop = async (n: number): Promise<void> => {
    for (let i = 0; !done; i++) {
      try {
        const res = await fetch(`${api}${paths[(n + i) % paths.length]}`);
        await res.arrayBuffer();
        if (res.status === 200) tally.ok++;
        else if (res.status === 503) tally.unavailable++;
        else tally.broken.push(`status ${res.status}`);
        if (tally.ok === connections * 10) started();
      } catch (e) {
        const code = codeOf(e);
        if (code === "ECONNREFUSED") {
          tally.refused++;
          return;
        }
        tally.broken.push(code);
      }
    }
  };
  await Promise.all(Array.from({ length: connections }, (_, n) => loop(n)));
  return tally;
}

describe("SIGTERM under keep-alive load", () => {
  it.each([1, 2, 3])("shutdown %i: no request is reset or cut, every accepted one is answered", async () => {
    // A shutdown bound (default 10 s) far above what a shutdown takes on a busy machine: only a request
    // the shutdown itself would never end meets it.
    const proc = await start(["--shutdown-timeout", "120s"]);
    let began!: () => void;
    const loaded = new Promise<void>((resolve) => (began = resolve));
    const tally = load(proc.api, 16, began, proc.exit);
    await loaded;
    const signalled = Date.now();
    proc.child.kill("SIGTERM");
    const exit = await proc.exit;
    const result = await tally;
    console.log(`shutdown in ${Date.now() - signalled} ms: ${result.ok} ok, ${result.unavailable} 503, ${result.refused} refused, ${result.broken.length} broken ${result.broken.join(" ")}`);
    expect(exit.code).toBe(0);
    expect(result.broken).toEqual([]);
    expect(result.ok).toBeGreaterThan(0);
  });
});
