/**
 * `GET /v1/event/stream` (registered at prefix /v1): the events of the store's committed writes (on
 * PostgreSQL, those of every server sharing the database) as newline-delimited JSON frames, selected
 * by topic, namespace, the token's ACL and a filter (server/docs/events.md).
 */
import type { FastifyPluginAsync } from "fastify";
import type { Registry } from "prom-client";
import { apiHeaderNames } from "../api-headers.js";
import type { ServerContext } from "../context.js";
import type { FilterCache } from "../lists/filters.js";
import { closeWhenStalled, STALL_TIMEOUT_MS } from "../ops/connections.js";
import { BUSY_RETRY_AFTER_S } from "../scheduler/answers.js";
import { readRequest, type ReadRoute } from "../scheduler/preamble.js";
import { sendBusy } from "../scheduler/respond.js";
import { CLIENT_RETRY_AFTER_S, type ClientBounds } from "../scheduler/clients.js";
import type { SchedulerStore } from "../store/types.js";
import { EventHub } from "./hub.js";
import { registerEventMetrics } from "./metrics.js";
import { parseStreamQuery, type StreamQuery } from "./query.js";
import { eventSchema } from "./schema.js";
import { guardedFilter, type Admission } from "./selection.js";
import { EventStream } from "./stream.js";

/** Defaults of the options (`--event-buffer`, `--event-heartbeat`, `--event-streams`, `--event-stream-memory`). */
export const EVENT_BUFFER = 4096;
export const EVENT_HEARTBEAT_MS = 10_000;
export const EVENT_STREAMS = 256;
export const EVENT_STREAM_BYTES = 1024 * 1024;

/** How a stream's request is read: its parameters, and filters over the events' schema. */
const STREAM_ROUTE: ReadRoute<StreamQuery> = { parse: parseStreamQuery, schema: eventSchema };

/**
 * The steps each stream's filter may spend on one event: its share of the fan-out budget (the budget
 * over the bound on open streams, so that one event costs at most the fan-out budget whatever the
 * streams), at most the per-item budget.
 */
function streamSteps(options: ServerContext["options"]): number {
  const fanout = options.fanoutBudget ?? 1_000_000;
  const streams = options.eventStreams ?? EVENT_STREAMS;
  return Math.max(1, Math.min(options.filterBudget ?? 1_000_000, Math.floor(fanout / streams)));
}

/**
 * The event stream's route, its hub (subscribed to the store's writes from registration on, so that
 * the buffer holds the events since the server started), its metrics in `registry`, and its end at
 * shutdown: fastify's `preClose` ends every stream cleanly before the listener closes. Replays take
 * their turns of the loop in `bounds.turns`; a client holds at most `bounds.streams` streams.
 */
export function eventRoutes(ctx: ServerContext, store: SchedulerStore, filters: FilterCache, bounds: ClientBounds, registry?: Registry): FastifyPluginAsync {
  return async (app) => {
    const { options } = ctx;
    // The feed's start, read in the same turn as the subscription: no write falls between.
    const hub = new EventHub(options.eventBuffer ?? EVENT_BUFFER, store.feedIndex, bounds.turns);
    const unsubscribe = store.onCommit(
      (commit) => {
        // A write is committed whatever happens here: a failure is logged, never the write's.
        try {
          hub.publish(commit);
        } catch (err) {
          app.log.error({ err, index: commit.index }, "event stream: publishing a write's events failed");
        }
      },
      (after, upTo) => {
        app.log.warn({ after, upTo }, "event stream: writes were pruned from the change log before this server read them; open streams are cut");
        hub.gap(upTo);
      },
    );
    if (registry !== undefined) registerEventMetrics(registry, hub);
    app.addHook("preClose", async () => hub.close());
    app.addHook("onClose", async () => unsubscribe());

    const limits = { heartbeatMs: options.eventHeartbeatMs ?? EVENT_HEARTBEAT_MS, maxBytes: options.eventStreamBytes ?? EVENT_STREAM_BYTES };
    const maxStreams = options.eventStreams ?? EVENT_STREAMS;
    const steps = streamSteps(options);
    const names = apiHeaderNames(options.apiHeaders);

    app.get("/event/stream", async (request, reply) => {
      // The parameters, region, token and filter as the list endpoints check them.
      const read = readRequest(ctx, filters, STREAM_ROUTE, request, reply);
      if (read === undefined) return reply;
      const { query, readable, client, filter } = read;
      if (hub.closed) return sendBusy(reply, BUSY_RETRY_AFTER_S, "the server is shutting down");
      if (hub.size >= maxStreams) {
        hub.refuse();
        return sendBusy(reply, BUSY_RETRY_AFTER_S, `${maxStreams} event streams are open, as many as this server serves at once; retry later`);
      }
      const release = bounds.streams.take(client);
      if (release === undefined) return sendBusy(reply, CLIENT_RETRY_AFTER_S, bounds.streams.message, 429);

      const admission: Admission = { readable, namespace: query.namespace, topics: query.topics };
      const headers: Record<string, string> = {
        "Content-Type": "application/json",
        "Cache-Control": "no-cache",
        // The stream owns its connection: when it ends (shutdown), the connection closes with it.
        Connection: "close",
        [names.index]: String(hub.index),
      };
      // `index` absent or 0: from now on; else the buffered writes above it, from the oldest held.
      let from = query.index === 0 ? hub.index : query.index;
      if (query.index > 0 && query.index < hub.ring.floor) {
        headers[names.eventGap] = `${query.index + 1}-${hub.ring.floor}`;
        from = hub.ring.floor;
      }
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, headers);
      res.flushHeaders();
      closeWhenStalled(res, options.stallTimeoutMs ?? STALL_TIMEOUT_MS);
      const guarded = filter && guardedFilter(filter, admission, steps, hub.counts);
      hub.open(
        new EventStream(res, client, admission, guarded, from, limits, (stream, reason) => {
          release();
          hub.ended(stream, reason);
        }),
      );
      return reply;
    });
  };
}
