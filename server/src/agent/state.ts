import { availableParallelism } from "node:os";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import type { ServerContext } from "../context.js";
import { ServerList } from "./client/servers.js";
import { GossipAuth, parseGossipKey, randomGossipKey } from "./gossip/auth.js";
import { GossipPool } from "./gossip/pool.js";
import { makeIdentity } from "./identity.js";
import type { Identity } from "./identity.js";
import { SchedulerPool } from "./schedulers/pool.js";
import { agentSettings } from "./settings.js";
import type { AgentSettings } from "./settings.js";

/** Per-process agent state: lasts as long as this server runs, gone at a restart. */
export interface AgentState {
  readonly ctx: ServerContext;
  readonly id: Identity;
  readonly settings: AgentSettings;
  readonly log: FastifyBaseLogger;
  /** Signs and checks server-to-server traffic with the gossip key. */
  readonly auth: GossipAuth;
  /** server mode only */
  readonly gossip: GossipPool | undefined;
  /** server mode only */
  readonly schedulers: SchedulerPool | undefined;
  /** client mode only */
  readonly servers: ServerList | undefined;
  /** Ends open streams (monitor, forwarded answers) when the server closes. */
  readonly closers: Set<() => void>;
}

export function createAgentState(ctx: ServerContext, app: FastifyInstance): AgentState {
  const id = makeIdentity(ctx, () => app.server.address());
  const settings = agentSettings(ctx);
  const log = app.log.child({ module: "agent" });
  const key = ctx.options.gossipKey;
  const auth = new GossipAuth(key === undefined ? randomGossipKey() : parseGossipKey(key));
  return {
    ctx,
    id,
    settings,
    log,
    auth,
    gossip: id.isServer ? new GossipPool(ctx, id, settings, auth, app.log.child({ module: "agent.gossip" })) : undefined,
    schedulers: id.isServer ? new SchedulerPool(availableParallelism()) : undefined,
    servers: id.isClient ? new ServerList(auth, settings.probeTimeoutMs) : undefined,
    closers: new Set(),
  };
}
