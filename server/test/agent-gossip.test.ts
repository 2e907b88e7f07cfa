import { afterEach, describe, expect, it } from "vitest";
import { GossipAuth } from "../src/agent/gossip/auth.js";
import { auth, closeAll, eventually, json, startAgent, TEST_GOSSIP_KEY, TOKENS } from "./agent-harness.js";

interface Member {
  Name: string;
  Addr: string;
  Port: number;
  Status: string;
  Tags: Record<string, string>;
  [key: string]: unknown;
}
interface Members {
  Members: Member[];
  ServerDC: string;
  ServerName: string;
  ServerRegion: string;
}

async function members(base: string, headers: Record<string, string> = {}): Promise<Members> {
  const response = await fetch(`${base}/v1/agent/members`, { headers });
  expect(response.status).toBe(200);
  return json<Members>(response);
}

async function statusOf(base: string, name: string): Promise<string | undefined> {
  return (await members(base)).Members.find((m) => m.Name === name)?.Status;
}

afterEach(closeAll);

describe("GET /v1/agent/members", () => {
  it("lists this server as the only alive member, in the seed's shape", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const response = await fetch(`${a.base}/v1/agent/members`);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await json<Members>(response);
    expect(Object.keys(body)).toEqual(["Members", "ServerDC", "ServerName", "ServerRegion"]);
    expect(body).toMatchObject({ ServerDC: "dc1", ServerName: "alpha", ServerRegion: "global" });
    expect(body.Members).toHaveLength(1);
    const self = body.Members[0] as Member;
    expect(Object.keys(self)).toEqual([
      "Addr", "DelegateCur", "DelegateMax", "DelegateMin", "Name", "Port", "ProtocolCur", "ProtocolMax", "ProtocolMin", "Status", "Tags",
    ]);
    expect(self).toMatchObject({ Name: "alpha.global", Addr: "127.0.0.1", Port: a.port, Status: "alive" });
    expect(Object.keys(self.Tags).sort()).toEqual(["bootstrap", "build", "dc", "mvn", "port", "region", "role", "vsn"]);
    expect(self.Tags).toMatchObject({ dc: "dc1", region: "global", port: String(a.port), build: "0.1.0" });
  });

  it("needs node:read when ACLs are on", async () => {
    const a = await startAgent({ tokens: Object.values(TOKENS) });
    expect((await fetch(`${a.base}/v1/agent/members`)).status).toBe(403);
    const denied = await fetch(`${a.base}/v1/agent/members`, { headers: auth(TOKENS.agentWrite) });
    expect(denied.status).toBe(403);
    expect(await denied.text()).toBe("Permission denied");
    expect((await fetch(`${a.base}/v1/agent/members`, { headers: auth(TOKENS.nodeRead) })).status).toBe(200);
    expect((await fetch(`${a.base}/v1/agent/members`, { headers: { Authorization: `Bearer ${TOKENS.management.SecretID}` } })).status).toBe(200);
  });

  it("answers 405 to other methods", async () => {
    const a = await startAgent();
    const response = await fetch(`${a.base}/v1/agent/members`, { method: "POST" });
    expect(response.status).toBe(405);
    expect(await response.text()).toBe("Invalid method");
  });
});

