import type { FastifyInstance } from "fastify";
import { permit } from "../access.js";
import { sendJson, sendText } from "../http.js";
import type { AgentState } from "../state.js";
import { validConfig } from "./pool.js";
import type { SchedulerConfig } from "./pool.js";

/** Reads `{num_schedulers, enabled_schedulers}` (names matched case-insensitively; others ignored). */
function readConfigBody(body: unknown): SchedulerConfig | string {
  if (body === undefined) return "Invalid request: Request body is empty";
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return `Invalid request: json: cannot unmarshal ${Array.isArray(body) ? "array" : typeof body} into Go value of type agent.SchedulerWorkerConfigRequest`;
  }
  let num: unknown;
  let enabled: unknown;
  for (const [key, value] of Object.entries(body)) {
    const lower = key.toLowerCase();
    if (lower === "num_schedulers") num = value;
    else if (lower === "enabled_schedulers") enabled = value;
  }
  if (num !== undefined && num !== null && (typeof num !== "number" || !Number.isInteger(num))) {
    return `Invalid request: json: cannot unmarshal ${typeof num === "number" ? `number ${num}` : typeof num} into Go struct field .num_schedulers of type int`;
  }
  if (enabled !== undefined && enabled !== null && (!Array.isArray(enabled) || !enabled.every((s) => typeof s === "string"))) {
    return "Invalid request: json: cannot unmarshal into Go struct field .enabled_schedulers of type []string";
  }
  return { num_schedulers: typeof num === "number" ? num : 0, enabled_schedulers: Array.isArray(enabled) ? (enabled as string[]) : [] };
}

/** GET /schedulers, GET|PUT|POST /schedulers/config (servers only: 400 `Server only endpoint`). */
export function schedulerRoutes(app: FastifyInstance, state: AgentState): void {
  const { ctx } = state;
  const serverId = (): string => state.gossip?.local().Name ?? state.id.memberName;

  app.get("/schedulers", async (request, reply) => {
    const pool = state.schedulers;
    if (pool === undefined) return sendText(reply, 400, "Server only endpoint");
    if (!permit(ctx, request, reply, "agent:read")) return reply;
    return sendJson(reply, request, 200, { schedulers: pool.view(), server_id: serverId() });
  });

  app.route({
    method: ["GET", "PUT", "POST"],
    url: "/schedulers/config",
    // Server check and ACL come before the body is read: a bad token with a bad body is a 403.
    onRequest: async (request, reply) => {
      if (state.schedulers === undefined) return sendText(reply, 400, "Server only endpoint");
      if (!permit(ctx, request, reply, request.method === "GET" ? "agent:read" : "agent:write")) return reply;
      return undefined;
    },
    handler: async (request, reply) => {
      const pool = state.schedulers;
      if (pool === undefined) return sendText(reply, 400, "Server only endpoint");
      if (request.method !== "GET") {
        const next = readConfigBody(request.body);
        if (typeof next === "string") return sendText(reply, 400, next);
        if (!validConfig(next, pool.cpuCount)) return sendText(reply, 400, "Invalid request");
        pool.apply(next);
        state.log.info({ config: pool.current() }, "scheduler worker configuration updated");
      }
      return sendJson(reply, request, 200, { ...pool.current(), server_id: serverId() });
    },
  });
}
