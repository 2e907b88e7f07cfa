import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killAll, run, start } from "./server-process.js";
import { until } from "../../test/support/wait.js";
import { freePort } from "../../test/support/postgres-cluster.js";

/**
 * The grace periods of the shutdown tests: far longer than a busy machine takes to see the server
 * draining and ask it a list, so that all of it happens within the period (which ends it).
 */
const GRACE_S = 10;

// The filter-server bin as a child process: real arguments, real signals, real exit codes.
afterEach(killAll);

function tempFile(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "filter-server-bin-")), name);
  writeFileSync(path, content);
  return path;
}

describe("filter-server", () => {
  it("--help prints the usage and exits 0", async () => {
    const bin = run(["--help"]);
    expect((await bin.exit).code).toBe(0);
    expect(bin.output()).toContain("Usage: filter-server [options]");
    for (const flag of ["--bind", "--port", "--ops-port", "--data", "--acl-tokens", "--enable-debug", "--data-dir", "--graceful-shutdown-wait", "--config", "--mode"]) {
      expect(bin.output()).toContain(flag);
    }
  });

  it("an unknown option or a bad value exits 2 with a message", async () => {
    for (const args of [["--nope"], ["--port", "http"], ["--mode", "both"], ["--graceful-shutdown-wait", "5"]]) {
      const bin = run(args);
      expect((await bin.exit).code).toBe(2);
      expect(bin.output()).toMatch(/^filter-server: /);
    }
  });

  it("serves the demo data set and logs where it listens", async () => {
    const bin = await start([]);
    expect(bin.output()).toMatch(/"msg":"filter-server listening on http:\/\/127\.0\.0\.1:\d+/);
    const jobs = (await (await fetch(`${bin.api}/v1/jobs?namespace=*`)).json()) as { Type: string; Status: string; Namespace: string }[];
    expect(jobs.length).toBeGreaterThanOrEqual(200);
    expect(new Set(jobs.map((j) => j.Type))).toEqual(new Set(["service", "batch", "system", "sysbatch"]));
    expect(new Set(jobs.map((j) => j.Status))).toEqual(new Set(["pending", "running", "dead"]));
    expect(new Set(jobs.map((j) => j.Namespace)).size).toBeGreaterThanOrEqual(3);
    const deployments = (await (await fetch(`${bin.api}/v1/deployments?namespace=*`)).json()) as { Status: string; StatusDescription: string }[];
    expect(new Set(deployments.map((d) => d.Status))).toEqual(new Set(["running", "paused", "failed", "successful", "cancelled", "initializing", "pending", "blocked", "unblocking"]));
    expect(deployments.some((d) => d.Status === "cancelled" && d.StatusDescription === "Cancelled due to newer version of job")).toBe(true);
    expect(deployments.some((d) => d.Status === "successful" && d.StatusDescription === "Deployment completed successfully")).toBe(true);
    bin.child.kill("SIGTERM");
    expect((await bin.exit).code).toBe(0);
  });

  it("standard output holds JSON log lines only, the first ones saying where it listens; the generated token goes to standard error", async () => {
    const bin = await start([]);
    bin.child.kill("SIGTERM");
    expect((await bin.exit).code).toBe(0);
    const lines = bin.stdout().split("\n").filter((l) => l !== "");
    const entries = lines.map((l) => JSON.parse(l) as { msg: string; api?: string });
    expect(entries[0]!.msg).toMatch(/^API listener at http:\/\/127\.0\.0\.1:\d+$/);
    expect(entries.findIndex((e) => e.api !== undefined)).toBeLessThan(3);
    expect(bin.stdout()).not.toContain("generated a token");
    expect(bin.output()).toMatch(/No --acl-tokens file: generated a token with every permission for \/api\/v2 .*Authorization: Bearer [0-9a-f-]{36}\n/);
  });

  it("--data replaces the demo set; a bad data file stops the start with a message", async () => {
    const data = tempFile("data.json", JSON.stringify({ jobs: [{ ID: "only-job", Namespace: "default", Type: "batch", Status: "running" }], deployments: [] }));
    const bin = await start(["--data", data]);
    const jobs = (await (await fetch(`${bin.api}/v1/jobs?namespace=*`)).json()) as { ID: string }[];
    expect(jobs.map((j) => j.ID)).toEqual(["only-job"]);
    bin.child.kill("SIGINT");
    expect((await bin.exit).code).toBe(0);

    const bad = run(["--port", "0", "--ops-port", "0", "--data", tempFile("bad.json", JSON.stringify({ jobs: [{ ID: 7 }] }))]);
    expect((await bad.exit).code).toBe(1);
    expect(bad.output()).toContain("jobs[0].ID");

    // Jobs are read in list order (for the memory layout), but the message names the file's first mistake.
    const twoBad = { jobs: [{ ID: "z-job", Priority: "high" }, { ID: "a-job", Priority: "low" }] };
    const second = run(["--port", "0", "--ops-port", "0", "--data", tempFile("two-bad.json", JSON.stringify(twoBad))]);
    expect((await second.exit).code).toBe(1);
    expect(second.output()).toContain("jobs[0].Priority: expected an integer");
  });

  it("--data takes a bare array of jobs, as GET /v1/jobs answers; a bad record's message names the file and the path", async () => {
    const listed = [
      { ID: "web-1", Namespace: "default", Type: "service", Status: "running", Priority: 50 },
      { ID: "batch-1", Namespace: "prod", Type: "batch", Status: "dead", Priority: 20 },
    ];
    const bin = await start(["--data", tempFile("jobs.json", JSON.stringify(listed))]);
    const jobs = (await (await fetch(`${bin.api}/v1/jobs?namespace=*`)).json()) as { ID: string }[];
    expect(jobs.map((j) => j.ID).sort()).toEqual(["batch-1", "web-1"]);
    const running = (await (await fetch(`${bin.api}/v1/jobs?namespace=*&filter=${encodeURIComponent('Status == "running"')}`)).json()) as { ID: string }[];
    expect(running.map((j) => j.ID)).toEqual(["web-1"]);
    bin.child.kill("SIGTERM");
    expect((await bin.exit).code).toBe(0);

    const file = tempFile("bad-list.json", JSON.stringify([listed[0], { ID: "x", Priority: "high" }]));
    const bad = run(["--port", "0", "--ops-port", "0", "--data", file]);
    expect((await bad.exit).code).toBe(1);
    expect(bad.output()).toContain(`filter-server: data file ${file}: [1].Priority: expected an integer`);
    const inObject = tempFile("bad-object.json", JSON.stringify({ jobs: [{ ID: "y", Stop: "no" }] }));
    const bad2 = run(["--port", "0", "--ops-port", "0", "--data", inObject]);
    expect((await bad2.exit).code).toBe(1);
    expect(bad2.output()).toContain(`filter-server: data file ${inObject}: jobs[0].Stop: expected a boolean`);
  });

  it("graceful shutdown: during the wait /health is 503 while /v1/jobs answers 200; then it exits 0", async () => {
    const bin = await start(["--graceful-shutdown-wait", `${GRACE_S}s`]);
    expect((await fetch(`${bin.ops}/health`)).status).toBe(200);
    const signalled = Date.now();
    bin.child.kill("SIGTERM");
    await until("/health 503 (draining)", async () => (await fetch(`${bin.ops}/health`)).status === 503, 20);
    expect((await fetch(`${bin.api}/v1/jobs?per_page=1`)).status).toBe(200);
    expect((await fetch(`${bin.ops}/health`)).status).toBe(503);
    expect(bin.child.exitCode).toBeNull();
    const { code } = await bin.exit;
    expect(code).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(GRACE_S * 1000 - 100);
    expect(bin.output()).toContain("server stopped");
  });

  it("graceful shutdown from the configuration file (HCL), with its listener addresses", async () => {
    const [apiPort, opsPort] = [await freePort(), await freePort()];
    const config = tempFile(
      "controller.hcl",
      `controller {
  name = "ci-controller"
  database { url = "env://FILTER_SERVER_TEST_DB" }
  graceful_shutdown_wait_duration = "${GRACE_S}s"
}
listener "tcp" {
  address = "127.0.0.1:${apiPort}"
  purpose = "api"
  tls_disable = true
}
listener "tcp" {
  address = "127.0.0.1:${opsPort}"
  purpose = "ops"
  tls_disable = true
}
`,
    );
    process.env["FILTER_SERVER_TEST_DB"] = "postgresql://127.0.0.1/none";
    const bin = run(["--config", config]);
    await until("/health 200 (started)", () => fetch(`http://127.0.0.1:${opsPort}/health`).then((r) => r.status === 200, () => false), 100);
    expect((await fetch(`http://127.0.0.1:${apiPort}/v1/jobs?per_page=1`)).status).toBe(200);
    const signalled = Date.now();
    bin.child.kill("SIGINT");
    // The grace period starts when the signal arrives: /health turns 503 and stays so until the exit.
    await until("/health 503 (draining)", async () => (await fetch(`http://127.0.0.1:${opsPort}/health`)).status === 503, 20);
    expect((await fetch(`http://127.0.0.1:${apiPort}/v1/deployments?per_page=1`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${opsPort}/health`)).status).toBe(503);
    expect((await bin.exit).code).toBe(0);
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(GRACE_S * 1000 - 100);
  });

  it("without a grace period a signal stops it at once, exit 0", async () => {
    const bin = await start(["--shutdown-timeout", "120s"]);
    const t = Date.now();
    bin.child.kill("SIGTERM");
    expect((await bin.exit).code).toBe(0);
    // No grace period, and far below the shutdown timeout (however busy the machine): nothing waited.
    expect(bin.output()).toContain("shutdown signal received; shutting down");
    expect(bin.output()).not.toContain("reporting unhealthy");
    expect(Date.now() - t).toBeLessThan(60_000);
  });

  it("--data-dir: nothing acknowledged is lost when the process is killed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-server-state-"));
    const first = await start(["--data-dir", dir]);
    const demoCount = ((await (await fetch(`${first.api}/v1/jobs?namespace=*`)).json()) as unknown[]).length;
    const acknowledged: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${first.api}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: `kept-${i}`, TaskGroups: [{ Name: "web", Count: 2 }] } }) });
      expect(res.status).toBe(200);
      acknowledged.push(((await res.json()) as { Index: number }).Index);
    }
    first.child.kill("SIGKILL");
    expect((await first.exit).signal).toBe("SIGKILL");

    const second = await start(["--data-dir", dir]);
    const jobs = (await (await fetch(`${second.api}/v1/jobs?namespace=*`)).json()) as { ID: string }[];
    expect(jobs.length).toBe(demoCount + 5);
    for (let i = 0; i < 5; i++) expect(jobs.map((j) => j.ID)).toContain(`kept-${i}`);
    const res = await fetch(`${second.api}/v1/jobs?prefix=kept-`);
    expect(Number(res.headers.get("x-svc-index"))).toBe(acknowledged[4]);
    const deployments = (await (await fetch(`${second.api}/v1/deployments?namespace=*`)).json()) as { JobID: string }[];
    expect(deployments.filter((d) => d.JobID.startsWith("kept-"))).toHaveLength(5);
    // The index goes on from where it was.
    const next = await fetch(`${second.api}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: "after-restart", TaskGroups: [{ Name: "web" }] } }) });
    expect(((await next.json()) as { Index: number }).Index).toBe((acknowledged[4] as number) + 1);
    second.child.kill("SIGTERM");
    expect((await second.exit).code).toBe(0);
  });
});
