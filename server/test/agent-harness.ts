import type { FastifyInstance } from "fastify";
import type { AddressInfo } from "node:net";
import { TokenAcl } from "../src/acl.js";
import { configureAgent } from "../src/agent/index.js";
import { buildApp } from "../src/app.js";
import { type AclToken, DEFAULT_OPTIONS, newLogEvents, type ServerContext } from "../src/context.js";
import { configureRuns } from "../src/runs/index.js";
import { MemoryStore } from "../src/store/memory/index.js";
import { SchedulerState } from "../src/store/memory/state.js";
import { until } from "../../test/support/wait.js";
import { snapshotOf } from "../src/lists/records.js";

/** Tokens of the ACL-enabled agents in these tests. */
export const TOKENS = {
  management: { SecretID: "11111111-0000-4000-8000-000000000001", Name: "root", Management: true, Capabilities: [] },
  nodeRead: { SecretID: "11111111-0000-4000-8000-000000000002", Name: "node-read", Capabilities: ["node:read"] },
  agentRead: { SecretID: "11111111-0000-4000-8000-000000000003", Name: "agent-read", Capabilities: ["agent:read"] },
  agentWrite: { SecretID: "11111111-0000-4000-8000-000000000004", Name: "agent-write", Capabilities: ["agent:write"] },
  nothing: { SecretID: "11111111-0000-4000-8000-000000000005", Name: "nothing", Capabilities: [] },
} satisfies Record<string, AclToken>;

/** The gossip key every agent of these tests shares unless a test gives its own (base64 of 32 bytes). */
export const TEST_GOSSIP_KEY = Buffer.alloc(32, 7).toString("base64");

export interface AgentOptions {
  mode?: "server" | "client";
  nodeName?: string;
  enableDebug?: boolean;
  /** turns ACLs on with these tokens */
  tokens?: AclToken[];
  probeIntervalMs?: number;
  probeTimeoutMs?: number;
  logLevel?: "trace" | "debug" | "info" | "warn" | "error";
  /** gossip key (base64); TEST_GOSSIP_KEY by default, null for none (a random key per start) */
  gossipKey?: string | null;
  maxMembers?: number;
  reapAfterMs?: number;
}

export interface Agent {
  base: string;
  /** ip:port of the API listener */
  address: string;
  port: number;
  ctx: ServerContext;
  app: FastifyInstance;
  close(): Promise<void>;
}

const running = new Set<Agent>();

/** A reference server built by the real app builder, listening on 127.0.0.1 on a free port. */
export async function startAgent(options: AgentOptions = {}): Promise<Agent> {
  const ctx: ServerContext = {
    options: {
      ...DEFAULT_OPTIONS,
      port: 0,
      opsPort: 0,
      mode: options.mode ?? "server",
      nodeName: options.nodeName ?? "agent-test",
      enableDebug: options.enableDebug ?? false,
      logLevel: options.logLevel ?? "error",
      ...(options.gossipKey === null ? {} : { gossipKey: options.gossipKey ?? TEST_GOSSIP_KEY }),
    },
    acl: new TokenAcl(options.tokens),
    version: { Version: "0.1.0", VersionPrerelease: "dev" },
    startedAt: new Date(),
    logEvents: newLogEvents(),
  };
  // The apply resource prints a generated token at start; these tests do not use it.
  configureRuns(ctx, { announce: () => undefined });
  configureAgent(ctx, {
    probeIntervalMs: options.probeIntervalMs ?? 50,
    // Far above what a probe, a join or a ping takes on a busy machine, so that no live peer is ever
    // taken for failed: the peers these tests fail are closed (their connections refused at once);
    // a test that needs a probe to time out gives its own (member-flood.test.ts).
    probeTimeoutMs: options.probeTimeoutMs ?? 30_000,
    ...(options.maxMembers === undefined ? {} : { maxMembers: options.maxMembers }),
    ...(options.reapAfterMs === undefined ? {} : { reapAfterMs: options.reapAfterMs }),
  });
  const app = await buildApp(ctx, { scheduler: new MemoryStore(new SchedulerState(snapshotOf({}))) });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const port = (app.server.address() as AddressInfo).port;
  let closed = false;
  const agent: Agent = {
    base: `http://127.0.0.1:${port}`,
    address: `127.0.0.1:${port}`,
    port,
    ctx,
    app,
    async close() {
      if (closed) return;
      closed = true;
      running.delete(agent);
      const closing = app.close();
      // fetch may leave a connection that never sends a request (it reconnects after an aborted
      // stream); the listener would wait for it, so cut what is left once the close has begun.
      const cut = setTimeout(() => app.server.closeAllConnections(), 200);
      await closing;
      clearTimeout(cut);
    },
  };
  running.add(agent);
  return agent;
}

/** Closes every agent still running (for afterEach/afterAll). */
export async function closeAll(): Promise<void> {
  await Promise.all([...running].map((a) => a.close()));
}

export function auth(token: AclToken | undefined): Record<string, string> {
  return token === undefined ? {} : { "X-Svc-Token": token.SecretID };
}

/** Polls `check` until it returns a value that is not undefined (test/support/wait.ts). */
export async function eventually<T>(check: () => Promise<T | undefined>, what = "condition"): Promise<T> {
  let value: T | undefined;
  await until(what, async () => (value = await check()) !== undefined, 25);
  return value!;
}

export async function json<T = unknown>(response: Response): Promise<T> {
  return JSON.parse(await response.text()) as T;
}
