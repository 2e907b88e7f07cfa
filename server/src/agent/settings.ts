import type { ServerContext } from "../context.js";

/** Timing of the gossip failure detector; tests shorten it. */
export interface AgentSettings {
  /** How often every known member is probed (milliseconds). */
  probeIntervalMs: number;
  /** How long one probe (or one join attempt) may take before the member counts as not answering. */
  probeTimeoutMs: number;
}

export const DEFAULT_AGENT_SETTINGS: AgentSettings = { probeIntervalMs: 1000, probeTimeoutMs: 500 };

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
  };
}
