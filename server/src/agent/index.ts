import type { FastifyPluginAsync } from "fastify";
import type { ServerContext } from "../context.js";
import { serversRoutes } from "./client/routes.js";
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
