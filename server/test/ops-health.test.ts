import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import { ConfigError, configOptions, interpretConfig, loadConfigFile } from "../src/ops/config.js";
import { parseDuration } from "../src/ops/duration.js";
import { startServer } from "../src/ops/start.js";
import { HANG_MS, until } from "../../test/support/wait.js";

const quiet = { ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error" as const };

describe("GET /health on the ops listener", () => {
  it("is 200 with an empty body while the API listener is up, 503 once it is not", async () => {
    const server = await startServer(quiet);
    try {
      const ok = await fetch(`${server.opsUrl}/health`);
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe("");
      expect(ok.headers.get("content-type")).toBeNull();
      expect((await fetch(`${server.opsUrl}/health`, { method: "POST" })).status).toBe(405);
      expect((await fetch(`${server.opsUrl}/nope`)).status).toBe(404);
      await server.app.close();
      const down = await fetch(`${server.opsUrl}/health`);
      expect(down.status).toBe(503);
      expect(await down.text()).toBe("");
    } finally {
      await server.lifecycle.shutdown();
    }
  });

  it("answers worker information with worker_info=1", async () => {
    const server = await startServer(quiet);
    try {
      const res = await fetch(`${server.opsUrl}/health?worker_info=1`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { worker_process_info: Record<string, unknown> };
      expect(Object.keys(body)).toEqual(["worker_process_info"]);
      expect(body.worker_process_info).toMatchObject({ state: "active", upstream_connection_state: "READY" });
      expect(body.worker_process_info["active_session_count"]).toEqual(expect.any(Number));
      // Without worker_info the controller's answer has an empty body.
      expect(await (await fetch(`${server.opsUrl}/health?worker_info=0`)).text()).toBe("");
    } finally {
      await server.lifecycle.shutdown();
    }
  });

  it("reports 503 and a shutting-down worker during the grace period while the API still serves", async () => {
    const server = await startServer({ ...quiet, gracefulShutdownWaitMs: 60_000 });
    try {
      server.lifecycle.signal("SIGTERM");
      expect(server.lifecycle.phase).toBe("draining");
      const health = await fetch(`${server.opsUrl}/health?worker_info=1`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ worker_process_info: { state: "shutdown", upstream_connection_state: "SHUTDOWN" } });
      expect((await fetch(`${server.apiUrl}/v1/jobs?per_page=1`)).status).toBe(200);
    } finally {
      await server.lifecycle.shutdown();
    }
    expect(server.lifecycle.phase).toBe("stopped");
  });

  it("answers a blocking query that is waiting when the server stops, instead of cutting it off", async () => {
    const server = await startServer(quiet);
    const index = (await fetch(`${server.apiUrl}/v1/jobs`)).headers.get("x-svc-index");
    // A wait as long as the hang guard: an answer before it is one the stop gave.
    const waiting = fetch(`${server.apiUrl}/v1/jobs?index=${index}&wait=${HANG_MS / 1000}s&per_page=1`);
    await until("the query waiting", () => server.state.waiting > 0, 20);
    const t = Date.now();
    await server.lifecycle.shutdown();
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(1);
    expect(Date.now() - t).toBeLessThan(HANG_MS);
  });
});

describe("configuration file", () => {
  const HCL = `
controller {
  name = "demo-controller"
  description = "A controller"
  database {
    url = "env://FILTER_SERVER_DB_URL"
  }
  graceful_shutdown_wait_duration = "5s"
}

listener "tcp" {
  address = "127.0.0.1:4747"
  purpose = "api"
  tls_disable = true
}

listener "tcp" {
  address = "127.0.0.1:9303"
  purpose = "ops"
  tls_disable = true
}
`;

  function file(name: string, text: string): string {
    const dir = mkdtempSync(join(tmpdir(), "filter-server-config-"));
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  }

  it("reads the seed's HCL: controller name, database env reference, grace period, api and ops listeners", async () => {
    const config = await loadConfigFile(file("controller.hcl", HCL), { FILTER_SERVER_DB_URL: "postgresql://db.internal/gateway" });
    expect(config.controller).toEqual({ name: "demo-controller", description: "A controller", databaseUrl: "postgresql://db.internal/gateway", gracefulShutdownWaitMs: 5000 });
    expect(configOptions(config)).toEqual({ nodeName: "demo-controller", gracefulShutdownWaitMs: 5000, bind: "127.0.0.1", port: 4747, opsBind: "127.0.0.1", opsPort: 9303 });
  });

  it("reads JSON of the same shape", async () => {
    const json = {
      controller: { name: "c", database: { url: "postgresql://x" }, graceful_shutdown_wait_duration: "1m30s" },
      listener: [{ tcp: { purpose: "api", tls_disable: true, address: "0.0.0.0:4646" } }, { tcp: { purpose: "ops", tls_disable: true } }],
      worker: { name: "w" },
    };
    const config = await loadConfigFile(file("c.json", JSON.stringify(json)), {});
    expect(config.controller.gracefulShutdownWaitMs).toBe(90_000);
    expect(config.worker).toEqual({ name: "w" });
    expect(configOptions(config)).toMatchObject({ bind: "0.0.0.0", port: 4646, worker: true });
  });

  it.each([
    [{ listener: [] }, "a controller block is required"],
    [{ controller: { name: "c" }, listener: { tcp: [{ purpose: "api", tls_disable: true }] } }, 'a listener with purpose "ops" is required'],
    [{ controller: { name: "c" }, listener: { tcp: [{ purpose: "api" }, { purpose: "ops", tls_disable: true }] } }, "set tls_disable = true"],
    [{ controller: { name: "c", graceful_shutdown_wait_duration: "soon" }, listener: [] }, "graceful_shutdown_wait_duration"],
    [{ controller: { name: "c", database: { url: "env://MISSING_VAR" } }, listener: [] }, "MISSING_VAR is not set"],
    [{ controller: { name: "c" }, listener: { tcp: [{ purpose: "cluster", tls_disable: true }] } }, 'unsupported purpose "cluster"'],
  ])("rejects a configuration that cannot work %#", async (raw, message) => {
    await expect(interpretConfig(raw, {})).rejects.toThrow(ConfigError);
    await expect(interpretConfig(raw, {})).rejects.toThrow(message);
  });

  it("reports HCL syntax errors with the file and position", async () => {
    const path = file("bad.hcl", "controller {\n  name = \n}\n");
    await expect(loadConfigFile(path, {})).rejects.toThrow(/bad\.hcl.*2,/);
  });
});

describe("durations", () => {
  it.each([
    ["5s", 5000],
    ["1m30s", 90_000],
    ["250ms", 250],
    ["1.5h", 5_400_000],
    ["0", 0],
    ["-2s", -2000],
    ["10", undefined],
    ["60foo", undefined],
    ["", undefined],
  ])("%s", (text, ms) => expect(parseDuration(text)).toBe(ms));
});
