/**
 * The server's metrics, kept by prom-client in a registry of its own (one per server, so that servers
 * in one process never mix their counts), and served by `GET /v1/metrics` as the scheduler serves its
 * own: JSON in go-metrics' shape (`Timestamp`, `Gauges`, `Points`, `Counters`, `Samples`), or the
 * Prometheus text format with `?format=prometheus`.
 *
 * What is counted: requests and their latencies per route (the route's pattern, never the raw URL, so
 * the label values are bounded), filters compiled, taken from the cache, refused (syntax, types) and
 * pages they ended (evaluation errors, budgets run out), the sizes of the caches, the bytes of answers
 * in flight, the blocking queries waiting, the durable store's health, and prom-client's process
 * metrics (memory, CPU, event-loop delay).
 */
import type { FastifyPluginAsync } from "fastify";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { StoreHealth } from "../context.js";
import type { FilterCache } from "../lists/filters.js";
import type { AnswerCache } from "../scheduler/answers.js";

/** What the metrics read when they are asked for. */
export interface MetricsSources {
  readonly filters: FilterCache;
  readonly answers: AnswerCache;
  /** Blocking queries waiting. */
  readonly waiting: () => number;
  /** The durable store's health (always healthy without one). */
  readonly storeHealth: () => StoreHealth | undefined;
}

/** A counter or sample of the JSON form (go-metrics' `SampledValue`). */
export interface SampledValue {
  Name: string;
  Count: number;
  Rate: number;
  Sum: number;
  Min: number;
  Max: number;
  Mean: number;
  Stddev: number;
  Labels: Record<string, string>;
}

/** `GET /v1/metrics` as JSON (go-metrics' `MetricsSummary`). */
export interface MetricsSummary {
  Timestamp: string;
  Gauges: { Name: string; Value: number; Labels: Record<string, string> }[];
  Points: never[];
  Counters: SampledValue[];
  Samples: SampledValue[];
}

/** Running statistics of one series of observations (for the JSON form's Min, Max and Stddev). */
interface Stats {
  count: number;
  sum: number;
  sumSq: number;
  min: number;
  max: number;
}

const PREFIX = "filter_server_";
const LATENCY = `${PREFIX}http_request_duration_seconds`;
/** Request latency buckets, in seconds: 0.5 ms to 30 s (the request timeout's default). */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Metrics whose values a part of the server keeps itself, read when the registry is collected:
 * counters (also by one label) and gauges, named with the server's prefix.
 */
