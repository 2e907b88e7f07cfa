import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { FilterCache } from "../src/lists/filters.js";
import { schedulerRoutes } from "../src/scheduler/index.js";
import { snapshotFromData } from "../src/lists/load.js";
import { MemoryStore } from "../src/store/memory/index.js";
import { SchedulerState } from "../src/store/memory/state.js";
import Fastify from "fastify";
import { compile, FilterSyntaxError, schemas } from "filter-expr";
import { testContext } from "./support/context.js";

const JOBS = [
  ["job-01", "default", "pending", ["dc1"]],
  ["job-02", "default", "pending", ["dc1", "dc2"]],
  ["job-03", "non-default", "pending", ["dc2"]],
  ["job-04", "default", "pending", ["dc3"]],
  ["job-05", "default", "running", ["dc1"]],
  ["job-06", "default", "running", ["dc2"]],
  ["job-08", "default", "pending", ["dc1"]],
  ["job-03", "other", "pending", ["dc1"]],
].map(([id, ns, status, dcs], i) => ({
  ID: id,
  Name: id,
  Namespace: ns,
  Status: status,
  Type: "service",
  Datacenters: dcs,
  Priority: 50 + i,
  CreateIndex: 1000 + i,
  ModifyIndex: 1000 + i,
  JobSummary: { JobID: id, Namespace: ns, Summary: { web: { Running: i % 3, Queued: 0, Starting: 0, Complete: 0, Failed: 0, Lost: 0 } }, Children: { Pending: 0, Running: 0, Dead: 0 } },
}));
const SUFFIX = "-3350-4b4b-d185-0e1992ed43e9";
const DEPLOYMENTS = [
  ["aaaa1111", "default", 1000],
  ["aaaaaa22", "default", 1001],
  ["aaaaaa33", "non-default", 1002],
  ["aaaaaaaa", "default", 1003],
].map(([id, ns, ci], i) => ({
  ID: `${id}${SUFFIX}`,
  Namespace: ns,
  Status: i === 3 ? "successful" : "cancelled",
  JobID: "web",
  CreateIndex: ci,
  ModifyIndex: ci,
  TaskGroups: { web: { DesiredTotal: 3 + i, HealthyAllocs: i, PlacedCanaries: null, RequireProgressBy: null } },
}));

let app: FastifyInstance;
let base: string;
beforeAll(async () => {
  const ctx = testContext();
  app = await buildApp(ctx, { scheduler: new MemoryStore(new SchedulerState(snapshotFromData({ jobs: JOBS, deployments: DEPLOYMENTS }))) });
  await app.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => app.close());

/** "line:column" of the library's own error for an expression. */
function compileError(expression: string): string {
  try {
    compile(expression, { schema: schemas.job });
  } catch (e) {
    if (e instanceof FilterSyntaxError) return `${e.line}:${e.column}`;
  }
  throw new Error(`${expression} compiled`);
}

async function get(path: string, filter: string, query = ""): Promise<Response> {
  return fetch(`${base}${path}?filter=${encodeURIComponent(filter)}${query}`);
}
async function ids(res: Response): Promise<string[]> {
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { ID: string }[]).map((j) => j.ID.replace(SUFFIX, ""));
}

