import { request } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { auth, closeAll, eventually, startAgent, TOKENS } from "./agent-harness.js";

// Issue 13, point 7: signed storage URLs must not leak through the debug log, and the URLs the
// server hands out must not follow the client's Host header.

const STATE_READER = { SecretID: "22222222-0000-4000-8000-000000000001", Name: "state-reader", Capabilities: ["apply:read", "state:read"] };

afterEach(closeAll);

/** Reads a monitor stream (plain text) in the background. */
function monitor(base: string, headers: Record<string, string>): { text: () => string; close: () => void } {
  const abort = new AbortController();
  let text = "";
  void fetch(`${base}/v1/agent/monitor?log_level=debug&plain=true`, { headers, signal: abort.signal })
    .then(async (response) => {
      const reader = response.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += Buffer.from(value).toString("utf8");
      }
    })
    .catch(() => undefined);
  return { text: () => text, close: () => abort.abort() };
}

/** GET with node:http, which sends the Host header as given (fetch sets its own). */
function getWithHost(url: string, host: string, headers: Record<string, string>): Promise<{ status: number; location: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, host } }, (res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, location: res.headers.location, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("signed storage URLs in the log", () => {
  it("an agent:read monitor sees the download in the debug log, but never its signature", async () => {
    const server = await startAgent({ tokens: [...Object.values(TOKENS), STATE_READER] });
    const watch = monitor(server.base, auth(TOKENS.agentRead));
    try {
      // The monitor is listening once its own request shows up in the log.
      await eventually(async () => {
        await fetch(`${server.base}/v1/agent/health`);
        return watch.text().includes("/v1/agent/health") ? true : undefined;
      }, "the monitor to stream");
      const redirect = await fetch(`${server.base}/api/v2/applies/apply-demo-errored-state/errored-state`, { headers: auth(STATE_READER), redirect: "manual" });
      expect(redirect.status).toBe(307);
      const location = new URL(redirect.headers.get("location") as string);
      const signature = location.searchParams.get("signature") as string;
      expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const download = await fetch(location);
      expect(download.status).toBe(200);
      await eventually(async () => (watch.text().includes("/api/v2/storage/applies/apply-demo-errored-state/errored-state") ? true : undefined), "the download in the log");
      expect(watch.text()).not.toContain(signature);
      expect(watch.text()).not.toContain(location.search.slice(1));
      expect(watch.text()).toContain("signature=[redacted]");
      // Nor does any token secret show up, whatever was logged.
      for (const token of [...Object.values(TOKENS), STATE_READER]) expect(watch.text()).not.toContain(token.SecretID);
    } finally {
      watch.close();
    }
  });
});

describe("URLs the apply resource hands out", () => {
  it("errored-state's Location and the log-read-url name this server, whatever the Host header says", async () => {
    const server = await startAgent({ tokens: [STATE_READER] });
    for (const host of ["evil.example", "evil.example:4646", "127.0.0.2:1"]) {
      const redirect = await getWithHost(`${server.base}/api/v2/applies/apply-demo-errored-state/errored-state`, host, auth(STATE_READER));
      expect(redirect.status).toBe(307);
      const location = redirect.location ?? "";
      expect(location.startsWith(`${server.base}/api/v2/storage/applies/apply-demo-errored-state/errored-state?`), location).toBe(true);
      const show = await getWithHost(`${server.base}/api/v2/applies/apply-demo-errored-state`, host, auth(STATE_READER));
      expect(show.status).toBe(200);
      const document = JSON.parse(show.body) as { data: { attributes: { "log-read-url": string } } };
      expect(document.data.attributes["log-read-url"].startsWith(`${server.base}/api/v2/storage/`)).toBe(true);
    }
  });
});
