import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const children: ChildProcessWithoutNullStreams[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

interface Bin {
  child: ChildProcessWithoutNullStreams;
  output: () => string;
  exit: Promise<number | null>;
}

function run(args: string[]): Bin {
  const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts", "--port", "0", "--ops-port", "0", ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1" },
  });
  children.push(child);
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, output: () => output, exit };
}

/** The API listener's base URL, once the bin says it listens. */
async function listening(bin: Bin): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const match = /API listener at (http:\/\/127\.0\.0\.1:\d+)/.exec(bin.output());
    if (match?.[1] !== undefined) return match[1];
    if (bin.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the server did not start:\n${bin.output()}`);
}

const get = (url: string, secret?: string) =>
  fetch(url, { headers: secret === undefined ? {} : { authorization: `Bearer ${secret}` }, redirect: "manual", signal: AbortSignal.timeout(5000) });

describe("filter-server bin: apply resource", () => {
  it("prints a generated token when there is no tokens file, and only that token opens /api/v2", async () => {
    const bin = run([]);
    const base = await listening(bin);
    const token = /Authorization: Bearer ([0-9a-f-]{36})/.exec(bin.output())?.[1];
    expect(token, bin.output()).toBeDefined();
    expect(bin.output().split(token!).length - 1).toBe(1);
    expect((await get(`${base}/api/v2/applies/apply-demo-running`, token)).status).toBe(200);
    expect((await get(`${base}/api/v2/applies/apply-demo-running`)).status).toBe(404);
    const redirect = await get(`${base}/api/v2/applies/apply-demo-errored-state/errored-state`, token);
    expect(redirect.status).toBe(307);
    expect((await get(redirect.headers.get("location")!)).status).toBe(200);
    bin.child.kill("SIGTERM");
    expect(await bin.exit).toBe(0);
  });

  it("serves the applies of --data with the tokens of --acl-tokens", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runs-bin-"));
    const tokens = join(dir, "tokens.json");
    const data = join(dir, "data.json");
    writeFileSync(tokens, JSON.stringify([{ SecretID: "reader", Capabilities: ["apply:read", "state:read"] }]));
    writeFileSync(data, JSON.stringify({ applies: [{ id: "apply-cli", status: "errored", mode: "agent", erroredState: "raw-bytes" }] }));
    const bin = run(["--acl-tokens", tokens, "--data", data]);
    const base = await listening(bin);
    expect(bin.output()).not.toContain("generated a token");
    const doc = (await (await get(`${base}/api/v2/applies/apply-cli`, "reader")).json()) as any;
    expect(doc.data.attributes.status).toBe("errored");
    expect(doc.data.attributes["execution-details"].mode).toBe("agent");
    const location = (await get(`${base}/api/v2/applies/apply-cli/errored-state`, "reader")).headers.get("location")!;
    expect(await (await get(location)).text()).toBe("raw-bytes");
    expect((await get(`${base}/api/v2/applies/apply-demo-finished`, "reader")).status).toBe(404);
    bin.child.kill("SIGTERM");
    expect(await bin.exit).toBe(0);
  });

  it("refuses to start on invalid applies in --data, naming the entry", async () => {
    const dir = mkdtempSync(join(tmpdir(), "runs-bin-"));
    const data = join(dir, "data.json");
    writeFileSync(data, JSON.stringify({ applies: [{ id: "apply-1", status: "finished", mode: "local", erroredState: false }] }));
    const bin = run(["--data", data]);
    expect(await bin.exit).toBe(1);
    expect(bin.output()).toContain(`data file: applies[0]: mode must be "remote" or "agent", got "local"`);
  });
});
