import { gunzipSync } from "node:zlib";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import type { AclToken } from "../src/context.js";
import { DEFAULT_OPTIONS } from "../src/context.js";
import { snapshotFromData } from "../src/lists/load.js";
import { MemoryStore } from "../src/store/memory/index.js";
import { SchedulerState } from "../src/store/memory/state.js";
import { testContext } from "./support/context.js";
import { DEPLOYMENT_PAGES, JOB_PAGES, PAGINATION_DEPLOYMENTS, PAGINATION_JOBS, short } from "./support/scheduler-tables.js";

// The scheduler's own pagination test tables, served by the real app on a loopback port.
const JOBS = PAGINATION_JOBS.map(([id, ns, status], i) => ({ ID: id, Name: id, Namespace: ns, Status: status, Type: "service", CreateIndex: 1000 + i, ModifyIndex: 1000 + i, JobModifyIndex: 1000 + i }));
const DEPLOYMENTS = PAGINATION_DEPLOYMENTS;

const TOKENS: AclToken[] = [
  { SecretID: "mgmt-secret", Name: "root", Management: true, Capabilities: [] },
  { SecretID: "reader", Capabilities: ["job:read"] },
  { SecretID: "nondefault-reader", Capabilities: ["job:read@non-default"] },
  { SecretID: "agent-only", Capabilities: ["agent:read"] },
];

async function start(tokens?: AclToken[], data: unknown = { jobs: JOBS, deployments: DEPLOYMENTS }): Promise<{ app: FastifyInstance; base: string; state: SchedulerState }> {
  const ctx = testContext(tokens, { logLevel: DEFAULT_OPTIONS.logLevel });
  const state = new SchedulerState(snapshotFromData(data));
  const app = await buildApp({ ...ctx, options: { ...ctx.options, logLevel: "error" } }, { scheduler: new MemoryStore(state) });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return { app, base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, state };
}

async function ids(res: Response): Promise<string[]> {
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { ID: string }[]).map((j) => j.ID);
}


