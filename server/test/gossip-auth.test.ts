import { createServer } from "node:http";
import type { IncomingHttpHeaders, Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { GossipAuth, SIGNATURE_WINDOW_MS } from "../src/agent/gossip/auth.js";
import { auth, closeAll, json, startAgent, TEST_GOSSIP_KEY, TOKENS } from "./agent-harness.js";
import type { Agent } from "./agent-harness.js";

// Server-to-server traffic is signed with the gossip key (issue 13, point 2). Everything here runs on
// 127.0.0.1; every announced member has a loopback address.

const GOSSIP = "/v1/agent/gossip";
const testKey = Buffer.from(TEST_GOSSIP_KEY, "base64");

function member(name: string, port: number): Record<string, unknown> {
  return { Name: name, Addr: "127.0.0.1", Port: port, Status: "alive", Tags: {} };
}

/** POST an announcement to the agent's gossip route, signed with `signer` (or unsigned). */
async function announce(agent: Agent, body: string, signer?: GossipAuth): Promise<Response> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signer !== undefined) Object.assign(headers, signer.signRequest("POST", GOSSIP, body));
  return fetch(`${agent.base}${GOSSIP}`, { method: "POST", headers, body });
}

async function memberNames(agent: Agent, headers: Record<string, string> = {}): Promise<string[]> {
  const response = await fetch(`${agent.base}/v1/agent/members`, { headers });
  expect(response.status).toBe(200);
  return (await json<{ Members: { Name: string }[] }>(response)).Members.map((m) => m.Name);
}

/** A plain HTTP listener on 127.0.0.1 that records every request's headers and answers 200 `{}`. */
async function captureListener(): Promise<{ port: number; seen: { url: string; headers: IncomingHttpHeaders }[]; server: Server }> {
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url ?? "", headers: req.headers });
    res.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, seen, server };
}

afterEach(closeAll);

