import type { FastifyPluginAsync } from "fastify";
import type { ServerContext } from "../context.js";

/** Placeholder: the agent endpoints are being written in this folder. */
export function agentRoutes(_ctx: ServerContext): FastifyPluginAsync {
  return async () => {};
}
