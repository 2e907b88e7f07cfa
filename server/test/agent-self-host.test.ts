import { readFileSync } from "node:fs";
import { availableParallelism, hostname, networkInterfaces } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { describeAddress } from "../src/agent/host/network.js";
import { environment, parseMounts } from "../src/agent/host/collect.js";
import { redactSecrets } from "../src/agent/self/redact.js";
import { auth, closeAll, json, startAgent, TOKENS } from "./agent-harness.js";

afterEach(closeAll);

type Obj = Record<string, unknown>;

const SEED_NETWORK_FIELDS = [
  "DialPacket", "DialStream", "ListenPacket", "ListenStream", "address", "binary", "broadcast", "first_usable", "hex", "host",
  "last_usable", "mask_bits", "netmask", "network", "octets", "port", "size", "string", "type", "uint32",
];

describe("GET /v1/agent/self", () => {
  it("returns config, member and stats of a server, with real runtime figures", async () => {
    const server = await startAgent({ nodeName: "alpha", tokens: Object.values(TOKENS) });
    const response = await fetch(`${server.base}/v1/agent/self`, { headers: auth(TOKENS.agentRead) });
    expect(response.status).toBe(200);
    const body = await json<{ config: Obj; member: Obj; stats: Record<string, Record<string, string>> }>(response);
    expect(Object.keys(body)).toEqual(["config", "member", "stats"]);

    const { config } = body;
    expect(config).toMatchObject({
      Version: "0.1.0",
      VersionPrerelease: "dev",
      NodeName: "alpha",
      Region: "global",
      Datacenter: "dc1",
      BindAddr: "127.0.0.1",
      EnableDebug: false,
      Ports: { HTTP: server.port, RPC: server.port, Gossip: server.port },
      AdvertiseAddrs: { HTTP: server.address, RPC: server.address, Gossip: server.address },
      Server: { Enabled: true, NumSchedulers: availableParallelism() },
      Client: { Enabled: false, Servers: null },
      ACL: { Enabled: true },
    });
    for (const key of ["DevMode", "DisableAnonymousSignature", "DisableUpdateCheck", "EnableSyslog", "LeaveOnInt", "LeaveOnTerm"]) {
      expect(typeof config[key], key).toBe("boolean");
    }
    for (const key of ["Addresses", "HTTPAPIResponseHeaders", "TLSConfig", "Telemetry"]) expect(typeof config[key], key).toBe("object");
    // No token secret of the ACL ever shows.
    const text = JSON.stringify(body);
    for (const token of Object.values(TOKENS)) expect(text).not.toContain(token.SecretID);

    expect(body.member).toMatchObject({ Name: "alpha.global", Addr: "127.0.0.1", Port: server.port, Status: "alive" });

    const { stats } = body;
    expect(Object.keys(stats).sort()).toEqual(["gossip", "raft", "runtime", "svc"]);
    for (const section of Object.values(stats)) for (const value of Object.values(section)) expect(typeof value).toBe("string");
    expect(Object.keys(stats["runtime"] ?? {})).toEqual(expect.arrayContaining(["cpu_count", "kernel.name", "arch", "version", "max_procs", "goroutines"]));
    expect(Object.keys(stats["svc"] ?? {}).sort()).toEqual(["bootstrap", "known_regions", "leader", "leader_addr", "server"]);
    expect(Object.keys(stats["raft"] ?? {})).toHaveLength(14);
    expect(Object.keys(stats["gossip"] ?? {})).toHaveLength(11);
    const runtime = stats["runtime"] ?? {};
    // The server runs in this test process: its figures are this process's.
    expect(runtime).toMatchObject({ cpu_count: String(availableParallelism()), arch: process.arch, version: process.version, pid: String(process.pid) });
    expect(Number(runtime["goroutines"])).toBeGreaterThan(0);
    const rss = Number(runtime["rss"]);
    expect(rss).toBeGreaterThan(process.memoryUsage().rss / 4);
    expect(rss).toBeLessThan(process.memoryUsage().rss * 4);
    expect(runtime["process_uptime"]).toMatch(/^[\dhm.]+s$/);
    expect(stats["gossip"]).toMatchObject({ members: "1", failed: "0", left: "0" });
  });

  it("reports the zero member and client stats in client mode", async () => {
    const server = await startAgent();
    const client = await startAgent({ mode: "client" });
    await fetch(`${client.base}/v1/agent/servers?address=${server.address}`, { method: "POST" });
    const body = await json<{ config: Obj; member: Obj; stats: Record<string, Record<string, string>> }>(await fetch(`${client.base}/v1/agent/self`));
    expect(body.member).toMatchObject({ Addr: null, Name: "", Port: 0, Tags: null });
    expect(Object.keys(body.stats).sort()).toEqual(["client", "runtime"]);
    expect(body.stats["client"]).toMatchObject({ known_servers: server.address, num_allocations: "0" });
    expect(body.stats["client"]?.["node_id"]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(body.config).toMatchObject({ Client: { Enabled: true, Servers: [server.address] }, Server: { Enabled: false } });
  });

  it("needs agent:read, and is GET only", async () => {
    const server = await startAgent({ tokens: Object.values(TOKENS) });
    expect((await fetch(`${server.base}/v1/agent/self`)).status).toBe(403);
    expect((await fetch(`${server.base}/v1/agent/self`, { headers: auth(TOKENS.nodeRead) })).status).toBe(403);
    expect((await fetch(`${server.base}/v1/agent/self`, { headers: auth(TOKENS.agentWrite) })).status).toBe(200);
    expect((await fetch(`${server.base}/v1/agent/self`, { method: "PUT", headers: auth(TOKENS.management) })).status).toBe(405);
  });

  it("pretty-prints on request", async () => {
    const server = await startAgent();
    const text = await (await fetch(`${server.base}/v1/agent/self?pretty`)).text();
    expect(text).toMatch(/^\{\n {4}"config": \{/);
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("redacts secret-looking configuration values", () => {
    expect(redactSecrets({ ACL: { ReplicationToken: "abc", Enabled: true }, Vaults: [{ Token: "t", Address: "x" }], Empty: { Token: "" } })).toEqual({
      ACL: { ReplicationToken: "<redacted>", Enabled: true },
      Vaults: [{ Token: "<redacted>", Address: "x" }],
      Empty: { Token: "" },
    });
  });
});

describe("GET /v1/agent/host", () => {
  it("is refused without enable_debug when ACLs are off, and needs agent:read when they are on", async () => {
    const plain = await startAgent();
    const denied = await fetch(`${plain.base}/v1/agent/host`);
    expect(denied.status).toBe(403);
    expect(await denied.text()).toBe("Permission denied");
    const acl = await startAgent({ tokens: Object.values(TOKENS) });
    expect((await fetch(`${acl.base}/v1/agent/host`)).status).toBe(403);
    expect((await fetch(`${acl.base}/v1/agent/host`, { headers: auth(TOKENS.nodeRead) })).status).toBe(403);
    expect((await fetch(`${acl.base}/v1/agent/host`, { headers: auth(TOKENS.agentRead) })).status).toBe(200);
  });

  it("returns real data about this host", async () => {
    process.env["AGENT_TEST_API_TOKEN"] = "do-not-show-1";
    process.env["AGENT_TEST_DB_PASSWORD"] = "do-not-show-2";
    process.env["AGENT_TEST_PLAIN"] = "visible";
    try {
      const server = await startAgent({ nodeName: "alpha", enableDebug: true });
      const response = await fetch(`${server.base}/v1/agent/host`);
      expect(response.status).toBe(200);
      const body = await json<{ AgentID: string; HostData: Obj }>(response);
      expect(body.AgentID).toBe("alpha.global");
      const data = body.HostData;
      expect(Object.keys(data).sort()).toEqual(["Disk", "Environment", "Hosts", "Network", "OS", "ResolvConf"]);
      expect(data["OS"]).toContain(hostname());
      const readOr = (path: string): string => {
        try {
          return readFileSync(path, "utf8");
        } catch {
          return "";
        }
      };
      expect(data["Hosts"]).toBe(readOr("/etc/hosts"));
      expect(data["ResolvConf"]).toBe(readOr("/etc/resolv.conf"));

      const env = data["Environment"] as Record<string, string>;
      expect(env["AGENT_TEST_API_TOKEN"]).toBe("<redacted>");
      expect(env["AGENT_TEST_DB_PASSWORD"]).toBe("<redacted>");
      expect(env["AGENT_TEST_PLAIN"]).toBe("visible");
      expect(JSON.stringify(body)).not.toContain("do-not-show");

      const disk = data["Disk"] as Record<string, { DiskMB: number; UsedMB: number }>;
      expect(disk["/"]).toBeDefined();
      expect(disk["/"]?.DiskMB).toBeGreaterThan(0);
      for (const usage of Object.values(disk)) {
        expect(Number.isInteger(usage.DiskMB) && Number.isInteger(usage.UsedMB)).toBe(true);
        expect(usage.UsedMB).toBeLessThanOrEqual(usage.DiskMB);
      }

      const network = data["Network"] as Record<string, string>[];
      const expectedCount = Object.values(networkInterfaces()).flat().length;
      expect(network).toHaveLength(expectedCount);
      for (const entry of network) {
        expect(Object.keys(entry)).toEqual(expect.arrayContaining(SEED_NETWORK_FIELDS));
        for (const value of Object.values(entry)) expect(typeof value).toBe("string");
      }
      expect(network.find((e) => e.address === "127.0.0.1")).toMatchObject({ type: "IPv4", string: "127.0.0.1/8" });
    } finally {
      delete process.env["AGENT_TEST_API_TOKEN"];
      delete process.env["AGENT_TEST_DB_PASSWORD"];
      delete process.env["AGENT_TEST_PLAIN"];
    }
  });

  it("describes an address with the socket-address attributes", () => {
    expect(describeAddress("IPv4", "127.0.0.1", 8)).toEqual({
      DialPacket: '"udp4" ""',
      DialStream: '"tcp4" ""',
      ListenPacket: '"udp4" ""',
      ListenStream: '"tcp4" ""',
      address: "127.0.0.1",
      binary: "01111111000000000000000000000001",
      broadcast: "127.255.255.255",
      first_usable: "127.0.0.1",
      hex: "7f000001",
      host: "127.0.0.1",
      last_usable: "127.255.255.254",
      mask_bits: "8",
      netmask: "255.0.0.0",
      network: "127.0.0.0/8",
      octets: "127 0 0 1",
      port: "0",
      size: "16777216",
      string: "127.0.0.1/8",
      type: "IPv4",
      uint32: "2130706433",
    });
    expect(describeAddress("IPv4", "10.1.2.3", 32)).toMatchObject({ ListenStream: '"tcp4" "10.1.2.3:0"', string: "10.1.2.3", size: "1", first_usable: "10.1.2.3" });
    expect(describeAddress("IPv6", "::1", 128)).toMatchObject({ address: "::1", type: "IPv6", network: "::1/128", size: "1", uint128: "1", ListenStream: '"tcp6" "[::1]:0"' });
    expect(describeAddress("IPv6", "fe80::1:2", 64)).toMatchObject({ network: "fe80::/64", netmask: "ffff:ffff:ffff:ffff::", last_usable: "fe80::ffff:ffff:ffff:ffff" });
  });

  it("reads mount points with escapes and redacts sensitive variables", () => {
    expect(parseMounts("/dev/sda1 / ext4 rw 0 0\ntmpfs /mnt/my\\040disk tmpfs rw 0 0\n")).toEqual(["/", "/mnt/my disk"]);
    expect(environment({ HOME: "/root", GITHUB_TOKEN: "x", aws_secret_access_key: "y", AWS_ACCESS_KEY_ID: "z" })).toEqual({
      HOME: "/root",
      GITHUB_TOKEN: "<redacted>",
      aws_secret_access_key: "<redacted>",
      AWS_ACCESS_KEY_ID: "<redacted>",
    });
  });

  it("targets another server of the pool by server_id, and refuses both targets at once", async () => {
    const a = await startAgent({ nodeName: "alpha", enableDebug: true });
    const b = await startAgent({ nodeName: "bravo", enableDebug: true });
    await fetch(`${a.base}/v1/agent/join?address=${b.address}`, { method: "POST" });
    const remote = await json<{ AgentID: string }>(await fetch(`${a.base}/v1/agent/host?server_id=bravo.global`));
    expect(remote.AgentID).toBe("bravo.global");
    const leader = await json<{ AgentID: string }>(await fetch(`${a.base}/v1/agent/host?server_id=leader`));
    expect(leader.AgentID).toBe("alpha.global");
    const both = await fetch(`${a.base}/v1/agent/host?server_id=x&node_id=y`);
    expect(both.status).toBe(400);
    expect(await both.text()).toBe("Can only forward to either client node or server");
    expect((await fetch(`${a.base}/v1/agent/host?server_id=nobody`)).status).toBe(404);
    expect((await fetch(`${a.base}/v1/agent/host?node_id=nobody`)).status).toBe(404);
  });
});
