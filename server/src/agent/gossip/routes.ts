import type { FastifyInstance } from "fastify";
import { permit, signedBy, tokenOf } from "../access.js";
import { handleRemote } from "../forward.js";
import { ParseBoolError, parseGoBool, parseIpPort, queryOf, sendEmpty, sendJson, sendText } from "../http.js";
import type { AgentState } from "../state.js";
import { readMember } from "./member.js";
import { MemberRefused, multiError } from "./pool.js";

/** members, join, force-leave and the internal gossip route the pool talks over. */
export function gossipRoutes(app: FastifyInstance, state: AgentState): void {
  const { ctx } = state;

  app.get("/members", async (request, reply) => {
    if (!permit(ctx, request, reply, "node:read")) return reply;
    if (state.gossip === undefined) {
      // A client asks one of its servers, as the scheduler's client does over RPC.
      const server = state.servers?.list()[0];
      if (server === undefined) return sendText(reply, 503, "no known servers");
      await handleRemote(state, request, reply, { kind: "remote", address: server, drop: [] });
      return reply;
    }
    return sendJson(reply, request, 200, {
      Members: state.gossip.members(),
      ServerDC: ctx.options.datacenter,
      ServerName: ctx.options.nodeName,
      ServerRegion: ctx.options.region,
    });
  });

  app.route({
    method: ["PUT", "POST"],
    url: "/join",
    handler: async (request, reply) => {
      if (state.gossip === undefined) return sendText(reply, 501, "Invalid method");
      const addresses = queryOf(request).getAll("address");
      if (addresses.length === 0) return sendText(reply, 400, "missing address to join");
      // Members come only from a caller with agent:write or from a signed announcement: the
      // anonymous join the scheduler still warns about is refused here.
      if (!ctx.acl.allows(tokenOf(ctx, request), "agent:write")) return sendText(reply, 403, "Permission denied");
      const bad = addresses.find((a) => parseIpPort(a) === undefined);
      if (bad !== undefined) return sendText(reply, 400, `invalid address ${JSON.stringify(bad)}: expected ip:port`);
      const result = await state.gossip.join(addresses);
      const body: Record<string, unknown> = { error: multiError(result.errors), num_joined: result.joined };
      state.log.info({ addresses, joined: result.joined }, `joined ${result.joined} of ${addresses.length} addresses`);
      return sendJson(reply, request, 200, body);
    },
  });

  app.route({
    method: ["PUT", "POST"],
    url: "/force-leave",
    handler: async (request, reply) => {
      if (state.gossip === undefined) return sendText(reply, 501, "Invalid method");
      if (!permit(ctx, request, reply, "agent:write")) return reply;
      const query = queryOf(request);
      const node = query.get("node") ?? "";
      if (node === "") return sendText(reply, 400, "missing node to force leave");
      let prune = false;
      const rawPrune = query.get("prune");
      if (rawPrune !== null) {
        try {
          prune = parseGoBool(rawPrune);
        } catch (e) {
          if (e instanceof ParseBoolError) return sendText(reply, 400, "invalid prune value");
          throw e;
        }
      }
      state.gossip.forceLeave(node, prune);
      return sendEmpty(reply);
    },
  });

  // Internal: the pool's own protocol. GET tells who this server is; POST announces the caller
  // (join or probe) and answers with this server's view. Servers only; no ACL, but every message must
  // be signed with the gossip key (checked by the agent's hook), and every answer is signed.
  app.route({
    method: ["GET", "POST"],
    url: "/gossip",
    handler: async (request, reply) => {
      if (state.gossip === undefined) return sendText(reply, 400, "Server only endpoint");
      const signed = signedBy(request);
      if (signed === undefined) return sendText(reply, 403, "Permission denied: gossip messages must be signed with the gossip key");
      const answer = (status: number, text: string, type: string) =>
        reply.code(status).headers(state.auth.signResponse(signed.nonce, status, text)).type(type).send(text);
      if (request.method === "GET") return answer(200, JSON.stringify({ member: state.gossip.local() }), "application/json");
      const announced = readMember((request.body as { member?: unknown } | undefined)?.member);
      if (announced === undefined) return answer(400, "invalid gossip message", "text/plain; charset=utf-8");
      try {
        return answer(200, JSON.stringify(state.gossip.receive(announced, signed.sentAt)), "application/json");
      } catch (e) {
        if (!(e instanceof MemberRefused)) throw e;
        state.log.warn({ member: announced.Name }, e.message);
        return answer(e.status, e.message, "text/plain; charset=utf-8");
      }
    },
  });
}
