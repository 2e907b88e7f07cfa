/** The event streams' metrics, in the server's registry (served by `GET /v1/metrics`). */
import type { Registry } from "prom-client";
import { collectedMetrics } from "../ops/metrics.js";
import type { EventHub } from "./hub.js";

/**
 * Registers the hub's counts, read when the metrics are collected: streams open and ended (by reason:
 * `closed`, `slow`, `lagged`, `expensive`, `shutdown`), refused past the bounds, writes published and
 * buffered, filter evaluations and failures. None of them depends on what a write in a namespace a
 * reader may not see holds: writes are counted, not their events, and evaluations only past the ACL.
 */
export function registerEventMetrics(registry: Registry, hub: EventHub): void {
  const { counts } = hub;
  const { counted, countedBy, gauge } = collectedMetrics(registry);
  gauge("event_streams_open", "Event streams open.", () => hub.size);
  gauge("event_buffer_writes", "Writes whose events are held for resumption.", () => hub.ring.size);
  counted("event_writes_published_total", "Committed writes published to the event streams (the number of writes, which the tables' indexes show too; not their events, whose number depends on what a write holds).", () => counts.writes);
  counted("event_streams_opened_total", "Event streams opened.", () => counts.opened);
  countedBy("event_streams_ended_total", "Event streams ended, by reason (closed: the client left or stalled; slow: cut past the unsent-bytes bound; lagged: the buffer dropped events it had not replayed; expensive: its filter ran out of its share of the fan-out budget; shutdown).", "reason", () => counts.ended);
  counted("event_streams_refused_total", "Event streams refused (503) past the bound on open streams.", () => counts.refused);
  counted("event_filter_evaluations_total", "Event filter evaluations on events their stream's token may read (the filter set's index spares the others).", () => counts.evaluations);
  counted("event_filter_steps_total", "Evaluation steps those evaluations took (each at most its stream's share of --fanout-budget).", () => counts.steps);
  countedBy("event_filter_failed_total", "Events a stream's filter failed on and that were not sent to it, by reason (evaluation).", "reason", () => counts.failed);
}
