/** The event streams' metrics, in the server's registry (served by `GET /v1/metrics`). */
import type { Registry } from "prom-client";
import { collectedMetrics } from "../ops/metrics.js";
import type { EventHub } from "./hub.js";

/**
 * Registers the hub's counts, read when the metrics are collected: streams open and ended (by reason:
 * `closed`, `slow`, `lagged`, `shutdown`), refused past the bound, events published and buffered,
 * filter evaluations and failures.
 */
export function registerEventMetrics(registry: Registry, hub: EventHub): void {
  const { counts } = hub;
  const { counted, countedBy, gauge } = collectedMetrics(registry);
  gauge("event_streams_open", "Event streams open.", () => hub.size);
  gauge("event_buffer_events", "Events held for resumption.", () => hub.ring.size);
  counted("events_published_total", "Events made by committed writes.", () => counts.published);
  counted("event_streams_opened_total", "Event streams opened.", () => counts.opened);
  countedBy("event_streams_ended_total", "Event streams ended, by reason (closed: the client left or stalled; slow: cut past the unsent-bytes bound; lagged: the buffer dropped events it had not replayed; shutdown).", "reason", () => counts.ended);
  counted("event_streams_refused_total", "Event streams refused (503) past the bound on open streams.", () => counts.refused);
  counted("event_filter_evaluations_total", "Event filter evaluations (the filter set's index spares the others).", () => counts.evaluations);
  countedBy("event_filter_failed_total", "Events a stream's filter failed on and that were not sent to it, by reason (evaluation, budget).", "reason", () => counts.failed);
}
