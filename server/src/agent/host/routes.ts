import type { FastifyInstance } from "fastify";
import { permitDebugRead } from "../access.js";
import { handleRemote, resolveTarget } from "../forward.js";
import { queryOf, sendJson } from "../http.js";
import type { AgentState } from "../state.js";
import { makeHostData } from "./collect.js";

/** GET /host: this host's data (or another agent's, with server_id / node_id). */
export function hostRoutes(app: FastifyInstance, state: AgentState): void {
  app.get("/host", async (request, reply) => {
    if (!permitDebugRead(state.ctx, request, reply)) return reply;
    const target = resolveTarget(state, queryOf(request), "Can only forward to either client node or server");
    if (await handleRemote(state, request, reply, target)) return reply;
    const agentId = state.id.isServer ? state.id.memberName : state.id.nodeId;
    return sendJson(reply, request, 200, { AgentID: agentId, HostData: await makeHostData() });
  });
}
