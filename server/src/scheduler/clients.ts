/**
 * Who a request comes from, and what each client holds: the bounds per client on the resources a
 * request keeps after its answer began (event streams, waiting blocking queries), so that one client
 * cannot take what the server shares with every other.
 */
import type { FastifyRequest } from "fastify";
import type { Registry } from "prom-client";
import type { AclToken, ServerOptions } from "../context.js";
import { collectedMetrics } from "../ops/metrics.js";
import { clientOfAddress, Turns, type ClientKey } from "../turns.js";

/**
 * The client of a request: its ACL token (resolved, `authenticate`) when it sent a known one (the token
 * is the principal, from whatever address), else its remote address (`clientOfAddress`: an IPv4
 * address, or an IPv6 address's /64). Never the token's secret as text: the key is the token object.
 */
export function clientOf(request: FastifyRequest, token: AclToken | undefined): ClientKey {
  return token ?? clientOfAddress(request.socket.remoteAddress);
}

/** How many of one resource each client holds, and the bound (0: none). */
export class ClientCounts {
  readonly #held = new Map<ClientKey, number>();
  /** Refused by the bound (for the metrics). */
  refused = 0;

  constructor(
    /** What is counted, as the refusal names it ("event streams"). */
    readonly what: string,
    /** Most a client may hold at once; 0: no bound. */
    readonly limit: number,
  ) {}

  /**
   * Counts one more for `client` and returns how to give it back (idempotent), or undefined (counted
   * as refused) when the client holds `limit` already.
   */
  take(client: ClientKey): (() => void) | undefined {
    const held = this.#held.get(client) ?? 0;
    if (this.limit > 0 && held >= this.limit) {
      this.refused++;
      return undefined;
    }
    this.#held.set(client, held + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.#held.get(client) ?? 1) - 1;
      if (left > 0) this.#held.set(client, left);
      else this.#held.delete(client);
    };
  }

  /** The message of a refusal: the bound, and what to do. */
  get message(): string {
    return `this client holds ${this.limit} ${this.what}, as many as this server gives one client at once; close one or retry later`;
  }
}

/** Seconds a client refused by a per-client bound is told to wait (`Retry-After`). */
export const CLIENT_RETRY_AFTER_S = 1;

/** Defaults of `--event-streams-per-client` and `--blocking-queries-per-client`. */
export const EVENT_STREAMS_PER_CLIENT = 64;
export const BLOCKING_QUERIES_PER_CLIENT = 512;

/** What the server shares among its clients: the loop's turns for long work, and the per-client bounds. */
export interface ClientBounds {
  readonly turns: Turns;
  /** Event streams open, per client. */
  readonly streams: ClientCounts;
  /** Blocking queries waiting, per client. */
  readonly waiters: ClientCounts;
}

/** The bounds of `options` (each 0: no bound). */
export function clientBounds(options: Pick<ServerOptions, "eventStreamsPerClient" | "blockingQueriesPerClient">): ClientBounds {
  return {
    turns: new Turns(),
    streams: new ClientCounts("event streams", options.eventStreamsPerClient ?? EVENT_STREAMS_PER_CLIENT),
    waiters: new ClientCounts("waiting blocking queries", options.blockingQueriesPerClient ?? BLOCKING_QUERIES_PER_CLIENT),
  };
}

/** Registers the bounds' counts in the server's registry (served by `GET /v1/metrics`). */
export function registerClientMetrics(registry: Registry, bounds: ClientBounds): void {
  const { counted, countedBy, gauge } = collectedMetrics(registry);
  countedBy("client_bound_refused_total", "Requests refused (429) by a per-client bound, by resource (event_streams: --event-streams-per-client; blocking_queries: --blocking-queries-per-client).", "resource", () => ({
    event_streams: bounds.streams.refused,
    blocking_queries: bounds.waiters.refused,
  }));
  counted("loop_slices_total", "Slices of long work (list scans, event stream replays, page waits' deferred checks) run in their turn of the event loop.", () => bounds.turns.slices);
  gauge("loop_turns_waiting", "Pieces of long work waiting for their turn of the event loop.", () => bounds.turns.waiting);
}
