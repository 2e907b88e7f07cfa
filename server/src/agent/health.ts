import type { FastifyInstance } from "fastify";
import { queryOf } from "./http.js";
import type { AgentState } from "./state.js";

interface Part {
  message: string;
  ok: boolean;
}

/**
 * GET /health: `{client, server}` with the parts this agent has (or those named by `?type=`).
 * A server leads its own cluster, so its part is ok; a client is ok once it knows a server. Neither is
 * ok while the durable store does not accept writes.
 * Healthy: 200 application/json. Unhealthy: 500 with the same JSON, as the error body.
 */
export function healthRoutes(app: FastifyInstance, state: AgentState): void {
  app.get("/health", async (request, reply) => {
    const types = queryOf(request).getAll("type");
    const wants = (part: "client" | "server"): boolean =>
      types.length === 0 ? (part === "client" ? state.id.isClient : state.id.isServer) : types.includes(part);

    const body: { client?: Part; server?: Part } = {};
    if (wants("client")) {
      if (state.servers === undefined) body.client = { message: "client not enabled", ok: false };
      else if (state.servers.list().length === 0) body.client = { message: "no known servers", ok: false };
      else body.client = { message: "ok", ok: true };
    }
    if (wants("server")) {
      body.server = state.gossip === undefined ? { message: "server not enabled", ok: false } : { message: "ok", ok: true };
    }
    // A store that does not accept writes (--data-dir after a failed write) makes every part unhealthy.
    const store = state.ctx.storeHealth?.();
    if (store !== undefined && !store.ok) {
      for (const part of Object.values(body)) {
        if (part.ok) Object.assign(part, { ok: false, message: store.message });
      }
    }
    const healthy = Object.values(body).every((part) => part.ok);
    if (!healthy) {
      state.log.warn({ health: body }, "health check failed");
      // The error body is written by Go's encoding/json in the scheduler: ok before message.
      const error = Object.fromEntries(Object.entries(body).map(([k, part]) => [k, { ok: part.ok, message: part.message }]));
      return reply.code(500).type("application/json").send(JSON.stringify(error));
    }
    return reply.code(200).type("application/json").send(JSON.stringify(body));
  });
}
