import type { FastifyInstance } from "fastify";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TokenAcl } from "../src/acl.js";
import { buildApp } from "../src/app.js";
import { type AclToken, DEFAULT_OPTIONS, newLogEvents, type ServerContext } from "../src/context.js";
import { configureRuns, generatedApplyToken, STATE_URL_TTL_MS } from "../src/runs/index.js";
import { MemoryStore } from "../src/store/memory/index.js";
import { SchedulerState } from "../src/store/memory/state.js";
import { HANG_MS } from "../../test/support/wait.js";
import { snapshotOf } from "../src/lists/records.js";

const JSONAPI = "application/vnd.api+json";
const STATUSES = ["pending", "managed_queued", "queued", "running", "errored", "canceled", "finished", "unreachable"];
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

const DEMO_IDS = [
  "apply-demo-pending",
  "apply-demo-managed-queued",
  "apply-demo-queued",
  "apply-demo-running",
  "apply-demo-errored",
  "apply-demo-errored-state",
  "apply-demo-errored-state-remote",
  "apply-demo-canceled",
  "apply-demo-finished",
  "apply-demo-finished-agent",
  "apply-demo-unreachable",
];

class TestClock {
  t = Date.UTC(2030, 0, 1, 12, 0, 0);
  now(): number {
    return this.t;
  }
}

interface Server {
  base: string;
  ctx: ServerContext;
  clock: TestClock;
  announced: string[];
  app: FastifyInstance;
}

function context(tokens: AclToken[] | undefined, data?: unknown): ServerContext {
  return {
    options: { ...DEFAULT_OPTIONS, port: 0, logLevel: "error" },
    acl: new TokenAcl(tokens),
    version: { Version: "0.1.0", VersionPrerelease: "" },
    startedAt: new Date(),
    logEvents: newLogEvents(),
    data,
  };
}

/** The real app (with the apply resource at /api/v2) on a real loopback listener. */
async function start(tokens: AclToken[] | undefined, data?: unknown): Promise<Server> {
  const ctx = context(tokens, data);
  const clock = new TestClock();
  const announced: string[] = [];
  configureRuns(ctx, { clock, announce: (line) => announced.push(line) });
  const app = await buildApp(ctx, { scheduler: new MemoryStore(new SchedulerState(snapshotOf({}))) });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, ctx, clock, announced, app };
}

function bearer(secret: string | undefined): Record<string, string> {
  return secret === undefined ? {} : { authorization: `Bearer ${secret}` };
}

async function get(url: string, secret?: string, extra: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { headers: { ...bearer(secret), ...extra }, redirect: "manual", signal: AbortSignal.timeout(HANG_MS) });
}

async function expectJsonApi404(res: Response): Promise<void> {
  expect(res.status).toBe(404);
  expect(res.headers.get("content-type")).toBe(JSONAPI);
  expect(await res.json()).toEqual({ errors: [{ status: "404", title: "not found" }] });
}

const TOKENS: AclToken[] = [
  { SecretID: "full", Capabilities: ["apply:read", "state:read"] },
  { SecretID: "apply-only", Capabilities: ["apply:read"] },
  { SecretID: "state-only", Capabilities: ["state:read"] },
  { SecretID: "unrelated", Capabilities: ["job:read", "agent:read"] },
  { SecretID: "root", Management: true, Capabilities: [] },
];