export function collectedMetrics(registry: Registry): {
  counted(name: string, help: string, read: () => number): void;
  countedBy(name: string, help: string, label: string, read: () => Record<string, number>): void;
  gauge(name: string, help: string, read: () => number): void;
} {
  const registers = [registry];
  return {
    counted: (name, help, read) =>
      void new Counter({
        name: `${PREFIX}${name}`,
        help,
        registers,
        collect() {
          this.reset();
          this.inc(read());
        },
      }),
    countedBy: (name, help, label, read) =>
      void new Counter({
        name: `${PREFIX}${name}`,
        help,
        labelNames: [label],
        registers,
        collect() {
          this.reset();
          for (const [value, n] of Object.entries(read())) this.inc({ [label]: value }, n);
        },
      }),
    gauge: (name, help, read) =>
      void new Gauge({
        name: `${PREFIX}${name}`,
        help,
        registers,
        collect() {
          this.set(read());
        },
      }),
  };
}

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly started = Date.now();
  private readonly requests: Counter<"route" | "method" | "status">;
  private readonly latency: Histogram<"route" | "method">;
  /** The latency observations per route and method, for the JSON form. */
  private readonly latencies = new Map<string, { labels: Record<string, string>; stats: Stats }>();

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    this.requests = new Counter({ name: `${PREFIX}http_requests_total`, help: "HTTP requests answered, by route, method and status.", labelNames: ["route", "method", "status"], registers });
    this.latency = new Histogram({ name: LATENCY, help: "Time to answer an HTTP request, by route and method.", labelNames: ["route", "method"], buckets: LATENCY_BUCKETS, registers });
    const { filters, answers } = sources;
    // Counts the caches keep themselves, read when the metrics are collected.
    const { counted, countedBy, gauge } = collectedMetrics(this.registry);
    counted("filter_compiles_total", "Filter expressions compiled (not found in the cache).", () => filters.compiles);
    counted("filter_cache_hits_total", "Filter expressions found compiled in the cache.", () => filters.hits);
    countedBy("filter_refused_total", "Filter expressions refused with a 400, by reason (syntax, type).", "reason", () => filters.refused);
    countedBy("filter_failed_total", "Pages a filter ended with a 400, by reason (evaluation: an evaluation error; budget: the filter ran out of its steps).", "reason", () => filters.failed);
    counted("answers_computed_total", "List answers computed (not shared with a request already reading them).", () => answers.computed);
    counted("answers_joined_total", "List requests that joined an answer already being read.", () => answers.joined);
    gauge("filter_cache_entries", "Compiled filters held in the cache.", () => filters.size);
    gauge("filter_cache_bytes", "Estimated bytes of the compiled filters held.", () => filters.bytes);
    gauge("answers_in_flight_bytes", "Bytes of list answers being sent.", () => answers.inFlight.bytes);
    gauge("list_reads_running", "Reads of list pages running now (shared by the requests asking the same page).", () => answers.reading);
    gauge("blocking_queries_waiting", "Blocking queries waiting for a change.", sources.waiting);
    gauge("store_healthy", "1 when the durable store accepts writes (or there is none), else 0.", () => ((sources.storeHealth()?.ok ?? true) ? 1 : 0));
  }

  /** Counts one answered request: `route` is the route's pattern ("unmatched" for a 404). */
  request(route: string, method: string, status: number, seconds: number): void {
    this.requests.inc({ route, method, status: String(status) });
    this.latency.observe({ route, method }, seconds);
    const key = `${method} ${route}`;
    let series = this.latencies.get(key);
    if (series === undefined) this.latencies.set(key, (series = { labels: { route, method }, stats: { count: 0, sum: 0, sumSq: 0, min: Infinity, max: -Infinity } }));
    const s = series.stats;
    s.count++;
    s.sum += seconds;
    s.sumSq += seconds * seconds;
    s.min = Math.min(s.min, seconds);
    s.max = Math.max(s.max, seconds);
  }

  /** The Prometheus text format and its content type. */
  async prometheus(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }

  /**
   * The JSON form: gauges as they are; counters with `Count` and `Sum` their value and `Rate` per
   * second since the server started; request latencies as samples (seconds) with their count, sum,
   * rate, extremes, mean and standard deviation.
   */
  async json(now = new Date()): Promise<MetricsSummary> {
    const seconds = Math.max(1, (now.getTime() - this.started) / 1000);
    const summary: MetricsSummary = { Timestamp: goTime(now), Gauges: [], Points: [], Counters: [], Samples: [] };
    for (const metric of await this.registry.getMetricsAsJSON()) {
      // (prom-client types `type` as an enum of these strings.)
      const type = String(metric.type);
      if (type === "gauge") {
        for (const v of metric.values) summary.Gauges.push({ Name: metric.name, Value: v.value, Labels: labelsOf(v.labels) });
      } else if (type === "counter") {
        for (const v of metric.values) {
          const unit = v.value > 0 ? 1 : 0;
          summary.Counters.push({ Name: metric.name, Count: v.value, Rate: v.value / seconds, Sum: v.value, Min: unit, Max: unit, Mean: unit, Stddev: 0, Labels: labelsOf(v.labels) });
        }
      }
    }
    for (const { labels, stats: s } of this.latencies.values()) {
      const mean = s.sum / s.count;
      const variance = s.count > 1 ? Math.max(0, (s.sumSq - s.count * mean * mean) / (s.count - 1)) : 0;
      summary.Samples.push({ Name: LATENCY, Count: s.count, Rate: s.sum / seconds, Sum: s.sum, Min: s.min, Max: s.max, Mean: mean, Stddev: Math.sqrt(variance), Labels: labels });
    }
    return summary;
  }
}

function labelsOf(labels: Partial<Record<string, string | number>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(labels)) if (v !== undefined) out[k] = String(v);
  return out;
}

/** A time as Go's `time.Time.String()` writes it in UTC: `2026-11-25 02:40:00 +0000 UTC`. */
function goTime(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace("T", " ")} +0000 UTC`;
}

/**
 * `GET /v1/metrics`: the JSON form (`?pretty` indents it), or with `format=prometheus` the Prometheus
 * text format. Open to every caller, as the scheduler's is: it tells counts, never data.
 */
export function metricsRoutes(metrics: ServerMetrics): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Querystring: { format?: "prometheus"; pretty?: string } }>(
      "/metrics",
      { schema: { querystring: { type: "object", properties: { format: { type: "string", enum: ["prometheus"] }, pretty: { type: "string" } } } } },
      async (request, reply) => {
        if (request.query.format === "prometheus") {
          const { contentType, text } = await metrics.prometheus();
          return reply.type(contentType).send(text);
        }
        const summary = await metrics.json();
        return reply.type("application/json").send(request.query.pretty === undefined ? JSON.stringify(summary) : `${JSON.stringify(summary, null, 4)}\n`);
      },
    );
  };
}
