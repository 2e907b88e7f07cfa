import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { killAll, run, start } from "./server-process.js";
import { HANG_MS } from "../../test/support/wait.js";

afterEach(killAll);

const get = (url: string, secret?: string) =>
  fetch(url, { headers: secret === undefined ? {} : { authorization: `Bearer ${secret}` }, redirect: "manual", signal: AbortSignal.timeout(HANG_MS) });

describe("filter-server bin: apply resource", () => {
  it("prints a generated token when there is no tokens file, and only that token opens /api/v2", async () => {
    const bin = await start([]);
    const base = bin.api;
    const token = /Authorization: Bearer ([0-9a-f-]{36})/.exec(bin.output())?.[1];
    expect(token, bin.output()).toBeDefined();
    expect(bin.output().split(token!).length - 1).toBe(1);
    expect((await get(`${base}/api/v2/applies/apply-demo-running`, token)).status).toBe(200);
    expect((await get(`${base}/api/v2/applies/apply-demo-running`)).status).toBe(404);
    const redirect = await get(`${base}/api/v2/applies/apply-demo-errored-state/errored-state`, token);
    expect(redirect.status).toBe(307);
    expect((await get(redirect.headers.get("location")!)).status).toBe(200);
    bin.child.kill("SIGTERM");
    expect((await bin.exit).code).toBe(0);
  });

  it("serves the applies of --data with the tokens of --acl-tokens", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runs-bin-"));
    const tokens = join(dir, "tokens.json");
    const data = join(dir, "data.json");
    writeFileSync(tokens, JSON.stringify([{ SecretID: "reader", Capabilities: ["apply:read", "state:read"] }]));
    writeFileSync(data, JSON.stringify({ applies: [{ id: "apply-cli", status: "errored", mode: "agent", erroredState: "raw-bytes" }] }));
    const bin = await start(["--acl-tokens", tokens, "--data", data]);
    const base = bin.api;
    expect(bin.output()).not.toContain("generated a token");
    const doc = (await (await get(`${base}/api/v2/applies/apply-cli`, "reader")).json()) as any;
    expect(doc.data.attributes.status).toBe("errored");
    expect(doc.data.attributes["execution-details"].mode).toBe("agent");
    const location = (await get(`${base}/api/v2/applies/apply-cli/errored-state`, "reader")).headers.get("location")!;
    expect(await (await get(location)).text()).toBe("raw-bytes");
    expect((await get(`${base}/api/v2/applies/apply-demo-finished`, "reader")).status).toBe(404);
    bin.child.kill("SIGTERM");
    expect((await bin.exit).code).toBe(0);
  });

  it("refuses to start on invalid applies in --data, naming the entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runs-bin-"));
    const data = join(dir, "data.json");
    writeFileSync(data, JSON.stringify({ applies: [{ id: "apply-1", status: "finished", mode: "local", erroredState: false }] }));
    const bin = run(["--port", "0", "--ops-port", "0", "--data", data]);
    expect((await bin.exit).code).toBe(1);
    expect(bin.output()).toContain(`data file: applies[0]: mode must be "remote" or "agent", got "local"`);
  });
});