describe("filter on GET /v1/jobs (typed job list entry)", () => {
  it.each([
    ["06 all namespaces", 'Name matches "job-0[123]"', "&namespace=*", ["job-01", "job-02", "job-03", "job-03"], null],
    ["07 paginated", 'Name matches "job-0[123]"', "&namespace=*&per_page=2", ["job-01", "job-02"], "non-default.job-03"],
    ["08 another namespace", 'Status == "pending"', "&namespace=non-default", ["job-03"], null],
    ["12 one per page", 'Name == "job-03"', "&namespace=*&per_page=1", ["job-03"], "other.job-03"],
    ["list selector", '"dc2" in Datacenters', "", ["job-02", "job-06"], null],
    ["summary of the list entry", "JobSummary.Summary.web.Running == 2", "", ["job-06"], null],
    ["bracketed map key", 'JobSummary.Summary["web"].Running == 1', "", ["job-02", "job-05"], null],
    ["boolean logic", 'Status == "running" or (Priority == 50 and not (Type != "service"))', "", ["job-01", "job-05", "job-06"], null],
    ["reverse", 'Status == "pending"', "&reverse=true&per_page=2", ["job-08", "job-04"], "default.job-02"],
  ])("%s", async (_name, filter, query, expected, next) => {
    const res = await get("/v1/jobs", filter, query);
    expect(await ids(res)).toEqual(expected);
    expect(res.headers.get("x-svc-nexttoken")).toBe(next);
  });

  it("a syntax error is a 400 whose plain-text message carries the position", async () => {
    for (const filter of ["NotValid", "Name ==", 'Name == "unterminated', "(Name == \"a\""]) {
      const position = compileError(filter);
      const res = await get("/v1/jobs", filter);
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const text = await res.text();
      expect(text).toMatch(/^failed to create result paginator: failed to read filter expression: /);
      expect(text).toContain(`at ${position}`);
    }
  });

  it("a type error (unknown field, impossible value) is a 400 with the position, even when nothing would be read", async () => {
    for (const query of ["", "&namespace=empty"]) {
      const res = await get("/v1/jobs", 'InvalidField == "value"', query);
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/InvalidField.*at 1:1/);
    }
    const res = await get("/v1/jobs", 'Priority == "abc"');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("at 1:13");
  });

  it("an evaluation error is a 400 with the message", async () => {
    // Behind an `or`, the invalid pattern fails only where a job reaches it: at evaluation.
    const res = await get("/v1/jobs", 'Name == "none" or Name matches "["');
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^failed to read result page: .*\[/);
    // Where every job reaches it, the filter is refused before any is read.
    const early = await get("/v1/jobs", 'Name matches "["');
    expect(early.status).toBe(400);
    expect(await early.text()).toMatch(/^failed to create result paginator: failed to read filter expression: invalid regular expression "\[".* at 1:14$/);
  });

  it("an empty filter is no filter", async () => {
    expect(await ids(await get("/v1/jobs", ""))).toHaveLength(6);
  });
});

describe("filter on GET /v1/deployments (typed deployment)", () => {
  it.each([
    ["07 all namespaces", 'ID matches "^a+[123]"', "&namespace=*", ["aaaa1111", "aaaaaa22", "aaaaaa33"], null],
    ["08 paginated", 'ID matches "^a+[123]"', "&namespace=*&per_page=2", ["aaaa1111", "aaaaaa22"], `1002.aaaaaa33${SUFFIX}`],
    ["09 another namespace", 'Status == "cancelled"', "&namespace=non-default", ["aaaaaa33"], null],
    ["10 namespace narrows first", 'Namespace == "non-default"', "&namespace=default", [], null],
    ["task group by key", 'TaskGroups["web"].DesiredTotal == 4', "", ["aaaaaa22"], null],
    ["task group map key", '"web" in TaskGroups and Status == "successful"', "", ["aaaaaaaa"], null],
  ])("%s", async (_name, filter, query, expected, next) => {
    const res = await get("/v1/deployments", filter, query);
    expect(await ids(res)).toEqual(expected);
    expect(res.headers.get("x-svc-nexttoken")).toBe(next);
  });

  it("an operator the language does not have is a 400, never a 500", async () => {
    const res = await get("/v1/deployments", 'TaskGroups["web"].DesiredTotal >= 5');
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("at 1:");
  });

  it("a missing task group is an evaluation error (400)", async () => {
    const res = await get("/v1/deployments", "TaskGroups.api.DesiredTotal == 3");
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^failed to read result page: .*api/);
  });

  it("filter with prefix is a 400 (the seed's rule 7)", async () => {
    const res = await get("/v1/deployments", 'Status == "cancelled"', "&prefix=aaaa");
    expect(res.status).toBe(400);
    expect(await res.text()).toBe("Filter expression cannot be used with other filter parameters");
  });
});

describe("compiled filters are cached", () => {
  it("compiles an expression once for many requests, per schema", async () => {
    const filters = new FilterCache(2);
    const ctx = testContext();
    const own = Fastify();
    await own.register(schedulerRoutes(ctx, new MemoryStore(new SchedulerState(snapshotFromData({ jobs: JOBS, deployments: DEPLOYMENTS }))), filters), { prefix: "/v1" });
    const q = (path: string, f: string) => own.inject({ url: `/v1/${path}?filter=${encodeURIComponent(f)}` });
    for (let i = 0; i < 5; i++) expect((await q("jobs", 'Status == "running"')).statusCode).toBe(200);
    expect(filters.compiles).toBe(1);
    await q("deployments", 'Status == "running"');
    expect(filters.compiles).toBe(2);
    // Capacity 2: a third expression evicts the least recently used one.
    await q("jobs", 'Status == "running"');
    await q("jobs", 'Status == "pending"');
    await q("deployments", 'Status == "running"');
    expect(filters.compiles).toBe(4);
    await own.close();
  });
});
