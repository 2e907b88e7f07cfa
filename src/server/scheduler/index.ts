import type { FastifyPluginAsync } from "fastify";
import type { ServerContext } from "../context.js";
import type { SchedulerState } from "./state.js";

/** GET/PUT /v1/jobs and GET /v1/deployments (registered at prefix /v1). */
export function schedulerRoutes(_ctx: ServerContext, _state: SchedulerState): FastifyPluginAsync {
  return async () => {};
}
