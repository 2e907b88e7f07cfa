import type { FastifyReply, FastifyRequest } from "fastify";
import type { AclToken, ServerContext } from "../context.js";
import { tokenOfRights } from "./gossip/auth.js";
import type { Signed } from "./gossip/auth.js";
import { sendText } from "./http.js";

export type Capability = "node:read" | "agent:read" | "agent:write";

/** Requests signed with the gossip key, with the caller rights they carry (set by the agent's hook). */
const signedRequests = new WeakMap<FastifyRequest, Signed>();

/** Marks a request whose gossip signature was verified. */
export function markSigned(request: FastifyRequest, signed: Signed): void {
  signedRequests.set(request, signed);
}

/** The verified signature of a request signed with the gossip key, or undefined. */
export function signedBy(request: FastifyRequest): Signed | undefined {
  return signedRequests.get(request);
}

/**
 * Whose rights a request carries: for a request another agent forwarded (signed with the gossip key),
 * the original caller's rights as that agent resolved them from the caller's token; otherwise the
 * token of the request itself.
 */
export function tokenOf(ctx: ServerContext, request: FastifyRequest): AclToken | undefined {
  const signed = signedRequests.get(request);
  if (signed !== undefined) return signed.caller === undefined ? undefined : tokenOfRights(signed.caller);
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
