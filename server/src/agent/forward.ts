import type { IncomingMessage } from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AgentState } from "./state.js";
import { tokenOf } from "./access.js";
import { rightsOf } from "./gossip/auth.js";
import { joinHostPort } from "./identity.js";
import { queryOf, sendText } from "./http.js";
import { peerRequest } from "./peer.js";

/** Where a request with `server_id` / `node_id` goes: answered here, sent to another agent, or refused. */
export type Target =
  | { kind: "local" }
  | { kind: "remote"; address: string; drop: string[] }
  | { kind: "error"; status: number; message: string };

/**
 * The 400 of a request naming both a server and a node: a parameter error, answered before the
 * caller's token is checked (as the scheduler's HTTP handlers do). Undefined when the parameters agree.
 */
export function conflictingTarget(query: URLSearchParams, bothMessage: string): Extract<Target, { kind: "error" }> | undefined {
  const serverId = query.get("server_id") ?? "";
  const nodeId = query.get("node_id") ?? "";
  return serverId !== "" && nodeId !== "" ? { kind: "error", status: 400, message: bothMessage } : undefined;
}

/**
 * Resolves the `server_id` and `node_id` parameters. Call it only once the caller's token has been
 * checked: whether a server or node exists (404), or a forward, is not for a caller without the right. A server answers for itself (its member name,
 * node name or `leader`: each reference server leads its own cluster) and forwards to an alive peer of
 * its gossip pool; a client answers for its own node id and sends server targets to a known server.
 */
export function resolveTarget(state: AgentState, query: URLSearchParams, bothMessage: string): Target {
  const conflict = conflictingTarget(query, bothMessage);
  if (conflict !== undefined) return conflict;
  const serverId = query.get("server_id") ?? "";
  const nodeId = query.get("node_id") ?? "";
  if (nodeId !== "") {
    if (state.id.isClient && nodeId === state.id.nodeId) return { kind: "local" };
    return { kind: "error", status: 404, message: `Unknown node: ${nodeId}` };
  }
  if (serverId === "") return { kind: "local" };
  if (state.gossip !== undefined) {
    const self = state.gossip.local();
    if (serverId === "leader" || serverId === self.Name || serverId === state.ctx.options.nodeName) return { kind: "local" };
    const peer = state.gossip
      .members()
      .find((m) => m.Status === "alive" && (m.Name === serverId || m.Name.startsWith(`${serverId}.`)));
    if (peer !== undefined) return { kind: "remote", address: joinHostPort(peer.Addr, peer.Port), drop: ["server_id"] };
    return { kind: "error", status: 404, message: `Unknown server: ${serverId}` };
  }
  const server = state.servers?.list()[0];
  if (server === undefined) return { kind: "error", status: 503, message: "no known servers" };
  return { kind: "remote", address: server, drop: [] };
}

/** The caller's token is never passed on: the request is signed with the gossip key and carries the caller's rights. */
const PASSED_HEADERS = ["content-type"];
const RELAYED_HEADERS = ["content-type", "content-disposition", "x-content-type-options"];

/**
 * Sends the request to the agent at `address` over HTTP and streams its answer back as it comes
 * (status, content type and body), until either side goes away. The request authenticates as this
 * agent (signed with the gossip key) and carries the rights this agent resolved from the caller's
 * token; the token itself stays here.
 */
export async function forward(
  state: AgentState,
  request: FastifyRequest,
  reply: FastifyReply,
  address: string,
  drop: readonly string[],
): Promise<void> {
  const query = queryOf(request);
  for (const name of drop) query.delete(name);
  const path = request.url.split("?", 1)[0] ?? "/";
  const search = query.toString();
  const target = `${path}${search === "" ? "" : `?${search}`}`;
  const url = `http://${address}${target}`;
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const headers: Record<string, string> = state.auth.signRequest(request.method, target, body ?? "", rightsOf(tokenOf(state.ctx, request)));
  for (const name of PASSED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const abort = new AbortController();
  const onClose = (): void => abort.abort();
  request.raw.on("close", onClose);
  state.closers.add(onClose);
  let response: IncomingMessage;
  try {
    response = await peerRequest(url, { method: request.method, headers, body, signal: abort.signal, pool: "forward" });
  } catch (e) {
    request.raw.off("close", onClose);
    state.closers.delete(onClose);
    sendText(reply, 502, `failed to forward the request to ${address}: ${(e as Error).message}`);
    return;
  }
  reply.hijack();
  const out: Record<string, string> = {};
  for (const name of RELAYED_HEADERS) {
    const value = response.headers[name];
    if (typeof value === "string") out[name] = value;
  }
  reply.raw.writeHead(response.statusCode ?? 502, out);
  reply.raw.flushHeaders();
  try {
    for await (const chunk of response) {
      if (!reply.raw.write(chunk as Buffer)) {
        await new Promise((resolve) => {
          reply.raw.once("drain", resolve);
          reply.raw.once("close", resolve);
        });
      }
    }
  } catch {
    // The client or the peer went away: end what we have.
  } finally {
    request.raw.off("close", onClose);
    state.closers.delete(onClose);
    reply.raw.end();
  }
}

/** Answers a target that is not local: forwards, or writes the resolution error. Returns false when local. */
export async function handleRemote(state: AgentState, request: FastifyRequest, reply: FastifyReply, target: Target): Promise<boolean> {
  if (target.kind === "local") return false;
  if (target.kind === "error") sendText(reply, target.status, target.message);
  else await forward(state, request, reply, target.address, target.drop);
  return true;
}
