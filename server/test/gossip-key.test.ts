import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, run, start, stop } from "./server-process.js";
import { until } from "../../test/support/wait.js";

// The gossip key of real server processes: --encrypt, FILTER_SERVER_ENCRYPT, or `server { encrypt }`
// in the configuration file. Everything listens on 127.0.0.1.

afterAll(killAll);

const KEY = Buffer.alloc(32, 42).toString("base64");

describe.concurrent("the gossip key of the bin", () => {
  it("two servers given the same key, one by --encrypt and one by its configuration file, join", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filter-server-key-"));
    const data = join(dir, "data.json");
    writeFileSync(data, JSON.stringify({ jobs: [], deployments: [] }));
    const config = join(dir, "beta.json");
    writeFileSync(
      config,
      JSON.stringify({
        controller: { name: "beta" },
        listener: [
          { type: "tcp", purpose: "api", tls_disable: true },
          { type: "tcp", purpose: "ops", tls_disable: true },
        ],
        server: { encrypt: KEY },
      }),
    );
    const [alpha, beta] = await Promise.all([
      start(["--data", data, "--node-name", "alpha", "--encrypt", KEY]),
      start(["--data", data, "--config", config]),
    ]);
    const address = beta.api.replace(/^http:\/\//, "");
    // The bin's probe timeout (500 ms, not an option) may pass on a busy machine: a join that timed out
    // is tried again; any other answer is the verdict.
    let joined: { error: string; num_joined: number } | undefined;
    await until("a join that did not time out", async () => {
      joined = (await (await fetch(`${alpha.api}/v1/agent/join?address=${address}`, { method: "POST" })).json()) as { error: string; num_joined: number };
      return !joined.error.includes("i/o timeout");
    }, 100);
    expect(joined).toEqual({ error: "", num_joined: 1 });
    const names = ((await (await fetch(`${beta.api}/v1/agent/members`)).json()) as { Members: { Name: string }[] }).Members.map((m) => m.Name);
    expect(names).toEqual(["alpha.global", "beta.global"]);
    await Promise.all([stop(alpha), stop(beta)]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("a key that is not base64 of 16, 24 or 32 bytes is a usage error (exit 2)", async () => {
    const bad = run(["--encrypt", Buffer.alloc(10).toString("base64")]);
    expect((await bad.exit).code).toBe(2);
    expect(bad.output()).toContain("--encrypt: the gossip key must be 16, 24 or 32 bytes, got 10");
  });
});
