import { afterEach, describe, expect, it } from "vitest";
import { auth, closeAll, json, startAgent, TOKENS } from "./agent-harness.js";

afterEach(closeAll);

describe("/v1/agent/servers (client mode)", () => {
  it("starts empty, replaces the list with the servers that answer, and lists them sorted", async () => {
    const s1 = await startAgent({ nodeName: "s1" });
    const s2 = await startAgent({ nodeName: "s2" });
    const client = await startAgent({ mode: "client" });

    const empty = await fetch(`${client.base}/v1/agent/servers`);
    expect(empty.status).toBe(200);
    expect(empty.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await json(empty)).toEqual([]);

    const set = await fetch(`${client.base}/v1/agent/servers?address=${s2.address}&address=${s1.address}`, { method: "POST" });
    expect(set.status).toBe(200);
    expect(await set.text()).toBe("");
    expect(await json(await fetch(`${client.base}/v1/agent/servers`))).toEqual([s1.address, s2.address].sort());

    // Replacing: the old list is gone.
    expect((await fetch(`${client.base}/v1/agent/servers?address=${s1.address}`, { method: "PUT" })).status).toBe(200);
    expect(await json(await fetch(`${client.base}/v1/agent/servers`))).toEqual([s1.address]);
  });

  it("keeps the servers that answer and fails only when none does", async () => {
    const s1 = await startAgent({ nodeName: "s1" });
    const gone = await startAgent({ nodeName: "gone" });
    await gone.close();
    const client = await startAgent({ mode: "client" });

    const none = await fetch(`${client.base}/v1/agent/servers?address=${gone.address}`, { method: "POST" });
    expect(none.status).toBe(400);
    expect(await none.text()).toContain(`Failed to ping server ${gone.address}`);
    expect(await json(await fetch(`${client.base}/v1/agent/servers`))).toEqual([]);

    const some = await fetch(`${client.base}/v1/agent/servers?address=${gone.address}&address=${s1.address}`, { method: "POST" });
    expect(some.status).toBe(200);
    expect(await json(await fetch(`${client.base}/v1/agent/servers`))).toEqual([s1.address]);
  });

  it("requires address, in ip:port form", async () => {
    const client = await startAgent({ mode: "client" });
    const missing = await fetch(`${client.base}/v1/agent/servers`, { method: "POST" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toBe("missing server address");
    for (const bad of ["example:4647", "127.0.0.1", "127.0.0.1:0", ":4647"]) {
      const response = await fetch(`${client.base}/v1/agent/servers?address=${encodeURIComponent(bad)}`, { method: "POST" });
      expect(response.status, bad).toBe(400);
      expect(await response.text()).toContain("expected ip:port");
    }
  });

  it("does not accept another client as a server", async () => {
    const other = await startAgent({ mode: "client" });
    const client = await startAgent({ mode: "client" });
    expect((await fetch(`${client.base}/v1/agent/servers?address=${other.address}`, { method: "POST" })).status).toBe(400);
  });

  it("needs agent:read to list and agent:write to replace; the missing address is reported first", async () => {
    const server = await startAgent();
    const client = await startAgent({ mode: "client", tokens: Object.values(TOKENS) });
    expect((await fetch(`${client.base}/v1/agent/servers`)).status).toBe(403);
    expect((await fetch(`${client.base}/v1/agent/servers`, { headers: auth(TOKENS.nodeRead) })).status).toBe(403);
    expect((await fetch(`${client.base}/v1/agent/servers`, { headers: auth(TOKENS.agentRead) })).status).toBe(200);
    expect((await fetch(`${client.base}/v1/agent/servers`, { method: "POST", headers: auth(TOKENS.nothing) })).status).toBe(400);
    const url = `${client.base}/v1/agent/servers?address=${server.address}`;
    expect((await fetch(url, { method: "POST", headers: auth(TOKENS.agentRead) })).status).toBe(403);
    expect((await fetch(url, { method: "POST", headers: auth(TOKENS.agentWrite) })).status).toBe(200);
  });

  it("is answered 501 by a server and 405 to other methods", async () => {
    const server = await startAgent();
    const response = await fetch(`${server.base}/v1/agent/servers`);
    expect(response.status).toBe(501);
    expect(await response.text()).toBe("Invalid method");
    expect((await fetch(`${server.base}/v1/agent/servers`, { method: "DELETE" })).status).toBe(405);
  });
});

describe("GET /v1/agent/health", () => {
  it("reports the server part of a server", async () => {
    const server = await startAgent();
    const response = await fetch(`${server.base}/v1/agent/health`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await json(response)).toEqual({ server: { message: "ok", ok: true } });
  });

  it("is 500 with a JSON error body for a client that knows no server, 200 once it knows one", async () => {
    const server = await startAgent();
    const client = await startAgent({ mode: "client" });
    const unhealthy = await fetch(`${client.base}/v1/agent/health`);
    expect(unhealthy.status).toBe(500);
    expect(await json(unhealthy)).toEqual({ client: { ok: false, message: "no known servers" } });

    await fetch(`${client.base}/v1/agent/servers?address=${server.address}`, { method: "POST" });
    const healthy = await fetch(`${client.base}/v1/agent/health`);
    expect(healthy.status).toBe(200);
    expect(await json(healthy)).toEqual({ client: { message: "ok", ok: true } });
  });

  it("checks only the parts named by type", async () => {
    const server = await startAgent();
    const both = await fetch(`${server.base}/v1/agent/health?type=server&type=client`);
    expect(both.status).toBe(500);
    expect(await json(both)).toEqual({ client: { ok: false, message: "client not enabled" }, server: { ok: true, message: "ok" } });
    const unknown = await fetch(`${server.base}/v1/agent/health?type=foo`);
    expect(unknown.status).toBe(200);
    expect(await json(unknown)).toEqual({});
  });

  it("needs no token when ACLs are on", async () => {
    const server = await startAgent({ tokens: Object.values(TOKENS) });
    expect((await fetch(`${server.base}/v1/agent/health`)).status).toBe(200);
    expect((await fetch(`${server.base}/v1/agent/health`, { method: "PUT" })).status).toBe(405);
  });
});
