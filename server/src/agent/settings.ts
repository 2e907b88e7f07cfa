import type { ServerContext } from "../context.js";

/** Timing and bounds of the gossip pool; tests shorten them. */
export interface AgentSettings {
  /** How often one member is probed (milliseconds): one member per interval, round-robin. */
  probeIntervalMs: number;
  /** How long one probe (or one join attempt) may take before the member counts as not answering. */
  probeTimeoutMs: number;
  /** Most peers in the member list (this server not counted). */
  maxMembers: number;
  /** A failed or left member is forgotten this long after it failed or left. */
  reapAfterMs: number;
}

/** Peers a server keeps at most. */
export const MAX_MEMBERS = 512;
/** Failed and left members are forgotten after 24 hours, as the scheduler's reconnect_timeout. */
export const REAP_AFTER_MS = 24 * 60 * 60 * 1000;

export const DEFAULT_AGENT_SETTINGS: AgentSettings = { probeIntervalMs: 1000, probeTimeoutMs: 500, maxMembers: MAX_MEMBERS, reapAfterMs: REAP_AFTER_MS };

const overrides = new WeakMap<ServerContext, Partial<AgentSettings>>();

/** Sets agent settings for a context before its app is built (used by tests and embedders). */
export function configureAgent(ctx: ServerContext, settings: Partial<AgentSettings>): void {
  overrides.set(ctx, { ...overrides.get(ctx), ...settings });
}

function positive(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The settings in force: those given to configureAgent(), else the defaults. */
export function agentSettings(ctx: ServerContext): AgentSettings {
  const set = overrides.get(ctx) ?? {};
  return {
    probeIntervalMs: positive(set.probeIntervalMs) ?? DEFAULT_AGENT_SETTINGS.probeIntervalMs,
    probeTimeoutMs: positive(set.probeTimeoutMs) ?? DEFAULT_AGENT_SETTINGS.probeTimeoutMs,
    maxMembers: Math.floor(positive(set.maxMembers) ?? DEFAULT_AGENT_SETTINGS.maxMembers),
    reapAfterMs: positive(set.reapAfterMs) ?? DEFAULT_AGENT_SETTINGS.reapAfterMs,
  };
}
