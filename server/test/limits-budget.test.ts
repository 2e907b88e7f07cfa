import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";
import { FILTER_CACHE_BYTES } from "../src/lists/filters.js";

// The evaluation budget of list requests and the size bound of the compiled-filter cache, over real
// HTTP on loopback against the demo data (400 jobs, 1 to 5 datacenters each).

/** `any Datacenters as v0 { any Datacenters as v1 { … v0 == "x" … } }`, `depth` levels deep. */
function nested(depth: number): string {
  let body = 'v0 == "x"';
  for (let i = depth - 1; i >= 0; i--) body = `any Datacenters as v${i} { ${body} }`;
  return body;
}

const list = (server: RunningServer, filter: string, extra = ""): Promise<Response> =>
  fetch(`${server.apiUrl}/v1/jobs?namespace=*${extra}&filter=${encodeURIComponent(filter)}`);

describe("the evaluation budget of a list request (default 1,000,000 steps an item)", () => {
  let server: RunningServer;
  beforeAll(async () => (server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error" })));
  afterAll(async () => server.lifecycle.shutdown());

  it("a depth-14 nested any is 400 filter too expensive at the outermost any, and /health answers meanwhile", async () => {
    const worst = nested(14);
    const rejected = Array.from({ length: 4 }, () => list(server, worst));
    const health = fetch(`${server.opsUrl}/health`);
    for (const res of await Promise.all(rejected)) {
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
      expect(await res.text()).toMatch(/^failed to read result page: filter too expensive: .*\(1000000 steps per item\) at 1:1$/);
    }
    expect((await health).status).toBe(200);
    // The position is that of the outermost any being iterated, wherever it stands.
    const res = await list(server, `Status != "x" and (${worst})`);
    expect(await res.text()).toMatch(/ at 1:20$/);
  });

  it("within the budget answers do not change", async () => {
    const res = await list(server, nested(3).replace('v0 == "x"', 'v0 == "dc1"'));
    expect(res.status).toBe(200);
    const jobs = (await res.json()) as { Datacenters: string[] }[];
    expect(jobs.length).toBeGreaterThan(0);
    expect(jobs.every((j) => j.Datacenters.includes("dc1"))).toBe(true);
  });
});

describe("the budget is per item: a list's length is never refused", () => {
  let server: RunningServer;
  // 1,000 steps an item: a 3-test filter costs 3 a job, 1,200 over the 400 demo jobs (a budget per
  // request refused it); a nested any over up to 5 datacenters costs up to 5^5 on one job.
  beforeAll(async () => (server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error", filterBudget: 1000 })));
  afterAll(async () => server.lifecycle.shutdown());

  const linear = 'Status != "x" and Priority != 1 and Type != "nope"';

  it("a filter without nested collections is answered over the whole list, and so is a blocking query's re-read after a write", async () => {
    const first = await list(server, linear);
    expect(first.status).toBe(200);
    expect(((await first.json()) as unknown[]).length).toBe(400);
    const index = Number(first.headers.get("x-svc-index"));
    const blocked = list(server, linear, `&index=${index}&wait=20s`);
    // Registering wakes the query only once it waits (the index passes the one it asked for).
    let woke: Response | undefined;
    void blocked.then((r) => (woke = r));
    while (server.state.waiting === 0 && woke === undefined) await new Promise((r) => setImmediate(r));
    const put = await fetch(`${server.apiUrl}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: "new", Type: "batch", TaskGroups: [{ Name: "g" }] } }) });
    expect(put.status).toBe(200);
    const res = await blocked;
    expect(res.status).toBe(200);
    expect(((await res.json()) as unknown[]).length).toBe(401);
  });

  it("a filter that explodes on one item is refused at its outermost any", async () => {
    const res = await list(server, `Type != "nope" and (${nested(5)})`);
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^failed to read result page: filter too expensive: .*\(1000 steps per item\) at 1:21$/);
  });
});

describe("long scans run in slices", () => {
  let server: RunningServer;
  beforeAll(async () => (server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error", filterBudget: 1e12 })));
  afterAll(async () => server.lifecycle.shutdown());

  it("a cheap request sent after three expensive scans is answered before the last of them", async () => {
    const order: string[] = [];
    const expensive = Array.from({ length: 3 }, (_, i) => list(server, nested(7)).then(async (r) => (await r.text(), order.push(`scan ${i}`), r.status)));
    const cheap = fetch(`${server.apiUrl}/v1/jobs?per_page=1`).then(async (r) => (await r.text(), order.push("cheap"), r.status));
    const health = fetch(`${server.opsUrl}/health`).then(async (r) => (await r.text(), order.push("health"), r.status));
    expect(await Promise.all([...expensive, cheap, health])).toEqual([200, 200, 200, 200, 200]);
    expect(order.indexOf("cheap")).toBeLessThan(order.length - 1);
    expect(order.indexOf("health")).toBeLessThan(order.length - 1);
    expect(order.at(-1)).toMatch(/^scan/);
  });
});

describe("the compiled-filter cache", () => {
  let server: RunningServer;
  beforeAll(async () => (server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error" })));
  afterAll(async () => server.lifecycle.shutdown());

  it("is bounded by the estimated size of what it holds, not only by count", async () => {
    // 40 distinct filters of 15 KB (a URL's worth each): far below 512 entries, far above 64 MiB estimated.
    for (let i = 0; i < 40; i++) {
      const filter = `ID == "${String(i).padStart(3, "0")}${"x".repeat(15_000)}"`;
      const res = await fetch(`${server.apiUrl}/v1/jobs?filter=${encodeURIComponent(filter)}`);
      expect(res.status).toBe(200);
    }
    expect(server.filters.bytes).toBeLessThanOrEqual(FILTER_CACHE_BYTES);
    expect(server.filters.size).toBeLessThan(40);
    expect(server.filters.size).toBeGreaterThan(0);
  });
});

describe("a regular expression over a long text costs what it costs (issue 21: one job with a 1 MB Name froze the server)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    // An operator's data file may hold a text of 1 MB a filter reads (a Name is bounded as registration
    // bounds it, since the PostgreSQL store indexes it; a StatusDescription is not).
    const dir = mkdtempSync(join(tmpdir(), "filter-server-regex-"));
    const dataFile = join(dir, "data.json");
    const jobs = [
      { ID: "huge", StatusDescription: `${"a".repeat(500)}1`.repeat(2_000), Datacenters: ["dc1"] },
      { ID: "small", StatusDescription: "web-1", Datacenters: ["dc1"] },
    ];
    writeFileSync(dataFile, JSON.stringify({ jobs, deployments: [] }));
    server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error", dataFile });
  });
  afterAll(async () => server.lifecycle.shutdown());

  it("a 1 KB pattern over the 1 MB text is 400 filter too expensive before it runs, and /health answers meanwhile", async () => {
    const pattern = `(?i)${"[a-z]{100}".repeat(100)}1`;
    const started = list(server, `StatusDescription matches \`${pattern}\``);
    const health = await fetch(`${server.opsUrl}/health`);
    expect(health.status).toBe(200);
    const res = await started;
    expect(res.status).toBe(400);
    expect(await res.text()).toMatch(/^failed to read result page: filter too expensive: .*\(1000000 steps per item\) at 1:1$/);
    // An ordinary pattern reads the 1 MB text once (a step per 64 characters) and is answered.
    const ordinary = await list(server, 'StatusDescription matches "^web-[0-9]+$"');
    expect(ordinary.status).toBe(200);
    expect(((await ordinary.json()) as { ID: string }[]).map((j) => j.ID)).toEqual(["small"]);
  });
});
