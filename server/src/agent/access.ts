import type { FastifyReply, FastifyRequest } from "fastify";
import type { AclToken, ServerContext } from "../context.js";
import { sendText } from "./http.js";

export type Capability = "node:read" | "agent:read" | "agent:write";

function tokenOf(ctx: ServerContext, request: FastifyRequest): AclToken | undefined {
  return ctx.acl.resolve(request.headers);
}

/**
 * With ACLs enabled, the request's token must grant `capability`; otherwise the answer is
 * 403 `Permission denied` and this returns false. With ACLs disabled everything passes.
 */
export function permit(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply, capability: Capability): boolean {
  if (ctx.acl.allows(tokenOf(ctx, request), capability)) return true;
  sendText(reply, 403, "Permission denied");
  return false;
}

/**
 * The host endpoint's rule (the scheduler's AllowAgentDebug): with ACLs enabled an `agent:read` token;
 * with ACLs disabled only when `enable_debug` is on.
 */
export function permitDebugRead(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply): boolean {
  const allowed = ctx.acl.enabled ? ctx.acl.allows(tokenOf(ctx, request), "agent:read") : ctx.options.enableDebug;
  if (allowed) return true;
  sendText(reply, 403, "Permission denied");
  return false;
}

/**
 * The pprof availability table: reachable when `enable_debug` is on or ACLs are enabled, and with
 * ACLs enabled only for an `agent:write` token.
 */
export function pprofAvailable(ctx: ServerContext, token: AclToken | undefined): boolean {
  if (ctx.acl.enabled) return ctx.acl.allows(token, "agent:write");
  return ctx.options.enableDebug;
}

export function permitPprof(ctx: ServerContext, request: FastifyRequest, reply: FastifyReply): boolean {
  if (pprofAvailable(ctx, tokenOf(ctx, request))) return true;
  sendText(reply, 403, "Permission denied");
  return false;
}
