import Fastify, { LogController } from "fastify";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import { connectionOptions, limitHeaders } from "./connections.js";
import { methodGuard } from "./methods.js";
import type { Phase } from "./lifecycle.js";
import type { StoreHealth } from "../context.js";

export interface WorkerProcessInfo {
  state: "active" | "shutdown" | "unknown";
  active_session_count: number;
  upstream_connection_state: "CONNECTING" | "READY" | "TRANSIENT_FAILURE" | "IDLE" | "SHUTDOWN";
}

/** What the health endpoint looks at. */
export interface HealthSource {
  phase(): Phase;
  /** Whether the API listener accepts connections. */
  apiListening(): boolean;
  /** Open connections on the API listener (the worker's active sessions). */
  activeSessions(): Promise<number>;
  /** Whether this instance also plays the worker role (answers worker_info=1). */
  worker: boolean;
  /** Whether the durable store accepts writes (--data-dir); absent: nothing to check. */
  store?: () => StoreHealth;
}

/** The seed's worker health values for the server's current phase. */
export async function workerInfo(source: HealthSource): Promise<WorkerProcessInfo> {
  const phase = source.phase();
  if (phase !== "serving") return { state: "shutdown", active_session_count: await source.activeSessions(), upstream_connection_state: "SHUTDOWN" };
  if (!source.apiListening()) return { state: "unknown", active_session_count: 0, upstream_connection_state: "TRANSIENT_FAILURE" };
  return { state: "active", active_session_count: await source.activeSessions(), upstream_connection_state: "READY" };
}

/**
 * The ops listener: GET (and HEAD, for load balancers) /health is 200 with an empty body while the API
 * listener is up, 503 while the server shuts down (grace period included), when the API listener is not
 * up, or while the durable store does not accept writes. With worker_info=1 a worker answers its process
 * information as JSON. Errors (405 to another method, 404, the HTTP parser's 4xx) carry empty bodies.
 */
export async function buildOpsApp(source: HealthSource, logger: FastifyBaseLogger, requestTimeoutMs = 30_000): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: false,
    forceCloseConnections: true,
    ...connectionOptions(requestTimeoutMs, true),
  });
  limitHeaders(app, requestTimeoutMs, true);
  methodGuard(app, (reply, status) => void reply.code(status).send());
  app.route({ method: ["GET", "HEAD"], url: "/health", handler: async (request, reply) => {
    const healthy = source.phase() === "serving" && source.apiListening() && (source.store?.().ok ?? true);
    void reply.code(healthy ? 200 : 503);
    const query = request.query as Record<string, string | string[] | undefined>;
    const wanted = [query["worker_info"]].flat().includes("1");
    if (wanted && source.worker) {
      return reply.type("application/json").send(JSON.stringify({ worker_process_info: await workerInfo(source) }));
    }
    return reply.send();
  } });
  return app;
}
