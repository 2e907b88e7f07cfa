/**
 * `GET /v1/status/leader`, `GET /v1/status/peers` and `GET /v1/regions`: a single server is its own
 * leader and its only peer, its region the only one. The leader's address is the one the request
 * reached (the scheduler answers its servers' RPC addresses, which this server has none of). No token
 * is needed, as in the scheduler; `region` must be this server's.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import { joinHostPort } from "../agent/identity.js";
import type { ServerContext } from "../context.js";
import { BadRequest } from "../lists/errors.js";
import { checkRegion } from "./preamble.js";
import { isPretty, param, type Query } from "./query.js";
import { sendJson, sendText } from "./respond.js";

/** The address a request reached, as `host:port` (`[host]:port` for IPv6). */
function reachedAt(request: FastifyRequest): string {
  return joinHostPort(request.socket.localAddress ?? "127.0.0.1", request.socket.localPort ?? 0);
}

export function statusRoutes(ctx: ServerContext): FastifyPluginAsync {
  const answer = (request: FastifyRequest, reply: FastifyReply, value: (request: FastifyRequest) => unknown): FastifyReply => {
    const query = request.query as Query;
    try {
      checkRegion(ctx, param(query, "region"));
    } catch (e) {
      if (e instanceof BadRequest) return sendText(reply, 400, e.message);
      throw e;
    }
    return sendJson(reply, value(request), isPretty(query));
  };
  return async (app) => {
    app.get("/status/leader", (request, reply) => answer(request, reply, reachedAt));
    app.get("/status/peers", (request, reply) => answer(request, reply, (r) => [reachedAt(r)]));
    app.get("/regions", (request, reply) => answer(request, reply, () => [ctx.options.region]));
  };
}