describe("apply resource with an ACL tokens file", () => {
  let s: Server;
  beforeAll(async () => {
    s = await start(TOKENS);
  });
  afterAll(async () => {
    await s.app.close();
  });

  it("shows every demo apply as a JSON:API document with every field of the seed", async () => {
    const statuses = new Set<string>();
    for (const id of DEMO_IDS) {
      const res = await get(`${s.base}/api/v2/applies/${id}`, "full", { "content-type": JSONAPI });
      expect(res.status, id).toBe(200);
      expect(res.headers.get("content-type")).toBe(JSONAPI);
      const { data } = (await res.json()) as { data: any };
      expect(data.id).toBe(id);
      expect(data.type).toBe("applies");
      expect(data.links).toEqual({ self: `/api/v2/applies/${id}` });
      const a = data.attributes;
      expect(STATUSES).toContain(a.status);
      statuses.add(a.status);
      const mode = a["execution-details"].mode;
      if (mode === "agent") {
        expect(Object.keys(a["execution-details"]).sort()).toEqual(
          ["agent-id", "agent-name", "agent-pool-id", "agent-pool-name", "mode"],
        );
        for (const v of Object.values(a["execution-details"])) expect(typeof v === "string" && v !== "").toBe(true);
      } else {
        expect(a["execution-details"]).toEqual({ mode: "remote" });
      }
      for (const [key, value] of Object.entries(a["status-timestamps"])) {
        expect(["queued-at", "started-at", "finished-at"]).toContain(key);
        expect(value).toMatch(TIMESTAMP);
      }
      if (a.status === "finished") expect(Object.keys(a["status-timestamps"]).sort()).toEqual(["finished-at", "queued-at", "started-at"]);
      for (const key of ["resource-additions", "resource-changes", "resource-destructions", "resource-imports"]) {
        expect(Number.isInteger(a[key]) && a[key] >= 0, key).toBe(true);
      }
      expect(a["log-read-url"]).toMatch(new RegExp(`^${s.base}/api/v2/`));
      expect(Array.isArray(data.relationships["state-versions"].data)).toBe(true);
      for (const sv of data.relationships["state-versions"].data) {
        expect(sv.type).toBe("state-versions");
        expect(typeof sv.id).toBe("string");
      }
    }
    expect([...statuses].sort()).toEqual([...STATUSES].sort());
  });

  it("has execution details for both modes and state versions on a finished apply", async () => {
    const remote = (await (await get(`${s.base}/api/v2/applies/apply-demo-finished`, "full")).json()) as any;
    const agent = (await (await get(`${s.base}/api/v2/applies/apply-demo-finished-agent`, "full")).json()) as any;
    expect(remote.data.attributes["execution-details"]).toEqual({ mode: "remote" });
    expect(agent.data.attributes["execution-details"].mode).toBe("agent");
    expect(agent.data.attributes["execution-details"]["agent-pool-id"]).toMatch(/^apool-/);
    expect(remote.data.relationships["state-versions"].data).toHaveLength(1);
    expect(remote.data.relationships["state-versions"].data[0].id).toMatch(/^sv-/);
  });

  it("serves the log at the log read URL", async () => {
    const doc = (await (await get(`${s.base}/api/v2/applies/apply-demo-finished`, "full")).json()) as any;
    const a = doc.data.attributes;
    const log = await get(a["log-read-url"]);
    expect(log.status).toBe(200);
    expect(log.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await log.text();
    expect(text).toContain(
      `Apply complete! Resources: ${a["resource-additions"]} added, ${a["resource-changes"]} changed, ${a["resource-destructions"]} destroyed.`,
    );
    // The log URL grants the log only: its signature does not open the errored state.
    const swapped = a["log-read-url"].replace("/log?", "/errored-state?");
    expect((await get(swapped)).status).toBe(403);
  });

  it("answers 404 with a JSON:API error for unknown applies and for tokens without apply:read", async () => {
    await expectJsonApi404(await get(`${s.base}/api/v2/applies/apply-nope`, "full"));
    await expectJsonApi404(await get(`${s.base}/api/v2/applies/apply-demo-finished`));
    await expectJsonApi404(await get(`${s.base}/api/v2/applies/apply-demo-finished`, "wrong-secret"));
    await expectJsonApi404(await get(`${s.base}/api/v2/applies/apply-demo-finished`, "unrelated"));
    await expectJsonApi404(await get(`${s.base}/api/v2/applies/apply-demo-finished`, "state-only"));
    expect((await get(`${s.base}/api/v2/applies/apply-demo-finished`, "apply-only")).status).toBe(200);
    expect((await get(`${s.base}/api/v2/applies/apply-demo-finished`, "root")).status).toBe(200);
    expect((await get(`${s.base}/api/v2/applies/apply-demo-finished`, undefined, { "x-svc-token": "full" })).status).toBe(200);
    // No endpoint lists applies.
    await expectJsonApi404(await get(`${s.base}/api/v2/applies`, "full"));
  });

  it("redirects errored-state with 307 to a unique signed storage URL that serves the state", async () => {
    const first = await get(`${s.base}/api/v2/applies/apply-demo-errored-state/errored-state`, "full");
    const second = await get(`${s.base}/api/v2/applies/apply-demo-errored-state/errored-state`, "full");
    expect(first.status).toBe(307);
    expect(second.status).toBe(307);
    const a = first.headers.get("location");
    const b = second.headers.get("location");
    expect(a).toMatch(new RegExp(`^${s.base}/api/v2/storage/`));
    expect(new URL(a!).searchParams.get("signature")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    for (const url of [a!, b!]) {
      const res = await get(url);
      expect(res.status).toBe(200);
      const state = JSON.parse(await res.text());
      expect(state.version).toBe(4);
      expect(Array.isArray(state.resources)).toBe(true);
    }
    // Following the redirect the way a client does.
    const followed = await fetch(`${s.base}/api/v2/applies/apply-demo-errored-state-remote/errored-state`, {
      headers: bearer("full"),
      signal: AbortSignal.timeout(HANG_MS),
    });
    expect(followed.status).toBe(200);
    expect(followed.redirected).toBe(true);
  });

  it("honours the storage URL for one minute and refuses it after", async () => {
    const res = await get(`${s.base}/api/v2/applies/apply-demo-errored-state/errored-state`, "full");
    const url = res.headers.get("location")!;
    const issued = s.clock.t;
    try {
      s.clock.t = issued + STATE_URL_TTL_MS - 1;
      expect((await get(url)).status).toBe(200);
      s.clock.t = issued + STATE_URL_TTL_MS;
      const expired = await get(url);
      expect(expired.status).toBe(403);
      expect(expired.headers.get("content-type")).toBe(JSONAPI);
      expect(((await expired.json()) as any).errors[0].detail).toMatch(/expired/);
      // A URL issued now has its own window.
      const fresh = (await get(`${s.base}/api/v2/applies/apply-demo-errored-state/errored-state`, "full")).headers.get("location")!;
      expect((await get(fresh)).status).toBe(200);
    } finally {
      s.clock.t = issued;
    }
  });

  it("refuses tampered storage URLs", async () => {
    const url = new URL((await get(`${s.base}/api/v2/applies/apply-demo-errored-state/errored-state`, "full")).headers.get("location")!);
    const variants: URL[] = [];
    const sig = url.searchParams.get("signature")!;
    for (const i of [0, sig.length - 1]) {
      const v = new URL(url);
      const c = sig[i] === "A" ? "B" : "A";
      v.searchParams.set("signature", sig.slice(0, i) + c + sig.slice(i + 1));
      variants.push(v);
    }
    const later = new URL(url);
    later.searchParams.set("expires", String(Number(url.searchParams.get("expires")) + 3_600_000));
    variants.push(later);
    const otherNonce = new URL(url);
    otherNonce.searchParams.set("nonce", "A".repeat(22));
    variants.push(otherNonce);
    const unsigned = new URL(url);
    unsigned.searchParams.delete("signature");
    variants.push(unsigned);
    // The same signature on another apply's state.
    variants.push(new URL(url.href.replace("apply-demo-errored-state/", "apply-demo-errored-state-remote/")));
    for (const v of variants) {
      const res = await get(v.href);
      expect(res.status, v.href).toBe(403);
      expect(((await res.json()) as any).errors[0].status).toBe("403");
    }
    expect((await get(url.href)).status).toBe(200);
  });

  it("answers 404 for errored-state when unknown, without errored state, or without state:read", async () => {
    const path = (id: string) => `${s.base}/api/v2/applies/${id}/errored-state`;
    await expectJsonApi404(await get(path("apply-nope"), "full"));
    await expectJsonApi404(await get(path("apply-demo-errored"), "full"));
    await expectJsonApi404(await get(path("apply-demo-finished"), "full"));
    await expectJsonApi404(await get(path("apply-demo-errored-state"), "apply-only"));
    await expectJsonApi404(await get(path("apply-demo-errored-state"), "unrelated"));
    await expectJsonApi404(await get(path("apply-demo-errored-state")));
    expect((await get(path("apply-demo-errored-state"), "root")).status).toBe(307);
  });

  it("answers 405 to other methods, HEAD like GET, and JSON:API 404 for unknown paths", async () => {
    for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
      const res = await fetch(`${s.base}/api/v2/applies/apply-demo-finished`, {
        method,
        headers: { ...bearer("full"), "content-type": JSONAPI },
        body: method === "DELETE" ? null : "{}",
        signal: AbortSignal.timeout(HANG_MS),
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
      expect(((await res.json()) as any).errors[0].status).toBe("405");
    }
    const head = await fetch(`${s.base}/api/v2/applies/apply-demo-finished`, { method: "HEAD", headers: bearer("full") });
    expect(head.status).toBe(200);
    await expectJsonApi404(await get(`${s.base}/api/v2/nothing/here`, "full"));
  });
});

describe("apply resource without a tokens file", () => {
  let s: Server;
  beforeAll(async () => {
    s = await start(undefined);
  });
  afterAll(async () => {
    await s.app.close();
  });

  it("generates one token with every permission, prints it once, and never opens the API", async () => {
    const token = generatedApplyToken(s.ctx);
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.announced).toHaveLength(1);
    expect(s.announced[0]).toContain(`Bearer ${token}`);
    expect((await get(`${s.base}/api/v2/applies/apply-demo-finished`, token)).status).toBe(200);
    expect((await get(`${s.base}/api/v2/applies/apply-demo-errored-state/errored-state`, token)).status).toBe(307);
    await expectJsonApi404(await get(`${s.base}/api/v2/applies/apply-demo-finished`));
    await expectJsonApi404(await get(`${s.base}/api/v2/applies/apply-demo-finished`, "guess"));
    await expectJsonApi404(await get(`${s.base}/api/v2/applies/apply-demo-errored-state/errored-state`));
  });

  it("makes no token when a tokens file is given", async () => {
    const other = await start([]);
    try {
      expect(generatedApplyToken(other.ctx)).toBeUndefined();
      expect(other.announced).toEqual([]);
      await expectJsonApi404(await get(`${other.base}/api/v2/applies/apply-demo-finished`));
    } finally {
      await other.app.close();
    }
  });
});

describe("applies from the data file", () => {
  const raw = '{"version":4,"serial":9,"lineage":"from-data","resources":[]}';
  let s: Server;
  beforeAll(async () => {
    s = await start(TOKENS, {
      jobs: [],
      applies: [
        { id: "apply-raw", status: "errored", mode: "agent", erroredState: raw, agentName: "builder-7" },
        { id: "apply-gen", status: "errored", mode: "remote", erroredState: true },
        { id: "apply-none", status: "finished", mode: "remote", erroredState: false, "resource-additions": 4, log: "hello log\n" },
        { id: "apply-obj", status: "errored", mode: "remote", erroredState: { version: 4, serial: 1 } },
      ],
    });
  });
  afterAll(async () => {
    await s.app.close();
  });

  it("replaces the demo applies and fills in plausible attributes", async () => {
    await expectJsonApi404(await get(`${s.base}/api/v2/applies/apply-demo-finished`, "full"));
    const doc = (await (await get(`${s.base}/api/v2/applies/apply-raw`, "full")).json()) as any;
    const details = doc.data.attributes["execution-details"];
    expect(details.mode).toBe("agent");
    expect(details["agent-name"]).toBe("builder-7");
    expect(details["agent-id"]).toMatch(/^agent-/);
    const none = (await (await get(`${s.base}/api/v2/applies/apply-none`, "full")).json()) as any;
    expect(none.data.attributes["resource-additions"]).toBe(4);
    expect(Object.keys(none.data.attributes["status-timestamps"]).sort()).toEqual(["finished-at", "queued-at", "started-at"]);
    expect(await (await get(none.data.attributes["log-read-url"])).text()).toBe("hello log\n");
  });

  it("serves the raw errored state byte for byte, a generated one for true, none for false", async () => {
    const location = (await get(`${s.base}/api/v2/applies/apply-raw/errored-state`, "full")).headers.get("location")!;
    const res = await get(location);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(raw);
    const gen = (await get(`${s.base}/api/v2/applies/apply-gen/errored-state`, "full")).headers.get("location")!;
    expect(JSON.parse(await (await get(gen)).text()).version).toBe(4);
    const obj = (await get(`${s.base}/api/v2/applies/apply-obj/errored-state`, "full")).headers.get("location")!;
    expect(JSON.parse(await (await get(obj)).text())).toEqual({ version: 4, serial: 1 });
    await expectJsonApi404(await get(`${s.base}/api/v2/applies/apply-none/errored-state`, "full"));
  });
});
