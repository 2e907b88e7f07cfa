import { availableParallelism } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { auth, closeAll, json, startAgent, TOKENS } from "./agent-harness.js";

afterEach(closeAll);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CPUS = availableParallelism();
const DEFAULT_KINDS = ["service", "batch", "system", "sysbatch", "_core"];

interface Worker {
  enabled_schedulers: string[];
  id: string;
  started: string;
  status: string;
  workload_status: string;
}
interface Config {
  enabled_schedulers: string[];
  num_schedulers: number;
  server_id: string;
}

function put(base: string, body: string | undefined, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/v1/agent/schedulers/config`, { method: "PUT", headers: { "content-type": "application/json", ...headers }, ...(body === undefined ? {} : { body }) });
}

async function workers(base: string): Promise<Worker[]> {
  return (await json<{ schedulers: Worker[] }>(await fetch(`${base}/v1/agent/schedulers`))).schedulers;
}

describe("GET /v1/agent/schedulers", () => {
  it("lists one worker per configured scheduler, with ids, statuses and start times", async () => {
    const before = Date.now();
    const server = await startAgent({ nodeName: "alpha" });
    const response = await fetch(`${server.base}/v1/agent/schedulers`);
    expect(response.status).toBe(200);
    const body = await json<{ schedulers: Worker[]; server_id: string }>(response);
    expect(Object.keys(body)).toEqual(["schedulers", "server_id"]);
    expect(body.server_id).toBe("alpha.global");
    expect(body.schedulers).toHaveLength(CPUS);
    expect(new Set(body.schedulers.map((w) => w.id)).size).toBe(CPUS);
    for (const worker of body.schedulers) {
      expect(Object.keys(worker)).toEqual(["enabled_schedulers", "id", "started", "status", "workload_status"]);
      expect(worker.id).toMatch(UUID);
      expect(worker.enabled_schedulers).toEqual(DEFAULT_KINDS);
      expect(worker.started).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Date.parse(worker.started)).toBeGreaterThanOrEqual(before - 1);
      expect([["Paused", "Paused"], ["Started", "WaitingToDequeue"]]).toContainEqual([worker.status, worker.workload_status]);
    }
    // As the leader of its own cluster, the server pauses three quarters of its workers.
    expect(body.schedulers.filter((w) => w.status === "Paused")).toHaveLength(Math.floor((3 * CPUS) / 4));
  });

  it("is a server-only endpoint and needs agent:read", async () => {
    const client = await startAgent({ mode: "client" });
    for (const path of ["schedulers", "schedulers/config"]) {
      const response = await fetch(`${client.base}/v1/agent/${path}`);
      expect(response.status).toBe(400);
      expect(await response.text()).toBe("Server only endpoint");
    }
    const server = await startAgent({ tokens: Object.values(TOKENS) });
    expect((await fetch(`${server.base}/v1/agent/schedulers`, { headers: auth(TOKENS.nodeRead) })).status).toBe(403);
    expect((await fetch(`${server.base}/v1/agent/schedulers`, { headers: auth(TOKENS.agentRead) })).status).toBe(200);
    expect((await fetch(`${server.base}/v1/agent/schedulers`, { method: "PUT" })).status).toBe(405);
  });
});

describe("/v1/agent/schedulers/config", () => {
  it("reads the running configuration", async () => {
    const server = await startAgent({ nodeName: "alpha" });
    expect(await json<Config>(await fetch(`${server.base}/v1/agent/schedulers/config`))).toEqual({
      enabled_schedulers: DEFAULT_KINDS,
      num_schedulers: CPUS,
      server_id: "alpha.global",
    });
  });

  it("applies a valid change, replaces the workers, and keeps it until the next update", async () => {
    const server = await startAgent({ nodeName: "alpha" });
    const original = await workers(server.base);

    const response = await put(server.base, JSON.stringify({ num_schedulers: 1, enabled_schedulers: ["_core", "batch"], server_id: "ignored" }));
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ enabled_schedulers: ["_core", "batch"], num_schedulers: 1, server_id: "alpha.global" });
    const changed = await workers(server.base);
    expect(changed).toHaveLength(1);
    expect(changed[0]?.enabled_schedulers).toEqual(["_core", "batch"]);
    expect(original.map((w) => w.id)).not.toContain(changed[0]?.id);
    expect(changed[0]).toMatchObject({ status: "Started", workload_status: "WaitingToDequeue" });

    // The same configuration (in another order) changes nothing: the workers stay.
    expect((await put(server.base, JSON.stringify({ NUM_SCHEDULERS: 1, Enabled_Schedulers: ["batch", "_core"] }))).status).toBe(200);
    expect((await workers(server.base)).map((w) => w.id)).toEqual(changed.map((w) => w.id));

    // Zero workers is valid.
    expect(await json(await put(server.base, JSON.stringify({ num_schedulers: 0, enabled_schedulers: ["_core"] })))).toMatchObject({ num_schedulers: 0 });
    expect(await workers(server.base)).toEqual([]);
    expect(await json(await fetch(`${server.base}/v1/agent/schedulers/config`))).toMatchObject({ num_schedulers: 0, enabled_schedulers: ["_core"] });
  });

  it("lasts until a restart: a new server starts from the defaults", async () => {
    const first = await startAgent({ nodeName: "alpha" });
    await put(first.base, JSON.stringify({ num_schedulers: 1, enabled_schedulers: ["_core"] }));
    await first.close();
    const restarted = await startAgent({ nodeName: "alpha" });
    expect(await json(await fetch(`${restarted.base}/v1/agent/schedulers/config`))).toMatchObject({ num_schedulers: CPUS, enabled_schedulers: DEFAULT_KINDS });
  });

  it("refuses invalid configurations with 400 and leaves the running one as it was", async () => {
    const server = await startAgent();
    const cases: [string | undefined, string][] = [
      [undefined, "Invalid request: Request body is empty"],
      ["{num_schedulers:-1}", "Invalid request: "],
      ["[1]", "Invalid request: json: cannot unmarshal array"],
      [JSON.stringify({ num_schedulers: -1, enabled_schedulers: ["_core"] }), "Invalid request"],
      ['{"num_schedulers":9223372036854775807,"enabled_schedulers":["_core"]}', "Invalid request"],
      [JSON.stringify({ num_schedulers: CPUS + 1, enabled_schedulers: ["_core"] }), "Invalid request"],
      [JSON.stringify({ num_schedulers: 1.5, enabled_schedulers: ["_core"] }), "Invalid request: json: cannot unmarshal number 1.5"],
      [JSON.stringify({ num_schedulers: "1", enabled_schedulers: ["_core"] }), "Invalid request: json: cannot unmarshal string"],
      [JSON.stringify({ num_schedulers: 1, enabled_schedulers: ["service", "batch"] }), "Invalid request"],
      [JSON.stringify({ num_schedulers: 1 }), "Invalid request"],
      [JSON.stringify({ num_schedulers: 1, enabled_schedulers: [] }), "Invalid request"],
      [JSON.stringify({ num_schedulers: 1, enabled_schedulers: ["_core", "gpu"] }), "Invalid request"],
      [JSON.stringify({ num_schedulers: 1, enabled_schedulers: ["_core", 7] }), "Invalid request: json: cannot unmarshal"],
    ];
    for (const [body, message] of cases) {
      const response = await put(server.base, body);
      expect(response.status, body).toBe(400);
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const text = await response.text();
      if (message === "Invalid request") expect(text, body).toBe(message);
      else expect(text.startsWith(message), `${body}: ${text}`).toBe(true);
    }
    expect(await json(await fetch(`${server.base}/v1/agent/schedulers/config`))).toMatchObject({ num_schedulers: CPUS, enabled_schedulers: DEFAULT_KINDS });
    expect(await workers(server.base)).toHaveLength(CPUS);
  });

  it("needs agent:write to change, checked before the body", async () => {
    const server = await startAgent({ tokens: Object.values(TOKENS) });
    const valid = JSON.stringify({ num_schedulers: 1, enabled_schedulers: ["_core"] });
    expect((await put(server.base, "{bad", auth(TOKENS.agentRead))).status).toBe(403);
    expect((await put(server.base, valid, auth(TOKENS.agentRead))).status).toBe(403);
    expect((await fetch(`${server.base}/v1/agent/schedulers/config`, { headers: auth(TOKENS.agentRead) })).status).toBe(200);
    expect((await put(server.base, valid, auth(TOKENS.agentWrite))).status).toBe(200);
    expect((await fetch(`${server.base}/v1/agent/schedulers/config`, { method: "DELETE", headers: auth(TOKENS.management) })).status).toBe(405);
  });
});