describe("GET /v1/jobs pagination (the scheduler's own table)", () => {
  let server: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => (server = await start()));
  afterAll(async () => server.app.close());

  it.each(JOB_PAGES)("%s", async (_name, query, expected, next) => {
    const res = await fetch(`${server.base}/v1/jobs?${query}`);
    expect(await ids(res)).toEqual(expected);
    expect(res.headers.get("x-svc-nexttoken")).toBe(next);
    expect(res.headers.get("x-svc-index")).toBe("1007");
    expect(res.headers.get("x-svc-knownleader")).toBe("true");
    expect(res.headers.get("x-svc-lastcontact")).toBe("0");
  });

  it("a walk with every page size returns every job of the namespace exactly once", async () => {
    for (const perPage of [1, 2, 3, 5]) {
      const seen: string[] = [];
      let token: string | null = "";
      let pages = 0;
      while (token !== null && pages++ < 20) {
        const res: Response = await fetch(`${server.base}/v1/jobs?namespace=*&per_page=${perPage}&next_token=${encodeURIComponent(token)}`);
        seen.push(...(await ((await res.json()) as Promise<{ Namespace: string; ID: string }[]>)).map((j) => `${j.Namespace}.${j.ID}`));
        token = res.headers.get("x-svc-nexttoken");
      }
      expect(seen).toEqual(JOBS.map((j) => `${j.Namespace}.${j.ID}`).sort());
    }
  });

  it("answers every field of the seed's job list entry, a JSON array, never null", async () => {
    const [job] = (await (await fetch(`${server.base}/v1/jobs?per_page=1`)).json()) as Record<string, unknown>[];
    expect(Object.keys(job ?? {}).sort()).toEqual(
      ["CreateIndex", "Datacenters", "ID", "JobModifyIndex", "JobSummary", "ModifyIndex", "Multiregion", "Name", "Namespace", "ParameterizedJob", "ParentID", "Periodic", "Priority", "Status", "StatusDescription", "Stop", "SubmitTime", "Type"],
    );
    expect(await (await fetch(`${server.base}/v1/jobs?namespace=empty`)).text()).toBe("[]");
  });

  it("pretty prints with a four-space indent and a newline; compact otherwise", async () => {
    const pretty = await (await fetch(`${server.base}/v1/jobs?per_page=1&pretty`)).text();
    expect(pretty.startsWith('[\n    {\n        "CreateIndex": 1000,')).toBe(true);
    expect(pretty.endsWith("\n")).toBe(true);
    expect(await (await fetch(`${server.base}/v1/jobs?per_page=1&pretty=0`)).text()).toMatch(/^\[\{"CreateIndex":1000,.*\}\]$/);
  });

  it("compresses with gzip when Accept-Encoding allows it", async () => {
    const { request } = await import("node:http");
    const { port } = new URL(server.base);
    const body = await new Promise<{ encoding: string | undefined; vary: string | undefined; bytes: Buffer }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: "/v1/jobs?per_page=2", headers: { "Accept-Encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ encoding: res.headers["content-encoding"], vary: res.headers["vary"], bytes: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(body.encoding).toBe("gzip");
    expect(body.vary?.toLowerCase()).toContain("accept-encoding");
    expect((JSON.parse(gunzipSync(body.bytes).toString()) as { ID: string }[]).map((j) => j.ID)).toEqual(["job-01", "job-02"]);
  });

  it.each([
    ["per_page=a", "Expect a number for `per_page` query string parameter"],
    ["per_page=-1", "`per_page` must be a positive integer"],
    ["stale=random", "Expect `true` or `false` for `stale` query string parameter"],
    ["wait=10", "Invalid wait time"],
    ["index=-1", "Invalid index"],
    ["index=foo", "Invalid index"],
    ["region=elsewhere", 'No path to region "elsewhere"'],
    ["prefix=job&filter=Status%20%3D%3D%20%22running%22", "Filter expression cannot be used with other filter parameters"],
  ])("400 with a plain-text message for %s", async (query, message) => {
    const res = await fetch(`${server.base}/v1/jobs?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await res.text()).toBe(message);
  });

  it("accepts stale, its own region and next_token given twice (the first counts)", async () => {
    expect(await ids(await fetch(`${server.base}/v1/jobs?stale&region=global&per_page=1`))).toEqual(["job-01"]);
    expect(await ids(await fetch(`${server.base}/v1/jobs?stale=true&per_page=1&next_token=default.job-05&next_token=default.job-01`))).toEqual(["job-05"]);
  });

  it("404 with an empty body for unknown routes, 405 for wrong methods", async () => {
    for (const path of ["/v1/unknown/endpoint", "/v1/jobs/", "/v1/deployments/x", "/"]) {
      const res = await fetch(`${server.base}${path}`);
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.text()).toBe("");
    }
    for (const [method, path] of [["DELETE", "/v1/jobs"], ["PATCH", "/v1/jobs"], ["HEAD", "/v1/jobs"], ["OPTIONS", "/v1/jobs"], ["PUT", "/v1/deployments"], ["POST", "/v1/deployments"], ["DELETE", "/v1/agent/self"]] as const) {
      const res = await fetch(`${server.base}${path}`, { method });
      expect([method, path, res.status]).toEqual([method, path, 405]);
      if (method !== "HEAD") expect(await res.text()).toBe("Invalid method");
    }
  });
});

describe("GET /v1/deployments pagination (the scheduler's own table)", () => {
  let server: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => (server = await start()));
  afterAll(async () => server.app.close());

  it.each(DEPLOYMENT_PAGES)("%s", async (_name, query, expected, next) => {
    const res = await fetch(`${server.base}/v1/deployments?${query}`);
    expect((await ids(res)).map(short)).toEqual(expected);
    expect(res.headers.get("x-svc-nexttoken")).toBe(next);
    expect(res.headers.get("x-svc-index")).toBe("1009");
  });

  it.each([
    ["aaa", "index error: Input (without hyphens) must be even length"],
    ["zz", "index error: Invalid UUID: encoding/hex: invalid byte: U+007A 'z'"],
  ])("a prefix that is not partial-UUID hex (%s) is a 400", async (prefix, message) => {
    const res = await fetch(`${server.base}/v1/deployments?prefix=${prefix}`);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe(message);
  });
});

describe("a new state", () => {
  it("starts at index 1", async () => {
    const server = await start(undefined, {});
    try {
      for (const path of ["/v1/jobs", "/v1/deployments"]) {
        const res = await fetch(`${server.base}${path}`);
        expect(await res.text()).toBe("[]");
        expect(res.headers.get("x-svc-index")).toBe("1");
      }
    } finally {
      await server.app.close();
    }
  });
});

describe("ACL tokens", () => {
  let server: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => (server = await start(TOKENS)));
  afterAll(async () => server.app.close());

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.base}${path}`, { headers });

  it("403 without a token, with an unknown one, or without job:read", async () => {
    const attempts: Record<string, string>[] = [{}, { "X-Svc-Token": "nope" }, { Authorization: "Bearer nope" }, { "X-Svc-Token": "agent-only" }, { Authorization: "mgmt-secret" }];
    for (const headers of attempts) {
      const res = await get("/v1/jobs", headers);
      expect(res.status).toBe(403);
      expect(await res.text()).toBe("Permission denied");
      expect((await get("/v1/deployments", headers)).status).toBe(403);
    }
  });

  it("reads with X-Svc-Token or Authorization: Bearer", async () => {
    expect(await ids(await get("/v1/jobs", { "X-Svc-Token": " reader " }))).toHaveLength(6);
    expect(await ids(await get("/v1/jobs", { Authorization: "bearer mgmt-secret" }))).toHaveLength(6);
    // A non-empty X-Svc-Token wins over Authorization.
    expect((await get("/v1/jobs", { "X-Svc-Token": "agent-only", Authorization: "Bearer reader" })).status).toBe(403);
  });

  it("job:read@NS reads that namespace only; with namespace=* it sees only its namespaces", async () => {
    const h = { "X-Svc-Token": "nondefault-reader" };
    expect((await get("/v1/jobs", h)).status).toBe(403);
    expect(await ids(await get("/v1/jobs?namespace=non-default", h))).toEqual(["job-03"]);
    expect(await ids(await get("/v1/jobs?namespace=*", h))).toEqual(["job-03"]);
    expect((await ids(await get("/v1/deployments?namespace=*", h))).map(short)).toEqual(["aaaaaa33"]);
  });

  it("bad parameters are reported before the token is checked", async () => {
    expect((await get("/v1/jobs?per_page=x")).status).toBe(400);
  });
});
