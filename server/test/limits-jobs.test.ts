import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";
import { MAX_JOB_DEPTH, STOPPED_JOB } from "../src/lists/register.js";

// Registrations under attack: namespace-scoped write tokens, absurdly deep jobs, stopped jobs.

type Json = Record<string, unknown>;
let server: RunningServer;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-limits-"));
  const tokens = join(dir, "tokens.json");
  writeFileSync(
    tokens,
    JSON.stringify([
      { SecretID: "dev-writer", Capabilities: ["job:write@dev"] },
      { SecretID: "dev-reader", Capabilities: ["job:read@dev"] },
      { SecretID: "any-writer", Capabilities: ["job:write@*"] },
      { SecretID: "writer", Capabilities: ["job:write"] },
      { SecretID: "mgmt", Management: true, Capabilities: [] },
    ]),
  );
  const dataFile = join(dir, "data.json");
  writeFileSync(dataFile, JSON.stringify({ jobs: [], deployments: [] }));
  server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error", dataFile, aclTokensFile: tokens });
});
afterAll(async () => server.lifecycle.shutdown());

const put = (body: string | Json, token: string, query = ""): Promise<Response> =>
  fetch(`${server.apiUrl}/v1/jobs${query}`, { method: "PUT", body: typeof body === "string" ? body : JSON.stringify(body), headers: { "X-Svc-Token": token } });
const job = (id: string, extra: Json = {}): Json => ({ Job: { ID: id, Type: "service", TaskGroups: [{ Name: "g", Count: 1 }], ...extra } });
const get = async (path: string): Promise<Response> => fetch(`${server.apiUrl}${path}`, { headers: { "X-Svc-Token": "mgmt" } });

describe("a namespace-scoped write token writes only in its namespace", () => {
  // [token, namespace in the body, namespace in the query, expected status]
  const cases: [string, string | undefined, string | undefined, number][] = [
    ["dev-writer", "dev", undefined, 200],
    ["dev-writer", undefined, "dev", 200],
    ["dev-writer", "*", undefined, 403],
    ["dev-writer", undefined, "*", 403],
    ["dev-writer", "prod", undefined, 403],
    ["dev-writer", undefined, "prod", 403],
    ["dev-writer", undefined, undefined, 403],
    ["dev-writer", "prod", "dev", 403],
    ["dev-reader", "dev", undefined, 403],
    ["any-writer", "prod", undefined, 200],
    ["writer", "prod", undefined, 200],
    ["mgmt", "dev", undefined, 200],
  ];
  it.each(cases)("%s registering into body namespace %s, query namespace %s: %i", async (token, bodyNs, queryNs, status) => {
    const id = `acl-${token}-${bodyNs ?? "none"}-${queryNs ?? "none"}`.replaceAll("*", "star");
    const res = await put(job(id, bodyNs === undefined ? {} : { Namespace: bodyNs }), token, queryNs === undefined ? "" : `?namespace=${encodeURIComponent(queryNs)}`);
    expect(res.status).toBe(status);
    if (status === 403) {
      expect(await res.text()).toBe("Permission denied");
      // Nothing was written anywhere.
      const all = (await (await get("/v1/jobs?namespace=*")).json()) as Json[];
      expect(all.map((j) => j["ID"])).not.toContain(id);
    }
  });
});

describe("deeply nested jobs", () => {
  const nestedObject = (depth: number): string => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

  it(`a job nested more than ${MAX_JOB_DEPTH} levels is 400 with a message, and the list keeps answering 200`, async () => {
    const body = `{"Job":{"ID":"deep","Type":"batch","TaskGroups":[{"Name":"g"}],"Multiregion":${nestedObject(5000)}}}`;
    const res = await put(body, "mgmt");
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(`Job nests objects and arrays more than ${MAX_JOB_DEPTH} levels deep`);
    const list = await get("/v1/jobs?namespace=*");
    expect(list.status).toBe(200);
    expect(((await list.json()) as Json[]).map((j) => j["ID"])).not.toContain("deep");
  });

  it("a job just within the bound is accepted and listed", async () => {
    // Job (1) → Multiregion (2) → MAX_JOB_DEPTH - 2 more levels.
    const body = `{"Job":{"ID":"nested-ok","Type":"batch","TaskGroups":[{"Name":"g"}],"Multiregion":${nestedObject(MAX_JOB_DEPTH - 1)}}}`;
    expect((await put(body, "mgmt")).status).toBe(200);
    const list = await get("/v1/jobs?prefix=nested-ok");
    expect(list.status).toBe(200);
    expect(((await list.json()) as Json[]).map((j) => j["ID"])).toEqual(["nested-ok"]);
    const tooDeep = `{"Job":{"ID":"nested-no","Type":"batch","TaskGroups":[{"Name":"g"}],"Multiregion":${nestedObject(MAX_JOB_DEPTH)}}}`;
    expect((await put(tooDeep, "mgmt")).status).toBe(400);
  });
});

describe("stopping a job", () => {
  it("cancels its running deployment", async () => {
    expect((await put(job("stopme"), "mgmt")).status).toBe(200);
    const running = ((await (await get("/v1/deployments")).json()) as Json[]).filter((d) => d["JobID"] === "stopme");
    expect(running.map((d) => d["Status"])).toEqual(["running"]);
    const res = await put(job("stopme", { Stop: true }), "mgmt");
    expect(res.status).toBe(200);
    const index = ((await res.json()) as Json)["Index"];
    const after = ((await (await get("/v1/deployments")).json()) as Json[]).filter((d) => d["JobID"] === "stopme");
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ ID: running[0]!["ID"], Status: "cancelled", StatusDescription: STOPPED_JOB, ModifyIndex: index });
    const entry = ((await (await get("/v1/jobs?prefix=stopme")).json()) as Json[])[0]!;
    expect(entry).toMatchObject({ Stop: true, Status: "dead" });
  });
});
