import type { FastifyInstance } from "fastify";
import { permit } from "../access.js";
import { handleRemote } from "../forward.js";
import { ParseBoolError, parseGoBool, parseIpPort, queryOf, sendEmpty, sendJson, sendText } from "../http.js";
import type { AgentState } from "../state.js";
import { readMember } from "./member.js";
import { multiError } from "./pool.js";

const JOIN_WARNING = "anonymous server join is deprecated and will be removed in a future version";

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
      const bad = addresses.find((a) => parseIpPort(a) === undefined);
      if (bad !== undefined) return sendText(reply, 400, `invalid address ${JSON.stringify(bad)}: expected ip:port`);
      const result = await state.gossip.join(addresses);
      const warned = ctx.acl.enabled && !ctx.acl.allows(ctx.acl.resolve(request.headers), "agent:write");
      const body: Record<string, unknown> = { error: multiError(result.errors), num_joined: result.joined };
      if (warned) body["warning"] = JOIN_WARNING;
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
  // (join or probe) and answers with this server's view. Servers only; no ACL, like a gossip port.
  app.route({
    method: ["GET", "POST"],
    url: "/gossip",
    handler: async (request, reply) => {
      if (state.gossip === undefined) return sendText(reply, 400, "Server only endpoint");
      if (request.method === "GET") return sendJson(reply, request, 200, { member: state.gossip.local() });
      const announced = readMember((request.body as { member?: unknown } | undefined)?.member);
      if (announced === undefined) return sendText(reply, 400, "invalid gossip message");
      return sendJson(reply, request, 200, state.gossip.receive(announced));
    },
  });
}
