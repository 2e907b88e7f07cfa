import type { FastifyPluginAsync } from "fastify";
import type { ServerContext } from "../context.js";
import { markSigned } from "./access.js";
import { serversRoutes } from "./client/routes.js";
import { GossipAuth } from "./gossip/auth.js";
import { sendText } from "./http.js";
import { gossipRoutes } from "./gossip/routes.js";
import { healthRoutes } from "./health.js";
import { hostRoutes } from "./host/routes.js";
import { monitorRoutes } from "./monitor/routes.js";
import { pprofRoutes } from "./pprof/routes.js";
import { schedulerRoutes } from "./schedulers/routes.js";
import { selfRoutes } from "./self/routes.js";
import { createAgentState } from "./state.js";

export { configureAgent } from "./settings.js";
export type { AgentSettings } from "./settings.js";

/**
 * The /v1/agent endpoints (registered by the app at prefix /v1/agent). State (gossip members, the
 * client's server list, the scheduler worker configuration) lives as long as this server.
 */
export function agentRoutes(ctx: ServerContext): FastifyPluginAsync {
  return async (app) => {
    const state = createAgentState(ctx, app);
    // A request that says it comes from another agent must be signed with the gossip key: then it
    // carries the original caller's rights (never a token). One that does not verify is refused.
    app.addHook("preHandler", async (request, reply) => {
      if (!GossipAuth.isSigned(request.headers)) return;
      const body = request.body === undefined ? "" : JSON.stringify(request.body);
      const verdict = state.auth.verifyRequest(request.method, request.url, request.headers, body);
      if (!verdict.ok) {
        state.log.warn({ url: request.url.split("?", 1)[0], reason: verdict.reason }, "refused a server-to-server request");
        return sendText(reply, 403, `Permission denied: ${verdict.reason}`);
      }
      markSigned(request, { caller: verdict.caller, nonce: verdict.nonce, sentAt: verdict.sentAt });
    });
    gossipRoutes(app, state);
    serversRoutes(app, state);
    selfRoutes(app, state);
    healthRoutes(app, state);
    hostRoutes(app, state);
    monitorRoutes(app, state);
    pprofRoutes(app, state);
    schedulerRoutes(app, state);

    app.addHook("onReady", async () => {
      state.gossip?.start();
    });
    // Open streams would hold the listener open: end them before it closes.
    app.addHook("preClose", async () => {
      state.gossip?.stop();
      for (const close of [...state.closers]) close();
    });
    app.addHook("onClose", async () => {
      state.gossip?.stop();
    });
  };
}
