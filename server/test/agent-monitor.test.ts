import { afterEach, describe, expect, it } from "vitest";
import { Framer } from "../src/agent/monitor/framer.js";
import { auth, closeAll, eventually, startAgent, TOKENS, type Agent } from "./agent-harness.js";

afterEach(closeAll);

interface Frame {
  Data?: string;
  FileEvent?: string;
  Offset?: number;
}

/** Splits back-to-back JSON objects (`{..}{..}`) as the monitor writes them. */
function splitFrames(text: string): { frames: Frame[]; rest: string } {
  const frames: Frame[] = [];
  let depth = 0;
  let start = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i += 1;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{") depth += 1;
    else if (c === "}" && --depth === 0) {
      frames.push(JSON.parse(text.slice(start, i + 1)) as Frame);
      start = i + 1;
    }
  }
  return { frames, rest: text.slice(start) };
}

/** An open monitor stream: collects what arrives until closed. */
async function openMonitor(agent: Agent, query: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(`${agent.base}/v1/agent/monitor${query}`, { headers, signal: controller.signal });
  let received = "";
  const reading = (async () => {
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted
    }
  })();
  return {
    response,
    text: () => received,
    async close() {
      controller.abort();
      await reading;
    },
  };
}

/** Makes the server write log lines: a join to a closed port (info) and a failed client health check (warn). */
async function makeLogs(agent: Agent): Promise<void> {
  await fetch(`${agent.base}/v1/agent/join?address=127.0.0.1:1`, { method: "POST" });
}

