import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.lifecycle.shutdown();
  server = undefined;
});

async function start(data: unknown, tokensFile?: string): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-"));
  const dataFile = join(dir, "data.json");
  writeFileSync(dataFile, JSON.stringify(data));
  const options = { ...DEFAULT_OPTIONS, port: 0, opsPort: 0, dataFile, logLevel: "error" as const };
  if (tokensFile !== undefined) options.aclTokensFile = tokensFile;
  server = await startServer(options);
  return server;
}

type Json = Record<string, unknown>;
const put = (base: string, body: unknown, headers: Record<string, string> = {}, query = "") =>
  fetch(`${base}/v1/jobs${query}`, { method: "PUT", body: JSON.stringify(body), headers: { "Content-Type": "application/json", ...headers } });
const list = async (base: string, path: string): Promise<Json[]> => (await (await fetch(`${base}${path}`)).json()) as Json[];

const webJob = (count = 3, extra: Json = {}) => ({ Job: { ID: "web", Type: "service", Datacenters: ["dc1"], TaskGroups: [{ Name: "frontend", Count: count }], ...extra } });

describe("PUT /v1/jobs", () => {
  it("creates the list entry and its summary, moves the index and starts a deployment", async () => {
    const { apiUrl } = await start({});
    const before = await fetch(`${apiUrl}/v1/jobs`);
    expect(before.headers.get("x-svc-index")).toBe("1");

    const res = await put(apiUrl, webJob());
    expect(res.status).toBe(200);
    const reply = (await res.json()) as Json;
    expect(reply).toMatchObject({ Index: 2, JobModifyIndex: 2, EvalCreateIndex: 2, Warnings: "" });
    expect(reply["EvalID"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("x-svc-index")).toBe("2");

    const jobsRes = await fetch(`${apiUrl}/v1/jobs`);
    expect(jobsRes.headers.get("x-svc-index")).toBe("2");
    const [job] = (await jobsRes.json()) as Json[];
    expect(job).toMatchObject({
      ID: "web",
      Name: "web",
      Namespace: "default",
      Type: "service",
      Priority: 50,
      Status: "pending",
      Datacenters: ["dc1"],
      CreateIndex: 2,
      ModifyIndex: 2,
      JobModifyIndex: 2,
      ParentID: "",
      Periodic: false,
      ParameterizedJob: false,
      Stop: false,
      Multiregion: null,
      JobSummary: { JobID: "web", Namespace: "default", CreateIndex: 2, ModifyIndex: 2, Children: { Pending: 0, Running: 0, Dead: 0 }, Summary: { frontend: { Queued: 3, Starting: 0, Running: 0, Complete: 0, Failed: 0, Lost: 0 } } },
    });
    expect(Math.abs((job?.["SubmitTime"] as number) / 1e6 - Date.now())).toBeLessThan(60_000);

    const deployments = await list(apiUrl, "/v1/deployments");
    expect(deployments).toHaveLength(1);
    expect(deployments[0]).toMatchObject({ JobID: "web", JobVersion: 0, Status: "running", CreateIndex: 2, JobCreateIndex: 2, TaskGroups: { frontend: { DesiredTotal: 3, PlacedCanaries: null, RequireProgressBy: null } } });
  });

  it("an update cancels the previous deployment with the seed's description and keeps CreateIndex", async () => {
    const { apiUrl } = await start({});
    await put(apiUrl, webJob(3));
    const second = await put(apiUrl, webJob(5));
    expect(((await second.json()) as Json)["Index"]).toBe(3);
    const [job] = await list(apiUrl, "/v1/jobs");
    expect(job).toMatchObject({ CreateIndex: 2, ModifyIndex: 3, JobModifyIndex: 3 });
    const deployments = await list(apiUrl, "/v1/deployments");
    expect(deployments.map((d) => [d["JobVersion"], d["Status"], d["StatusDescription"], d["ModifyIndex"]])).toEqual([
      [0, "cancelled", "Cancelled due to newer version of job", 3],
      [1, "running", "Deployment is running", 3],
    ]);
  });

  it("starts no deployment for batch, periodic or stopped jobs, and accepts POST and a namespace from the query", async () => {
    const { apiUrl } = await start({});
    expect((await put(apiUrl, { Job: { ID: "nightly", Type: "batch", Periodic: { Spec: "@daily" }, TaskGroups: [{ Name: "run" }] } })).status).toBe(200);
    const post = await fetch(`${apiUrl}/v1/jobs?namespace=dev`, { method: "POST", body: JSON.stringify(webJob(1, { Stop: true })) });
    expect(post.status).toBe(200);
    expect(await list(apiUrl, "/v1/deployments?namespace=*")).toEqual([]);
    const jobs = await list(apiUrl, "/v1/jobs?namespace=*");
    expect(jobs.map((j) => [j["Namespace"], j["ID"], j["Status"], j["Periodic"]])).toEqual([
      ["default", "nightly", "running", true],
      ["dev", "web", "dead", false],
    ]);
  });

  it.each([
    [{}, "Job must be specified"],
    [{ Job: { TaskGroups: [{ Name: "a" }] } }, "Missing job ID"],
    [{ Job: { ID: "x" } }, "Missing job task groups"],
    [{ Job: { ID: "x", Type: "web", TaskGroups: [{ Name: "a" }] } }, 'Invalid job type: "web"'],
    [{ Job: { ID: "x", Priority: 500, TaskGroups: [{ Name: "a" }] } }, "Job priority must be between [1, 100]"],
    [{ Job: { ID: "x", TaskGroups: [{ Name: "a", Count: "2" }] } }, "Count must be an integer"],
  ])("400 for an invalid job %#", async (body, message) => {
    const { apiUrl } = await start({});
    const res = await put(apiUrl, body);
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect((await fetch(`${apiUrl}/v1/jobs`)).headers.get("x-svc-index")).toBe("1");
  });

  it("400 for a body that is not JSON, never a 500", async () => {
    const { apiUrl } = await start({});
    const res = await fetch(`${apiUrl}/v1/jobs`, { method: "PUT", body: "{nope", headers: { "Content-Type": "text/plain" } });
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^Invalid request: /);
    expect((await fetch(`${apiUrl}/v1/jobs`, { method: "PUT" })).status).toBe(400);
  });

  it("needs job:write in the job's namespace when ACLs are on", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-server-acl-"));
    const tokens = join(dir, "tokens.json");
    writeFileSync(tokens, JSON.stringify([{ SecretID: "dev-writer", Capabilities: ["job:write@dev"] }, { SecretID: "reader", Capabilities: ["job:read"] }]));
    const { apiUrl } = await start({}, tokens);
    expect((await put(apiUrl, webJob())).status).toBe(403);
    expect((await put(apiUrl, webJob(), { "X-Svc-Token": "reader" })).status).toBe(403);
    expect((await put(apiUrl, webJob(), { Authorization: "Bearer dev-writer" })).status).toBe(403);
    expect((await put(apiUrl, webJob(), { Authorization: "Bearer dev-writer" }, "?namespace=dev")).status).toBe(200);
    const res = await fetch(`${apiUrl}/v1/jobs?namespace=dev`, { headers: { "X-Svc-Token": "dev-writer" } });
    expect(((await res.json()) as Json[]).map((j) => j["ID"])).toEqual(["web"]);
  });

  it("a full walk returns every job exactly once while jobs are being registered", async () => {
    const jobs = Array.from({ length: 60 }, (_, i) => ({ ID: `job-${String(i * 2).padStart(3, "0")}`, Namespace: "default", CreateIndex: i + 1, ModifyIndex: i + 1 }));
    const { apiUrl } = await start({ jobs });
    const seen: string[] = [];
    let token: string | null = "";
    let n = 0;
    while (token !== null) {
      const res: Response = await fetch(`${apiUrl}/v1/jobs?per_page=7&next_token=${token}`);
      seen.push(...((await res.json()) as Json[]).map((j) => j["ID"] as string));
      token = res.headers.get("x-svc-nexttoken");
      // Between pages, register new jobs before, inside and after the walk's position, and update old ones.
      await put(apiUrl, { Job: { ID: `job-${String(n * 2 + 1).padStart(3, "0")}`, TaskGroups: [{ Name: "g" }] } });
      await put(apiUrl, { Job: { ID: `job-${String(n * 2).padStart(3, "0")}`, TaskGroups: [{ Name: "g" }] } });
      n++;
    }
    const original = jobs.map((j) => j.ID);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of original) expect(seen).toContain(id);
  });
});
