/**
 * `--api-headers svc|nomad` over real HTTP on 127.0.0.1 (server/docs/server.md, "Header dialects"):
 * in each dialect the list answers, the registration, blocking queries, the event stream and the ACL
 * token use that dialect's names and never the other's; the other dialect's token header is a 400
 * naming the header to send; error answers carry no meta headers. The names are written out here, as
 * the docs give them, not taken from the server's module.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS, type ServerOptions } from "../src/context.js";
import { startServer, type RunningServer } from "../src/ops/start.js";
import { parseCommandLine, resolveOptions, UsageError } from "../src/options.js";
import { configOptions, interpretConfig } from "../src/ops/config.js";
import { uiRoutes } from "../src/ui/index.js";
import { send, Stream } from "./support/event-streams.js";
import { until } from "../../test/support/wait.js";

const DIALECTS = {
  svc: { index: "x-svc-index", nextToken: "x-svc-nexttoken", lastContact: "x-svc-lastcontact", knownLeader: "x-svc-knownleader", token: "X-Svc-Token", eventGap: "x-svc-event-gap" },
  nomad: { index: "x-nomad-index", nextToken: "x-nomad-nexttoken", lastContact: "x-nomad-lastcontact", knownLeader: "x-nomad-knownleader", token: "X-Nomad-Token", eventGap: "x-nomad-event-gap" },
} as const;
type Dialect = keyof typeof DIALECTS;
const other = (d: Dialect): Dialect => (d === "svc" ? "nomad" : "svc");

const TOKENS = [
  { SecretID: "root-secret", Name: "root", Management: true, Capabilities: [] },
  { SecretID: "reader-secret", Name: "reader", Capabilities: ["job:read"] },
  { SecretID: "apply-secret", Name: "applies", Capabilities: ["apply:read"] },
];
const JOBS = ["a", "b", "c", "d", "e"].map((id, i) => ({ ID: id, Name: id, Namespace: "default", Type: "service", Status: "running", CreateIndex: 10 + i, ModifyIndex: 10 + i, JobModifyIndex: 10 + i }));

const servers: RunningServer[] = [];
async function start(options: Partial<ServerOptions>): Promise<{ base: string; server: RunningServer }> {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-headers-"));
  const dataFile = join(dir, "data.json");
  writeFileSync(dataFile, JSON.stringify({ jobs: JOBS, deployments: [] }));
  const aclTokensFile = join(dir, "tokens.json");
  writeFileSync(aclTokensFile, JSON.stringify(TOKENS));
  const server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, dataFile, aclTokensFile, logLevel: "error", ...options });
  servers.push(server);
  return { base: server.apiUrl, server };
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.lifecycle.shutdown()));
});

/** The header names of `res` that belong to a dialect (X-Svc-*, X-Nomad-*). */
function metaNames(headers: Headers | Record<string, unknown>): string[] {
  const names: string[] = [];
  if (headers instanceof Headers) headers.forEach((_, name) => names.push(name));
  else names.push(...Object.keys(headers));
  return names.map((n) => n.toLowerCase()).filter((n) => n.startsWith("x-svc-") || n.startsWith("x-nomad-")).sort();
}