describe("GET /v1/agent/monitor", () => {
  it("streams the server's own log lines as base64 frames until the client goes away", async () => {
    const server = await startAgent();
    const monitor = await openMonitor(server, "");
    expect(monitor.response.status).toBe(200);
    expect(monitor.response.headers.get("content-type")).toBe("application/json");
    await eventually(async () => (server.ctx.logEvents.listenerCount("line") > 0 ? true : undefined), "the monitor to listen");

    await makeLogs(server);
    const decoded = await eventually(async () => {
      const { frames } = splitFrames(monitor.text());
      const data = frames.filter((f) => f.Data !== undefined);
      const text = data.map((f) => Buffer.from(f.Data ?? "", "base64").toString("utf8")).join("");
      return text.includes("joined 0 of 1 addresses") ? { frames: data, text } : undefined;
    }, "the join log line");
    for (const frame of decoded.frames) {
      expect(Object.keys(frame)).toEqual(["Data", "FileEvent", "Offset"]);
      expect(frame.FileEvent).toBe("log");
    }
    // Offsets are positions in the stream: each frame starts where the previous one ended.
    let offset = 0;
    for (const frame of decoded.frames) {
      expect(frame.Offset).toBe(offset);
      offset += Buffer.from(frame.Data ?? "", "base64").length;
    }
    expect(decoded.text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z \[INFO\]  agent: joined 0 of 1 addresses: /m);

    // Quiet periods carry heartbeats.
    const before = splitFrames(monitor.text()).frames.length;
    await eventually(async () => (splitFrames(monitor.text()).frames.length > before ? true : undefined), "a heartbeat");
    expect(splitFrames(monitor.text()).frames.slice(before).some((f) => Object.keys(f).length === 0)).toBe(true);

    await monitor.close();
    await eventually(async () => (server.ctx.logEvents.listenerCount("line") === 0 ? true : undefined), "the monitor to stop listening");
  });

  it("filters by log_level", async () => {
    const server = await startAgent({ mode: "client" });
    const warnings = await openMonitor(server, "?log_level=WARN&plain=true");
    const everything = await openMonitor(server, "?log_level=debug&plain=true");
    await eventually(async () => (server.ctx.logEvents.listenerCount("line") === 2 ? true : undefined), "two monitors");
    await fetch(`${server.base}/v1/agent/servers?address=127.0.0.1:1`, { method: "POST" }); // no log line: it fails
    await fetch(`${server.base}/v1/agent/health`); // warn: health check failed
    await fetch(`${server.base}/v1/agent/self`); // debug: request complete
    await eventually(async () => (everything.text().includes("request complete") && warnings.text().includes("health check failed") ? true : undefined), "lines");
    expect(everything.text()).toContain("[WARN]  agent: health check failed");
    expect(everything.text()).toContain("[DEBUG]");
    expect(warnings.text()).not.toContain("[DEBUG]");
    expect(warnings.text()).not.toContain("[INFO]");
    await warnings.close();
    await everything.close();
  });

  it("writes plain text, JSON lines and the caller's location on request", async () => {
    const server = await startAgent();
    const plain = await openMonitor(server, "?plain=true&log_include_location=true");
    const jsonLines = await openMonitor(server, "?plain=1&log_json=true&log_include_location=true");
    expect(plain.response.headers.get("content-type")).toBe("text/plain");
    await eventually(async () => (server.ctx.logEvents.listenerCount("line") === 2 ? true : undefined), "two monitors");
    await makeLogs(server);
    await eventually(async () => (plain.text().includes("joined 0 of 1") && jsonLines.text().includes("joined 0 of 1") ? true : undefined), "lines");

    const line = plain.text().split("\n").find((l) => l.includes("joined 0 of 1")) ?? "";
    expect(line).toMatch(/ \[INFO\]  (?:server\/)?src\/agent\/gossip\/routes\.ts:\d+: agent: joined 0 of 1 addresses: addresses=\["127\.0\.0\.1:1"\] joined=0$/);

    const record = JSON.parse(jsonLines.text().split("\n").find((l) => l.includes("joined 0 of 1")) ?? "{}") as Record<string, unknown>;
    expect(record).toMatchObject({ "@level": "info", "@message": "joined 0 of 1 addresses", "@module": "agent", addresses: ["127.0.0.1:1"], joined: 0 });
    expect(record["@caller"]).toMatch(/^(?:server\/)?src\/agent\/gossip\/routes\.ts:\d+$/);
    expect(Date.parse(String(record["@timestamp"]))).not.toBeNaN();
    await plain.close();
    await jsonLines.close();
  });

  it("validates its parameters with plain-text 400s", async () => {
    const server = await startAgent();
    const cases: [string, string][] = [
      ["?log_level=loud", "Unknown log level: loud"],
      ["?log_json=yes", 'Unknown option for log json: strconv.ParseBool: parsing "yes": invalid syntax'],
      ["?plain=2", 'Unknown option for plain: strconv.ParseBool: parsing "2": invalid syntax'],
      ["?log_include_location=on", 'Unknown option for log_include_location: strconv.ParseBool: parsing "on": invalid syntax'],
      ["?node_id=a&server_id=b", "Cannot target node and server simultaneously"],
    ];
    for (const [query, message] of cases) {
      const response = await fetch(`${server.base}/v1/agent/monitor${query}`);
      expect(response.status, query).toBe(400);
      expect(await response.text()).toBe(message);
    }
  });

  it("needs agent:read", async () => {
    const server = await startAgent({ tokens: Object.values(TOKENS) });
    const denied = await fetch(`${server.base}/v1/agent/monitor`, { headers: auth(TOKENS.nodeRead) });
    expect(denied.status).toBe(403);
    expect(await denied.text()).toBe("Permission denied");
    const allowed = await openMonitor(server, "?plain=true", auth(TOKENS.agentRead));
    expect(allowed.response.status).toBe(200);
    await allowed.close();
  });

  it("streams another server's log with server_id", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const b = await startAgent({ nodeName: "bravo" });
    await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" });
    const monitor = await openMonitor(a, "?server_id=bravo&plain=true");
    expect(monitor.response.status).toBe(200);
    await eventually(async () => (b.ctx.logEvents.listenerCount("line") > 0 ? true : undefined), "bravo's monitor");
    await fetch(`${b.base}/v1/agent/join?address=127.0.0.1:1`, { method: "POST" });
    await eventually(async () => (monitor.text().includes("joined 0 of 1") ? true : undefined), "bravo's line through alpha");
    await monitor.close();
    await eventually(async () => (b.ctx.logEvents.listenerCount("line") === 0 ? true : undefined), "bravo's monitor to end");
  });

  it("ends open streams when the server shuts down", async () => {
    const server = await startAgent();
    const monitor = await openMonitor(server, "");
    await eventually(async () => (server.ctx.logEvents.listenerCount("line") > 0 ? true : undefined), "the monitor");
    await server.close();
    expect(server.ctx.logEvents.listenerCount("line")).toBe(0);
    await monitor.close();
  });
});

describe("Framer", () => {
  it("splits a batch into frames of at most 1024 bytes with running offsets", () => {
    const framer = new Framer();
    framer.push("a".repeat(1500));
    framer.push("b".repeat(10));
    const frames = framer.drain();
    expect(frames.map((f) => [Buffer.from(f.Data, "base64").length, f.Offset])).toEqual([
      [1024, 0],
      [486, 1024],
    ]);
    framer.push("c");
    expect(framer.drain()).toEqual([{ Data: Buffer.from("c").toString("base64"), FileEvent: "log", Offset: 1510 }]);
    expect(framer.empty).toBe(true);
  });
});
