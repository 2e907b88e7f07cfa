import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import type { MetricsSummary, SampledValue } from "../src/ops/metrics.js";
import type { RunningServer } from "../src/ops/start.js";
import { startServer } from "../src/ops/start.js";

// GET /v1/metrics of a real server on a loopback port: JSON in the scheduler's shape, and Prometheus.
let server: RunningServer;
let base: string;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-metrics-"));
  const dataFile = join(dir, "data.json");
  const jobs = [
    { ID: "a", Status: "running", JobSummary: { Summary: { web: { Running: 1 } } } },
    { ID: "b", Status: "dead", JobSummary: { Summary: {} } },
  ];
  writeFileSync(dataFile, JSON.stringify({ jobs, deployments: [] }));
  server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, dataFile, logLevel: "error", filterBudget: 1000 });
  base = server.apiUrl;
});
afterAll(async () => server.lifecycle.shutdown());

const list = (filter: string) => fetch(`${base}/v1/jobs?filter=${encodeURIComponent(filter)}`);
const metrics = async (): Promise<MetricsSummary> => (await (await fetch(`${base}/v1/metrics`)).json()) as MetricsSummary;
const find = (values: readonly SampledValue[], name: string, labels: Record<string, string> = {}) =>
  values.find((v) => v.Name === name && Object.entries(labels).every(([k, x]) => v.Labels[k] === x));

describe("GET /v1/metrics", () => {
  it("counts requests per route, method and status, and their latencies as samples", async () => {
    const before = await metrics();
    const count = (m: MetricsSummary, status: string) => find(m.Counters, "filter_server_http_requests_total", { route: "/v1/jobs", method: "GET", status })?.Count ?? 0;
    for (let i = 0; i < 3; i++) expect((await list('Status == "running"')).status).toBe(200);
    expect((await list("Status ==")).status).toBe(400);
    expect((await fetch(`${base}/v1/nothing-here`)).status).toBe(404);
    const after = await metrics();
    expect(count(after, "200") - count(before, "200")).toBe(3);
    expect(count(after, "400") - count(before, "400")).toBe(1);
    // A URL no route serves is one label value, whatever the URL.
    expect(find(after.Counters, "filter_server_http_requests_total", { route: "unmatched", status: "404" })?.Count).toBeGreaterThanOrEqual(1);
    expect(after.Counters.some((c) => c.Labels["route"]?.includes("nothing-here"))).toBe(false);
    const latency = find(after.Samples, "filter_server_http_request_duration_seconds", { route: "/v1/jobs", method: "GET" })!;
    expect(latency.Count).toBeGreaterThanOrEqual(4);
    expect(latency.Min).toBeGreaterThan(0);
    expect(latency.Max).toBeGreaterThanOrEqual(latency.Mean);
    expect(latency.Mean).toBeCloseTo(latency.Sum / latency.Count, 9);
    expect(after.Timestamp).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \+0000 UTC$/);
    expect(after.Points).toEqual([]);
  });

  it("counts filters compiled, taken from the cache, refused and failed, and the cache's size", async () => {
    const before = await metrics();
    const value = (m: MetricsSummary, name: string, labels?: Record<string, string>) => find(m.Counters, name, labels)?.Count ?? 0;
    const expression = `ID == "metrics-${Date.now()}"`;
    await list(expression);
    await list(expression);
    await list("Stauts == 1");
    await list("JobSummary.Summary.web.Running == 1"); // job b has no "web": an evaluation error ends the page
    const after = await metrics();
    expect(value(after, "filter_server_filter_compiles_total") - value(before, "filter_server_filter_compiles_total")).toBe(2);
    expect(value(after, "filter_server_filter_cache_hits_total") - value(before, "filter_server_filter_cache_hits_total")).toBe(1);
    expect(value(after, "filter_server_filter_refused_total", { reason: "type" }) - value(before, "filter_server_filter_refused_total", { reason: "type" })).toBe(1);
    expect(value(after, "filter_server_filter_failed_total", { reason: "evaluation" }) - value(before, "filter_server_filter_failed_total", { reason: "evaluation" })).toBe(1);
    const entries = after.Gauges.find((g) => g.Name === "filter_server_filter_cache_entries")!;
    expect(entries.Value).toBeGreaterThanOrEqual(2);
    for (const name of ["filter_server_blocking_queries_waiting", "filter_server_store_healthy", "filter_server_filter_cache_bytes", "filter_server_process_resident_memory_bytes"]) {
      expect(after.Gauges.map((g) => g.Name)).toContain(name);
    }
    expect(after.Gauges.find((g) => g.Name === "filter_server_store_healthy")!.Value).toBe(1);
  });

  it("counts a blocking query while it waits", async () => {
    const index = Number((await fetch(`${base}/v1/jobs`)).headers.get("x-svc-index"));
    const waiting = fetch(`${base}/v1/jobs?index=${index}&wait=2s`);
    let seen = 0;
    for (let i = 0; i < 100 && seen === 0; i++) {
      seen = (await metrics()).Gauges.find((g) => g.Name === "filter_server_blocking_queries_waiting")!.Value;
      if (seen === 0) await new Promise((r) => setImmediate(r));
    }
    expect(seen).toBe(1);
    expect((await waiting).status).toBe(200);
    expect((await metrics()).Gauges.find((g) => g.Name === "filter_server_blocking_queries_waiting")!.Value).toBe(0);
  });

  it("?format=prometheus answers the text format with the same counts", async () => {
    await list('Status == "dead"');
    const res = await fetch(`${base}/v1/metrics?format=prometheus`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain("# TYPE filter_server_http_requests_total counter");
    expect(text).toMatch(/^filter_server_http_requests_total\{route="\/v1\/jobs",method="GET",status="200"\} \d+$/m);
    const bucket = text.split("\n").find((l) => l.startsWith("filter_server_http_request_duration_seconds_bucket{") && l.includes('le="0.005"') && l.includes('route="/v1/jobs"'));
    expect(bucket).toMatch(/ \d+$/);
    expect(text).toMatch(/^filter_server_filter_cache_entries \d+$/m);
    const other = await fetch(`${base}/v1/metrics?format=xml`);
    expect(other.status).toBe(400);
  });
});
