import type { FastifyInstance } from "fastify";
import { permit } from "../access.js";
import { ZERO_MEMBER } from "../gossip/member.js";
import { sendJson } from "../http.js";
import type { AgentState } from "../state.js";
import { buildConfig } from "./config.js";
import { buildStats } from "./stats.js";

/** GET /self: config (secrets redacted), member (the zero member on a client) and stats. */
export function selfRoutes(app: FastifyInstance, state: AgentState): void {
  app.get("/self", async (request, reply) => {
    if (!permit(state.ctx, request, reply, "agent:read")) return reply;
    return sendJson(reply, request, 200, {
      config: buildConfig(state),
      member: state.gossip?.local() ?? ZERO_MEMBER,
      stats: buildStats(state),
    });
  });
}
