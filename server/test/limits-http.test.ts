import { spawn } from "node:child_process";
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";
import { until } from "../../test/support/wait.js";
import { SERVER_BIN } from "./server-process.js";

// Connection limits over real HTTP on loopback: oversized headers, health probes, slow clients,
// shutdown with connections that never end.

let server: RunningServer;
// A short request timeout (3 s), still far longer than a busy machine takes to send any request here
// but the slow ones it is for (1 MiB heads too).
const REQUEST_TIMEOUT_MS = 3_000;
beforeAll(async () => (server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error", requestTimeoutMs: REQUEST_TIMEOUT_MS })));
afterAll(async () => server.lifecycle.shutdown());

const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.destroy();
});

/** Opens a raw connection to `url`'s host and port. */
async function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port) });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  return socket;
}

/** Everything the server writes on `socket` until it closes the connection. */
function untilClosed(socket: Socket): Promise<string> {
  let text = "";
  socket.on("data", (d: Buffer) => (text += d.toString("latin1")));
  return new Promise((resolve) => socket.once("close", () => resolve(text)));
}

describe("errors of the HTTP parser are plain text, as every other error", () => {
  it("a filter over 1 MiB is 431 in plain text, not JSON", async () => {
    const filter = `Status == "${"x".repeat(1_100_000)}"`;
    const res = await fetch(`${server.apiUrl}/v1/jobs?filter=${encodeURIComponent(filter)}`);
    expect(res.status).toBe(431);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe("431 Request Header Fields Too Large");
  });

  it("on the ops listener the same error has an empty body", async () => {
    const res = await fetch(`${server.opsUrl}/health?x=${"y".repeat(1_100_000)}`);
    expect(res.status).toBe(431);
    expect(await res.text()).toBe("");
  });
});

describe("/health for load balancers", () => {
  it("HEAD answers 200 with no body", async () => {
    const res = await fetch(`${server.opsUrl}/health`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  it.each(["POST", "PUT", "DELETE", "PATCH"])("%s is 405 with an empty body", async (method) => {
    const res = await fetch(`${server.opsUrl}/health`, { method });
    expect(res.status).toBe(405);
    expect(await res.text()).toBe("");
    expect(res.headers.get("content-length")).toBe("0");
  });

  it("an unknown path is 404 with an empty body", async () => {
    const res = await fetch(`${server.opsUrl}/nope`);
    expect(res.status).toBe(404);
    expect(await res.text()).toBe("");
  });
});

describe("request timeout (3 s here; 30 s by default)", () => {
  it("a body trickled byte by byte is cut with 408 and the connection closed", async () => {
    const socket = await open(server.apiUrl);
    const closed = untilClosed(socket);
    socket.write("PUT /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n");
    // One byte per 100 ms: 1000 bytes would take 100 s.
    const trickle = setInterval(() => socket.writable && socket.write("{"), 100);
    try {
      const answer = await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    } finally {
      clearInterval(trickle);
    }
  });

  it("headers that never end are cut the same way", async () => {
    const socket = await open(server.apiUrl);
    const closed = untilClosed(socket);
    socket.write("GET /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const trickle = setInterval(() => socket.writable && socket.write("X-A: b\r\n"), 100);
    try {
      expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(trickle);
    }
  });

  it("a blocking query is not a slow request: it waits past the request timeout and answers 200", async () => {
    const first = await fetch(`${server.apiUrl}/v1/jobs`);
    const index = first.headers.get("x-svc-index");
    const res = await fetch(`${server.apiUrl}/v1/jobs?index=${index}&wait=${REQUEST_TIMEOUT_MS + 1500}ms`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-svc-index")).toBe(index);
  });
});

describe("shutdown (the filter-server bin)", () => {
  it("SIGTERM completes while a client trickles a body, after the shutdown bound", async () => {
    const root = join(import.meta.dirname, "..");
    const child = spawn(
      SERVER_BIN[0]!,
      [...SERVER_BIN.slice(1), "--port", "0", "--ops-port", "0", "--shutdown-timeout", "500ms", "--request-timeout", "1h"],
      { cwd: root, env: { ...process.env, NO_COLOR: "1" } },
    );
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      let api: string | undefined;
      await until("the server listening", () => {
        const line = output.split("\n").slice(0, -1).find((l) => l.startsWith("{") && l.includes('"api"'));
        if (line !== undefined) api = (JSON.parse(line) as { api: string }).api;
        else if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
        return api !== undefined;
      }, 50);
      const socket = await open(api!);
      const closed = untilClosed(socket);
      // The server answers "100 Continue" once it has read the headers: the request is then under way.
      const continued = new Promise<void>((resolve) => socket.on("data", (d: Buffer) => d.toString().includes("100 Continue") && resolve()));
      socket.write("PUT /v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: 100-continue\r\nContent-Length: 1000\r\n\r\n");
      await continued;
      const trickle = setInterval(() => socket.writable && socket.write(" "), 200);
      try {
        child.kill("SIGTERM");
        expect(await exit).toBe(0);
        await closed;
        expect(output).toContain("server stopped");
      } finally {
        clearInterval(trickle);
      }
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
