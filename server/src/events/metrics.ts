/** The event streams' metrics, in the server's registry (served by `GET /v1/metrics`). */
import { Counter, Gauge, type Registry } from "prom-client";
import type { EventHub } from "./hub.js";

const PREFIX = "filter_server_";

/**
 * Registers the hub's counts, read when the metrics are collected: streams open and ended (by reason:
 * `closed`, `slow`, `lagged`, `shutdown`), refused past the bound, events published and buffered,
 * filter evaluations and failures.
 */
export function registerEventMetrics(registry: Registry, hub: EventHub): void {
  const registers = [registry];
  const { counts } = hub;
  const counter = (name: string, help: string, read: () => number): void =>
    void new Counter({
      name: `${PREFIX}${name}`,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  const counterBy = (name: string, help: string, label: string, read: () => Record<string, number>): void =>
    void new Counter({
      name: `${PREFIX}${name}`,
      help,
      labelNames: [label],
      registers,
      collect() {
        this.reset();
        for (const [value, n] of Object.entries(read())) this.inc({ [label]: value }, n);
      },
    });
  const gauge = (name: string, help: string, read: () => number): void =>
    void new Gauge({
      name: `${PREFIX}${name}`,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });
  gauge("event_streams_open", "Event streams open.", () => hub.size);
  gauge("event_buffer_events", "Events held for resumption.", () => hub.ring.size);
  counter("events_published_total", "Events made by committed writes.", () => counts.published);
  counter("event_streams_opened_total", "Event streams opened.", () => counts.opened);
  counterBy("event_streams_ended_total", "Event streams ended, by reason (closed: the client left or stalled; slow: cut past the unsent-bytes bound; lagged: the buffer dropped events it had not replayed; shutdown).", "reason", () => counts.ended);
  counter("event_streams_refused_total", "Event streams refused (503) past the bound on open streams.", () => counts.refused);
  counter("event_filter_evaluations_total", "Event filter evaluations (the filter set's index spares the others).", () => counts.evaluations);
  counterBy("event_filter_failed_total", "Events a stream's filter failed on and that were not sent to it, by reason (evaluation, budget).", "reason", () => counts.failed);
}