describe.each(["svc", "nomad"] as const)("--api-headers %s", (dialect) => {
  const names = DIALECTS[dialect];
  const foreign = DIALECTS[other(dialect)];
  const auth = { [names.token]: "root-secret" };
  let base = "";
  const ready = (async () => (base = (await start({ apiHeaders: dialect, eventBuffer: 2, eventHeartbeatMs: 60_000 })).base))();

  it("a list answers its index, leader and next token under the dialect's names; a walk by them reaches the end", async () => {
    await ready;
    const seen: string[] = [];
    let token: string | null = "";
    let pages = 0;
    while (token !== null) {
      const res: Response = await fetch(`${base}/v1/jobs?per_page=2&next_token=${encodeURIComponent(token)}`, { headers: auth });
      expect(res.status, await res.clone().text()).toBe(200);
      seen.push(...((await res.json()) as { ID: string }[]).map((j) => j.ID));
      // The highest ModifyIndex of the data file's jobs.
      expect(res.headers.get(names.index)).toBe("14");
      expect(res.headers.get(names.knownLeader)).toBe("true");
      expect(res.headers.get(names.lastContact)).toBe("0");
      token = res.headers.get(names.nextToken);
      expect(metaNames(res.headers)).toEqual([names.index, names.knownLeader, names.lastContact, ...(token === null ? [] : [names.nextToken])].sort());
      pages++;
    }
    expect(seen).toEqual(["a", "b", "c", "d", "e"]);
    expect(pages).toBe(3);
  });

  it("the dialect's token header authenticates (Authorization: Bearer too); none is 403", async () => {
    await ready;
    expect((await fetch(`${base}/v1/jobs`, { headers: { [names.token]: "reader-secret" } })).status).toBe(200);
    expect((await fetch(`${base}/v1/jobs`, { headers: { Authorization: "Bearer reader-secret" } })).status).toBe(200);
    // The dialect's header wins over Authorization, as the scheduler reads them.
    expect((await fetch(`${base}/v1/jobs`, { headers: { [names.token]: "nope", Authorization: "Bearer reader-secret" } })).status).toBe(403);
    const none = await fetch(`${base}/v1/jobs`);
    expect(none.status).toBe(403);
    expect(await none.text()).toBe("Permission denied");
    expect(metaNames(none.headers)).toEqual([]);
  });

  it("the other dialect's token header is a 400 naming the header to send, even beside a valid token, on every route", async () => {
    await ready;
    const message = `${foreign.token} is not read by this server, whose headers are ${dialect === "nomad" ? "the scheduler's" : "the seed's"} (--api-headers ${dialect}): send the token as ${names.token} or Authorization: Bearer`;
    for (const headers of [{ [foreign.token]: "root-secret" }, { [foreign.token]: "root-secret", Authorization: "Bearer reader-secret" }, { [foreign.token]: "nope", [names.token]: "root-secret" }]) {
      for (const path of ["/v1/jobs", "/v1/deployments", "/v1/agent/self", "/v1/metrics", "/v1/event/stream"]) {
        const res = await fetch(`${base}${path}`, { headers });
        expect(res.status, path).toBe(400);
        expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
        expect(await res.text()).toBe(message);
        expect(metaNames(res.headers)).toEqual([]);
      }
    }
    const put = await fetch(`${base}/v1/jobs`, { method: "PUT", headers: { [foreign.token]: "root-secret" }, body: JSON.stringify({ Job: { ID: "x", TaskGroups: [{ Name: "g", Count: 1 }] } }) });
    expect(put.status).toBe(400);
    // The apply resource answers in JSON:API.
    const apply = await fetch(`${base}/api/v2/applies/apply-demo-finished`, { headers: { [foreign.token]: "apply-secret" } });
    expect(apply.status).toBe(400);
    expect(apply.headers.get("content-type")).toBe("application/vnd.api+json");
    expect(await apply.json()).toEqual({ errors: [{ status: "400", title: "Bad Request", detail: message }] });
    // Its own header reads there as on the scheduler's routes.
    expect((await fetch(`${base}/api/v2/applies/apply-demo-finished`, { headers: { [names.token]: "apply-secret" } })).status).toBe(200);
    // An empty one carries no token: nothing to refuse.
    expect((await fetch(`${base}/v1/jobs`, { headers: { [foreign.token]: "", [names.token]: "reader-secret" } })).status).toBe(200);
  });

  it("errors carry no meta headers of either dialect", async () => {
    await ready;
    for (const path of ["/v1/jobs?filter=nope%20%3D%3D", "/v1/jobs?per_page=x", "/v1/jobs?region=elsewhere"]) {
      const res = await fetch(`${base}${path}`, { headers: auth });
      expect(res.status, path).toBe(400);
      expect(metaNames(res.headers), path).toEqual([]);
    }
  });

  it("a blocking query at the current index waits for a registration and answers its index under the dialect's name", async () => {
    const { base: own, server } = await start({ apiHeaders: dialect });
    const first = await fetch(`${own}/v1/jobs`, { headers: auth });
    const index = Number(first.headers.get(names.index));
    const before = server.state.waiting;
    const waiting = fetch(`${own}/v1/jobs?index=${index}&wait=5m`, { headers: auth });
    await until("the blocking query waiting", () => server.state.waiting > before, 10);
    const put = await fetch(`${own}/v1/jobs`, { method: "PUT", headers: auth, body: JSON.stringify({ Job: { ID: "fresh", TaskGroups: [{ Name: "g", Count: 1 }] } }) });
    expect(put.status).toBe(200);
    const written = Number(put.headers.get(names.index));
    expect(written).toBeGreaterThan(index);
    expect(((await put.json()) as { Index: number }).Index).toBe(written);
    expect(metaNames(put.headers)).toEqual([names.index, names.knownLeader, names.lastContact].sort());
    const woken = await waiting;
    expect(woken.status).toBe(200);
    expect(Number(woken.headers.get(names.index))).toBe(written);
    expect(((await woken.json()) as { ID: string }[]).map((j) => j.ID)).toContain("fresh");
  });

  it("the event stream answers its index, and a resumption's gap, under the dialect's names", async () => {
    await ready;
    // Three writes past a buffer of two: a stream resuming from index 1 misses the first.
    for (const id of ["s1", "s2", "s3"]) {
      const put = await fetch(`${base}/v1/jobs`, { method: "PUT", headers: auth, body: JSON.stringify({ Job: { ID: id, TaskGroups: [{ Name: "g", Count: 1 }] } }) });
      expect(put.status).toBe(200);
    }
    const index = Number((await fetch(`${base}/v1/jobs`, { headers: auth })).headers.get(names.index));
    const stream = await Stream.open(base, "/v1/event/stream?index=1&topic=Job", auth);
    try {
      expect(stream.res.statusCode).toBe(200);
      expect(stream.res.headers[names.index]).toBe(String(index));
      expect(stream.res.headers[names.eventGap]).toMatch(/^2-\d+$/);
      expect(metaNames(stream.res.headers)).toEqual([names.eventGap, names.index].sort());
      await stream.reached(index);
    } finally {
      stream.destroy();
    }
    const refused = await send(base, "GET", "/v1/event/stream", undefined, { [foreign.token]: "root-secret" });
    expect(refused.status).toBe(400);
  });

  it("the playground's page is told the dialect", async () => {
    const app = Fastify();
    const html = (content: string) => Buffer.from(`<head><title>t</title><meta name="filter-server-api-headers" content="${content}"></head>`);
    const assets = new Map([["index.html", { path: "index.html", body: html("svc"), contentType: "text/html; charset=utf-8", immutable: false }]]);
    await app.register(uiRoutes(async () => assets, dialect), { prefix: "/ui" });
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const page = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/ui/`);
      expect(Buffer.from(await page.arrayBuffer()).equals(html(dialect))).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe("choosing the dialect", () => {
  it("--api-headers takes svc or nomad; the default is svc", () => {
    expect(parseCommandLine(["--api-headers", "nomad"]).given.apiHeaders).toBe("nomad");
    expect(parseCommandLine(["--api-headers", "svc"]).given.apiHeaders).toBe("svc");
    expect(() => parseCommandLine(["--api-headers", "Nomad"])).toThrow(new UsageError('--api-headers: expected svc or nomad, got "Nomad"'));
    expect(resolveOptions({}, {}, {}).apiHeaders).toBe("svc");
  });

  it("the configuration file's server { api_headers } sets it, and the command line wins", async () => {
    const raw = (apiHeaders: unknown) => ({
      controller: { name: "c" },
      server: { api_headers: apiHeaders },
      listener: [{ type: "tcp", purpose: "api", tls_disable: true }, { type: "tcp", purpose: "ops", tls_disable: true }],
    });
    const fromConfig = configOptions(await interpretConfig(raw("nomad"), {}));
    expect(fromConfig.apiHeaders).toBe("nomad");
    expect(resolveOptions({}, fromConfig, {}).apiHeaders).toBe("nomad");
    expect(resolveOptions({ apiHeaders: "svc" }, fromConfig, {}).apiHeaders).toBe("svc");
    await expect(interpretConfig(raw("x-nomad"), {})).rejects.toThrow('server.api_headers: expected "svc" or "nomad", got "x-nomad"');
    await expect(interpretConfig(raw(true), {})).rejects.toThrow('server.api_headers: expected "svc" or "nomad", got true');
  });
});