describe("POST /v1/agent/join", () => {
  it("joins two running servers to each other over HTTP", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const b = await startAgent({ nodeName: "bravo" });
    const response = await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ error: "", num_joined: 1 });

    const seenByA = await members(a.base);
    expect(seenByA.Members.map((m) => [m.Name, m.Status])).toEqual([
      ["alpha.global", "alive"],
      ["bravo.global", "alive"],
    ]);
    expect(seenByA.Members[1]).toMatchObject({ Addr: "127.0.0.1", Port: b.port });
    // The joined server learned about the joiner from the join itself.
    expect((await members(b.base)).Members.map((m) => [m.Name, m.Status])).toEqual([
      ["alpha.global", "alive"],
      ["bravo.global", "alive"],
    ]);
  });

  it("spreads membership: a third server joining one member comes to know all of them", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const b = await startAgent({ nodeName: "bravo" });
    const c = await startAgent({ nodeName: "charlie" });
    await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" });
    await fetch(`${c.base}/v1/agent/join?address=${a.address}`, { method: "PUT" });
    for (const agent of [a, b, c]) {
      await eventually(async () => ((await members(agent.base)).Members.filter((m) => m.Status === "alive").length === 3 ? true : undefined), "three alive members");
    }
  });

  it("reports addresses that do not answer in the body, not in the status", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const b = await startAgent({ nodeName: "bravo" });
    const gone = await startAgent({ nodeName: "gone" });
    await gone.close();
    const response = await fetch(`${a.base}/v1/agent/join?address=${b.address}&address=${gone.address}`, { method: "POST" });
    expect(response.status).toBe(200);
    const body = await json<{ error: string; num_joined: number }>(response);
    expect(body.num_joined).toBe(1);
    expect(body.error).toMatch(new RegExp(`^1 error occurred:\\n\\t\\* Failed to join ${gone.address.replace(/\./g, "\\.")}: .+\\n\\n$`));
    expect((await members(a.base)).Members.map((m) => m.Name)).toEqual(["alpha.global", "bravo.global"]);
  });

  it("does not count an HTTP server that is not a reference agent", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const client = await startAgent({ mode: "client" });
    const response = await fetch(`${a.base}/v1/agent/join?address=${client.address}`, { method: "POST" });
    const body = await json<{ error: string; num_joined: number }>(response);
    expect(body.num_joined).toBe(0);
    expect(body.error).toContain("Server only endpoint");
  });

  it("validates the address parameter", async () => {
    const a = await startAgent();
    const missing = await fetch(`${a.base}/v1/agent/join`, { method: "POST" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toBe("missing address to join");
    for (const bad of ["localhost:4646", "127.0.0.1", "127.0.0.1:99999", "300.0.0.1:80", "127.0.0.1:port"]) {
      const response = await fetch(`${a.base}/v1/agent/join?address=${encodeURIComponent(bad)}`, { method: "POST" });
      expect(response.status, bad).toBe(400);
    }
  });

  it("refuses an anonymous join when ACLs are on: members come only from agent:write callers", async () => {
    const a = await startAgent({ tokens: Object.values(TOKENS), nodeName: "alpha" });
    const b = await startAgent({ nodeName: "bravo" });
    const anonymous = await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" });
    expect(anonymous.status).toBe(403);
    expect(await anonymous.text()).toBe("Permission denied");
    const reader = await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST", headers: auth(TOKENS.agentRead) });
    expect(reader.status).toBe(403);
    expect((await members(a.base, auth(TOKENS.nodeRead))).Members.map((m) => m.Name)).toEqual(["alpha.global"]);
    const allowed = await json<Record<string, unknown>>(
      await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST", headers: auth(TOKENS.agentWrite) }),
    );
    expect(allowed).toEqual({ error: "", num_joined: 1 });
  });

  it("is a server-only endpoint: 501 on a client", async () => {
    const client = await startAgent({ mode: "client" });
    const response = await fetch(`${client.base}/v1/agent/join?address=127.0.0.1:1`, { method: "POST" });
    expect(response.status).toBe(501);
    expect(await response.text()).toBe("Invalid method");
    expect((await fetch(`${client.base}/v1/agent/join`)).status).toBe(405);
  });
});

