import { createServer } from "node:http";
import type { Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { GossipAuth } from "../src/agent/gossip/auth.js";
import { closeAll, eventually, json, startAgent, TEST_GOSSIP_KEY } from "./agent-harness.js";
import type { Agent } from "./agent-harness.js";

// Issue 13, point 3: a flood of members. Every announced member has a loopback address.

const GOSSIP = "/v1/agent/gossip";
const signer = new GossipAuth(Buffer.from(TEST_GOSSIP_KEY, "base64"));

async function announce(agent: Agent, name: string, port: number): Promise<Response> {
  const body = JSON.stringify({ member: { Name: name, Addr: "127.0.0.1", Port: port, Status: "alive", Tags: {} } });
  return fetch(`${agent.base}${GOSSIP}`, { method: "POST", headers: { "content-type": "application/json", ...signer.signRequest("POST", GOSSIP, body) }, body });
}

async function members(agent: Agent): Promise<{ Name: string; Status: string }[]> {
  return (await json<{ Members: { Name: string; Status: string }[] }>(await fetch(`${agent.base}/v1/agent/members`))).Members;
}

/** A listener on 127.0.0.1 that accepts requests and never answers; counts them and the most open at once. */
async function blackHole(): Promise<{ port: number; total: () => number; maxOpen: () => number; close: () => void; server: Server }> {
  let open = 0;
  let maxOpen = 0;
  let total = 0;
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    total += 1;
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    held.push(res);
    req.on("close", () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    total: () => total,
    maxOpen: () => maxOpen,
    server,
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}

afterEach(closeAll);

describe("member flood", () => {
  it("bounds the member list: announcements beyond the limit are refused with 503", async () => {
    const hole = await blackHole();
    try {
      const a = await startAgent({ nodeName: "alpha", maxMembers: 16, probeIntervalMs: 60_000 });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await announce(a, `flood-${i}.global`, hole.port)).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(16);
      expect(statuses.filter((s) => s === 503)).toHaveLength(24);
      const listed = await members(a);
      expect(listed).toHaveLength(17);
      // A member already known may announce itself again.
      expect((await announce(a, "flood-0.global", hole.port)).status).toBe(200);
    } finally {
      hole.close();
    }
  });

  it("probes one member at a time, not all of them at once", async () => {
    const hole = await blackHole();
    try {
      // Probes of the black hole hang until their 2 s timeout; an interval of 20 ms would start
      // dozens of them at once if the detector probed every member on every tick.
      const a = await startAgent({ nodeName: "alpha", probeIntervalMs: 20, probeTimeoutMs: 2_000 });
      for (let i = 0; i < 20; i++) expect((await announce(a, `quiet-${i}.global`, hole.port)).status).toBe(200);
      await eventually(async () => (hole.total() >= 2 ? true : undefined), "two probes");
      expect(hole.maxOpen()).toBe(1);
    } finally {
      hole.close();
    }
  });

  it("forgets a member that has been failed for the reap time", async () => {
    const a = await startAgent({ nodeName: "alpha", reapAfterMs: 300 });
    const b = await startAgent({ nodeName: "bravo" });
    expect((await json<{ num_joined: number }>(await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" }))).num_joined).toBe(1);
    await b.close();
    await eventually(async () => ((await members(a)).some((m) => m.Name === "bravo.global" && m.Status === "failed") ? true : undefined), "bravo to fail");
    await eventually(async () => ((await members(a)).some((m) => m.Name === "bravo.global") ? undefined : true), "bravo to be reaped");
    expect((await members(a)).map((m) => m.Name)).toEqual(["alpha.global"]);
  });
});
