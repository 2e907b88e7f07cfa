import { afterEach, describe, expect, it } from "vitest";
import { auth, closeAll, json, startAgent, TOKENS } from "./agent-harness.js";

afterEach(closeAll);

const OCTET = "application/octet-stream";

describe("pprof availability (enable_debug × ACLs)", () => {
  // The seed's table. "unset" and "false" are the same option value here (enable_debug defaults to false);
  // with ACLs on the request carries an agent:write token.
  const table: { enableDebug: "unset" | boolean; acls: "n/a" | "off" | "on"; available: boolean }[] = [
    { enableDebug: "unset", acls: "n/a", available: false },
    { enableDebug: true, acls: "n/a", available: true },
    { enableDebug: false, acls: "n/a", available: false },
    { enableDebug: "unset", acls: "off", available: false },
    { enableDebug: "unset", acls: "on", available: true },
    { enableDebug: true, acls: "off", available: true },
    { enableDebug: false, acls: "on", available: true },
  ];
  for (const row of table) {
    it(`enable_debug=${String(row.enableDebug)}, ACLs ${row.acls}: ${row.available ? "available" : "not available"}`, async () => {
      const server = await startAgent({
        ...(row.enableDebug === "unset" ? {} : { enableDebug: row.enableDebug }),
        ...(row.acls === "on" ? { tokens: Object.values(TOKENS) } : {}),
      });
      const headers = row.acls === "on" ? auth(TOKENS.agentWrite) : {};
      for (const name of ["cmdline", "goroutine?debug=1", "heap?debug=1"]) {
        const response = await fetch(`${server.base}/v1/agent/pprof/${name}`, { headers });
        expect(response.status, name).toBe(row.available ? 200 : 403);
        if (!row.available) expect(await response.text()).toBe("Permission denied");
      }
    });
  }

  it("with ACLs on, only agent:write (or management) tokens get through, whatever enable_debug says", async () => {
    for (const enableDebug of [false, true]) {
      const server = await startAgent({ enableDebug, tokens: Object.values(TOKENS) });
      const status = async (token?: (typeof TOKENS)[keyof typeof TOKENS]) =>
        (await fetch(`${server.base}/v1/agent/pprof/cmdline`, { headers: auth(token) })).status;
      expect(await status()).toBe(403);
      expect(await status(TOKENS.nothing)).toBe(403);
      expect(await status(TOKENS.agentRead)).toBe(403);
      expect(await status(TOKENS.nodeRead)).toBe(403);
      expect(await status(TOKENS.agentWrite)).toBe(200);
      expect(await status(TOKENS.management)).toBe(200);
    }
  });
});