describe("POST /v1/agent/gossip needs the gossip key", () => {
  it("refuses an unsigned announcement: nobody is added", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const response = await announce(a, JSON.stringify({ member: member("forged.global", 1) }));
    expect(response.status).toBe(403);
    expect(await response.text()).toMatch(/^Permission denied: /);
    expect(await memberNames(a)).toEqual(["alpha.global"]);
  });

  it("refuses an announcement signed with another key, or with a signature that does not cover the body", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const wrong = await announce(a, JSON.stringify({ member: member("forged.global", 1) }), new GossipAuth(Buffer.alloc(32, 9)));
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain("does not match");
    // A valid signature over one body does not carry another body.
    const signer = new GossipAuth(testKey);
    const headers = { "content-type": "application/json", ...signer.signRequest("POST", GOSSIP, JSON.stringify({ member: member("honest.global", 1) })) };
    const swapped = await fetch(`${a.base}${GOSSIP}`, { method: "POST", headers, body: JSON.stringify({ member: member("forged.global", 1) }) });
    expect(swapped.status).toBe(403);
    expect(await memberNames(a)).toEqual(["alpha.global"]);
  });

  it("refuses a replayed announcement and a stale one", async () => {
    const a = await startAgent({ nodeName: "alpha", probeIntervalMs: 60_000 });
    const body = JSON.stringify({ member: member("peer.global", 1) });
    const headers = { "content-type": "application/json", ...new GossipAuth(testKey).signRequest("POST", GOSSIP, body) };
    expect((await fetch(`${a.base}${GOSSIP}`, { method: "POST", headers, body })).status).toBe(200);
    const replay = await fetch(`${a.base}${GOSSIP}`, { method: "POST", headers, body });
    expect(replay.status).toBe(403);
    expect(await replay.text()).toContain("replayed");

    const past = new GossipAuth(testKey, () => Date.now() - SIGNATURE_WINDOW_MS - 5_000);
    const stale = await announce(a, JSON.stringify({ member: member("late.global", 1) }), past);
    expect(stale.status).toBe(403);
    expect(await stale.text()).toContain("stale");
    expect(await memberNames(a)).toEqual(["alpha.global", "peer.global"]);
  });

  it("accepts a signed announcement and signs its answer", async () => {
    const a = await startAgent({ nodeName: "alpha", probeIntervalMs: 60_000 });
    const signer = new GossipAuth(testKey);
    const body = JSON.stringify({ member: member("peer.global", 1) });
    const headers = signer.signRequest("POST", GOSSIP, body);
    const response = await fetch(`${a.base}${GOSSIP}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    expect(response.status).toBe(200);
    const text = await response.text();
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => (responseHeaders[name] = value));
    expect(signer.verifyResponse(headers["x-svc-gossip-nonce"] as string, 200, responseHeaders, text)).toBeUndefined();
    expect(await memberNames(a)).toEqual(["alpha.global", "peer.global"]);
  });

  it("a server started without a key accepts no peer: closed by default", async () => {
    const lone = await startAgent({ nodeName: "lone", gossipKey: null });
    const other = await startAgent({ nodeName: "other" });
    expect((await announce(lone, JSON.stringify({ member: member("x.global", 1) }), new GossipAuth(testKey))).status).toBe(403);
    const joined = await json<{ error: string; num_joined: number }>(await fetch(`${other.base}/v1/agent/join?address=${lone.address}`, { method: "POST" }));
    expect(joined.num_joined).toBe(0);
    expect(joined.error).toContain("403");
    const back = await json<{ error: string; num_joined: number }>(await fetch(`${lone.base}/v1/agent/join?address=${other.address}`, { method: "POST" }));
    expect(back.num_joined).toBe(0);
    expect(await memberNames(lone)).toEqual(["lone.global"]);
  });
});

describe("forwarded requests never carry the caller's token", () => {
  it("sends a signed request with the caller's rights, not its token, to the member named by server_id", async () => {
    const capture = await captureListener();
    try {
      const a = await startAgent({ nodeName: "alpha", tokens: Object.values(TOKENS), probeIntervalMs: 60_000 });
      // A peer holding the key announces a member whose address is the capture listener.
      expect((await announce(a, JSON.stringify({ member: member("capture.global", capture.port) }), new GossipAuth(testKey))).status).toBe(200);
      for (const headers of [auth(TOKENS.management), { Authorization: `Bearer ${TOKENS.management.SecretID}` }]) {
        const response = await fetch(`${a.base}/v1/agent/host?server_id=capture.global`, { headers });
        expect(response.status).toBe(200);
      }
      expect(capture.seen).toHaveLength(2);
      for (const { url, headers } of capture.seen) {
        expect(url).toBe("/v1/agent/host");
        expect(JSON.stringify(headers)).not.toContain(TOKENS.management.SecretID);
        expect(headers["x-svc-token"]).toBeUndefined();
        expect(headers["authorization"]).toBeUndefined();
        expect(headers["x-svc-gossip-signature"]).toMatch(/^[A-Za-z0-9_-]{43}$/);
        const caller = JSON.parse(Buffer.from(String(headers["x-svc-gossip-caller"]), "base64url").toString("utf8")) as Record<string, unknown>;
        expect(caller).toMatchObject({ anonymous: false, management: true });
      }
    } finally {
      capture.server.close();
    }
  });

  it("the receiving server authorises the rights the forwarding server checked", async () => {
    const a = await startAgent({ nodeName: "alpha", tokens: Object.values(TOKENS) });
    // bravo knows only the management token: the agent:read secret means nothing to it.
    const b = await startAgent({ nodeName: "bravo", tokens: [TOKENS.management] });
    const joined = await json<{ num_joined: number }>(await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST", headers: auth(TOKENS.agentWrite) }));
    expect(joined.num_joined).toBe(1);
    expect((await fetch(`${b.base}/v1/agent/host`, { headers: auth(TOKENS.agentRead) })).status).toBe(403);

    // Through alpha, bravo grants the agent:read rights alpha resolved from the token.
    const read = await fetch(`${a.base}/v1/agent/host?server_id=bravo`, { headers: auth(TOKENS.agentRead) });
    expect(read.status).toBe(200);
    expect((await json<{ AgentID: string }>(read)).AgentID).toBe("bravo.global");
    // Caller rights without a valid signature are refused outright, whatever they claim.
    const claim = Buffer.from(JSON.stringify({ anonymous: false, management: true, capabilities: [] })).toString("base64url");
    const forged = await fetch(`${b.base}/v1/agent/self`, { headers: { "x-svc-gossip-caller": claim } });
    expect(forged.status).toBe(403);
    const wrongKey = await fetch(`${b.base}/v1/agent/self`, { headers: new GossipAuth(Buffer.alloc(32, 1)).signRequest("GET", "/v1/agent/self", "", { anonymous: false, management: true, capabilities: [] }) });
    expect(wrongKey.status).toBe(403);
  });
});

describe("POST /v1/agent/join", () => {
  it("refuses to join a server with the same name and says why", async () => {
    const first = await startAgent({ nodeName: "twin" });
    const second = await startAgent({ nodeName: "twin" });
    const response = await fetch(`${first.base}/v1/agent/join?address=${second.address}`, { method: "POST" });
    expect(response.status).toBe(200);
    const body = await json<{ error: string; num_joined: number }>(response);
    expect(body.num_joined).toBe(0);
    expect(body.error).toContain(`Failed to join ${second.address}`);
    expect(body.error).toContain("Conflicting address for twin.global");
    expect(body.error).toContain("same name");
    expect(await memberNames(first)).toEqual(["twin.global"]);
    expect(await memberNames(second)).toEqual(["twin.global"]);
  });

  it("servers with different gossip keys do not join", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const b = await startAgent({ nodeName: "bravo", gossipKey: Buffer.alloc(32, 3).toString("base64") });
    const body = await json<{ error: string; num_joined: number }>(await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" }));
    expect(body.num_joined).toBe(0);
    expect(body.error).toContain("does not match");
    expect(await memberNames(a)).toEqual(["alpha.global"]);
    expect(await memberNames(b)).toEqual(["bravo.global"]);
  });
});