describe("failure detection and POST /v1/agent/force-leave", () => {
  it("marks a member that stops answering failed, then force-leave moves it to left and prune removes it", async () => {
    const a = await startAgent({ nodeName: "alpha", tokens: Object.values(TOKENS) });
    const b = await startAgent({ nodeName: "bravo" });
    const headers = auth(TOKENS.management);
    await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST", headers });
    const status = async (): Promise<string | undefined> =>
      (await members(a.base, headers)).Members.find((m) => m.Name === "bravo.global")?.Status;
    expect(await status()).toBe("alive");

    // Force-leave of an alive member changes nothing: it is alive and says so.
    expect((await fetch(`${a.base}/v1/agent/force-leave?node=bravo.global`, { method: "POST", headers })).status).toBe(200);
    expect(await status()).toBe("alive");

    await b.close();
    await eventually(async () => ((await status()) === "failed" ? true : undefined), "bravo to fail");

    // ACL: agent:write.
    expect((await fetch(`${a.base}/v1/agent/force-leave?node=bravo.global`, { method: "POST", headers: auth(TOKENS.agentRead) })).status).toBe(403);

    const leave = await fetch(`${a.base}/v1/agent/force-leave?node=bravo.global`, { method: "POST", headers: auth(TOKENS.agentWrite) });
    expect(leave.status).toBe(200);
    expect(await leave.text()).toBe("");
    expect(await status()).toBe("left");
    // A left member is no longer probed, so it stays left.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await status()).toBe("left");

    const prune = await fetch(`${a.base}/v1/agent/force-leave?node=bravo.global&prune=true`, { method: "PUT", headers });
    expect(prune.status).toBe(200);
    expect(await status()).toBeUndefined();
  });

  it("an announcement a member signed before it was seen to fail does not bring it back; a later one does", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const b = await startAgent({ nodeName: "bravo" });
    await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" });
    const port = Number(b.address.split(":")[1]);
    // Signed now, delivered once bravo is down (as a message held in a busy server's queue would be).
    const body = JSON.stringify({ member: { Name: "bravo.global", Addr: "127.0.0.1", Port: port, Status: "alive", Tags: {} } });
    const sentBefore = new GossipAuth(Buffer.from(TEST_GOSSIP_KEY, "base64")).signRequest("POST", "/v1/agent/gossip", body);
    await b.close();
    await eventually(async () => ((await statusOf(a.base, "bravo.global")) === "failed" ? true : undefined), "bravo to fail");
    const stale = await fetch(`${a.base}/v1/agent/gossip`, { method: "POST", headers: { "content-type": "application/json", ...sentBefore }, body });
    expect(stale.status).toBe(200);
    expect(await statusOf(a.base, "bravo.global")).toBe("failed");
    const fresh = new GossipAuth(Buffer.from(TEST_GOSSIP_KEY, "base64")).signRequest("POST", "/v1/agent/gossip", body);
    expect((await fetch(`${a.base}/v1/agent/gossip`, { method: "POST", headers: { "content-type": "application/json", ...fresh }, body })).status).toBe(200);
    expect(await statusOf(a.base, "bravo.global")).toBe("alive");
  });

  it("prunes a failed member at once, by node name without the region", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const b = await startAgent({ nodeName: "bravo" });
    await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" });
    await b.close();
    await eventually(async () => ((await statusOf(a.base, "bravo.global")) === "failed" ? true : undefined), "bravo to fail");
    expect((await fetch(`${a.base}/v1/agent/force-leave?node=bravo&prune=1`, { method: "POST" })).status).toBe(200);
    expect((await members(a.base)).Members.map((m) => m.Name)).toEqual(["alpha.global"]);
  });

  it("brings a failed member back to alive when it answers again", async () => {
    const a = await startAgent({ nodeName: "alpha" });
    const b = await startAgent({ nodeName: "bravo" });
    await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" });
    // Only b's listener goes away and comes back on the same port: a's probes fail, then succeed.
    await new Promise<void>((resolve) => {
      b.app.server.close(() => resolve());
      b.app.server.closeAllConnections();
    });
    await eventually(async () => ((await statusOf(a.base, "bravo.global")) === "failed" ? true : undefined), "bravo to fail");
    await new Promise<void>((resolve) => b.app.server.listen(b.port, "127.0.0.1", resolve));
    await eventually(async () => ((await statusOf(a.base, "bravo.global")) === "alive" ? true : undefined), "bravo to come back");
  });

  it("validates node and prune", async () => {
    const a = await startAgent();
    const missing = await fetch(`${a.base}/v1/agent/force-leave`, { method: "POST" });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toBe("missing node to force leave");
    const bad = await fetch(`${a.base}/v1/agent/force-leave?node=x&prune=maybe`, { method: "POST" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toBe("invalid prune value");
    expect((await fetch(`${a.base}/v1/agent/force-leave?node=x`)).status).toBe(405);
  });

  it("is a server-only endpoint: 501 on a client", async () => {
    const client = await startAgent({ mode: "client" });
    expect((await fetch(`${client.base}/v1/agent/force-leave?node=x`, { method: "POST" })).status).toBe(501);
  });
});

describe("members on a client", () => {
  it("asks a known server, and says so when it knows none", async () => {
    const server = await startAgent({ nodeName: "alpha" });
    const client = await startAgent({ mode: "client", nodeName: "worker" });
    const none = await fetch(`${client.base}/v1/agent/members`);
    expect(none.status).toBe(503);
    expect(await none.text()).toBe("no known servers");
    expect((await fetch(`${client.base}/v1/agent/servers?address=${server.address}`, { method: "POST" })).status).toBe(200);
    const body = await members(client.base);
    expect(body.ServerName).toBe("alpha");
    expect(body.Members.map((m) => m.Name)).toEqual(["alpha.global"]);
  });
});