describe("pprof profiles of the running server", () => {
  it("cmdline: the process's command line, NUL-separated, as text", async () => {
    const server = await startAgent({ enableDebug: true });
    const response = await fetch(`${server.base}/v1/agent/pprof/cmdline`);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const parts = (await response.text()).split("\u0000");
    expect(parts[0]).toBe(process.execPath);
    expect(parts.slice(-process.argv.length + 1)).toEqual(process.argv.slice(1));
  });

  it("profile: a V8 CPU profile over the requested seconds, or text with debug=1", async () => {
    const server = await startAgent({ enableDebug: true });
    const started = Date.now();
    const pending = fetch(`${server.base}/v1/agent/pprof/profile?seconds=1`);
    // Keep the server busy while it profiles.
    const busy = setInterval(() => {
      let x = 0;
      for (let i = 0; i < 200_000; i += 1) x += Math.sqrt(i);
      return x;
    }, 5);
    const response = await pending;
    clearInterval(busy);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(OCTET);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="profile"');
    const profile = await json<{ nodes: { callFrame: { functionName: string } }[]; samples: number[]; startTime: number; endTime: number }>(response);
    expect(profile.nodes.length).toBeGreaterThan(1);
    expect(profile.samples.length).toBeGreaterThan(0);
    expect(profile.endTime - profile.startTime).toBeGreaterThan(900_000); // microseconds

    const text = await (await fetch(`${server.base}/v1/agent/pprof/profile?seconds=1&debug=1`)).text();
    expect(text).toMatch(/^cpu profile: 1s, \d+ samples/);
  });

  it("trace: trace events over the requested seconds", async () => {
    const server = await startAgent({ enableDebug: true });
    const response = await fetch(`${server.base}/v1/agent/pprof/trace?seconds=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(OCTET);
    const trace = await json<{ traceEvents: { name: string; ph: string }[] }>(response);
    expect(trace.traceEvents.length).toBeGreaterThan(0);
    expect(trace.traceEvents.every((e) => typeof e.name === "string" && typeof e.ph === "string")).toBe(true);
  });

  it("heap: a V8 heap snapshot, or heap statistics with debug=1", async () => {
    const server = await startAgent({ enableDebug: true });
    const response = await fetch(`${server.base}/v1/agent/pprof/heap`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(OCTET);
    const snapshot = await json<{ snapshot: { node_count: number }; nodes: number[]; strings: string[] }>(response);
    expect(snapshot.snapshot.node_count).toBeGreaterThan(1000);
    expect(snapshot.strings).toContain("agentRoutes");

    const text = await (await fetch(`${server.base}/v1/agent/pprof/heap?debug=1`)).text();
    expect(text).toContain("# used_heap_size = ");
    expect(text).toMatch(/# old_space: size=\d+ used=\d+/);
  });

  it("allocs and goroutine: sampled allocations and the event loop's active resources", async () => {
    const server = await startAgent({ enableDebug: true });
    const allocs = await fetch(`${server.base}/v1/agent/pprof/allocs?seconds=1`);
    expect(allocs.status).toBe(200);
    expect(Object.keys(await json<object>(allocs))).toEqual(expect.arrayContaining(["head", "samples"]));
    expect(await (await fetch(`${server.base}/v1/agent/pprof/allocs?seconds=1&debug=1`)).text()).toMatch(/^allocs profile: 1s, \d+ bytes sampled/);

    const goroutine = await json<{ total: number; byType: Record<string, number> }>(await fetch(`${server.base}/v1/agent/pprof/goroutine`));
    expect(goroutine.byType["TCPServerWrap"]).toBeGreaterThanOrEqual(1);
    const text = await (await fetch(`${server.base}/v1/agent/pprof/goroutine?debug=2`)).text();
    expect(text).toMatch(/^goroutine profile: total \d+\n/);
    expect(text).toMatch(/\d+ @ TCPServerWrap/);
    expect(text).toContain("# heapUsed = ");
  });

  it("answers 404 to an unknown profile and 400 to bad parameters", async () => {
    const server = await startAgent({ enableDebug: true });
    const unknown = await fetch(`${server.base}/v1/agent/pprof/threadcreate`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toBe("Pprof profile not found profile: threadcreate");
    for (const query of ["seconds=abc", "seconds=0", "seconds=301", "seconds=-1", "debug=x", "debug=-1", "server_id=a&node_id=b"]) {
      expect((await fetch(`${server.base}/v1/agent/pprof/profile?${query}`)).status, query).toBe(400);
    }
    expect((await fetch(`${server.base}/v1/agent/pprof/cmdline`, { method: "POST" })).status).toBe(405);
  });

  it("profiles another server of the pool with server_id", async () => {
    const a = await startAgent({ nodeName: "alpha", enableDebug: true });
    const b = await startAgent({ nodeName: "bravo", enableDebug: true });
    await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" });
    const response = await fetch(`${a.base}/v1/agent/pprof/goroutine?server_id=bravo.global&debug=1`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toMatch(/^goroutine profile: total \d+/);
    expect((await fetch(`${a.base}/v1/agent/pprof/goroutine?server_id=nobody`)).status).toBe(404);
  });
});
