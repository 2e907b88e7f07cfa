import type { FastifyInstance } from "fastify";
import { permit } from "../access.js";
import { queryOf, sendEmpty, sendJson, sendText } from "../http.js";
import type { AgentState } from "../state.js";
import { ServersError } from "./servers.js";

/** GET/PUT/POST /servers: the server list of a client-mode agent (501 on a server). */
export function serversRoutes(app: FastifyInstance, state: AgentState): void {
  const { ctx } = state;
  app.route({
    method: ["GET", "PUT", "POST"],
    url: "/servers",
    handler: async (request, reply) => {
      const servers = state.servers;
      if (servers === undefined) return sendText(reply, 501, "Invalid method");
      if (request.method === "GET") {
        if (!permit(ctx, request, reply, "agent:read")) return reply;
        return sendJson(reply, request, 200, servers.list());
      }
      const addresses = queryOf(request).getAll("address");
      if (addresses.length === 0) return sendText(reply, 400, "missing server address");
      if (!permit(ctx, request, reply, "agent:write")) return reply;
      try {
        await servers.replace(addresses);
      } catch (e) {
        if (e instanceof ServersError) return sendText(reply, 400, e.message);
        throw e;
      }
      state.log.info({ servers: servers.list() }, "server list replaced");
      return sendEmpty(reply);
    },
  });
}
