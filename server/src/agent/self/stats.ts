import { availableParallelism, platform } from "node:os";
import type { AgentState } from "../state.js";
import { joinHostPort } from "../identity.js";

type Section = Record<string, string>;

/** Milliseconds as a Go duration string (`1.5s`, `250ms`, `0s`). */
export function goDuration(ms: number): string {
  if (ms <= 0) return "0s";
  if (ms < 1000) return `${Math.round(ms * 1000) / 1000}ms`;
  const totalSeconds = ms / 1000;
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = Math.round((totalSeconds % 60) * 1000) / 1000;
  return `${hours > 0 ? `${hours}h` : ""}${hours > 0 || minutes > 0 ? `${minutes}m` : ""}${seconds}s`;
}

/** Figures of this Node.js process: the seed's runtime keys (goroutines = active async resources) and memory. */
export function runtimeStats(startedAt: Date): Section {
  const memory = process.memoryUsage();
  const cpus = String(availableParallelism());
  const usage = process.cpuUsage();
  return {
    arch: process.arch,
    "cpu_count": cpus,
    goroutines: String(process.getActiveResourcesInfo().length),
    "kernel.name": platform(),
    "max_procs": cpus,
    version: process.version,
    "heap_alloc": String(memory.heapUsed),
    "heap_total": String(memory.heapTotal),
    "rss": String(memory.rss),
    "external": String(memory.external),
    "array_buffers": String(memory.arrayBuffers),
    "cpu_user_us": String(usage.user),
    "cpu_system_us": String(usage.system),
    "process_uptime": goDuration(process.uptime() * 1000),
    "agent_uptime": goDuration(Date.now() - startedAt.getTime()),
    "pid": String(process.pid),
  };
}

/** stats of GET /agent/self: svc, raft, gossip and runtime on a server; client and runtime on a client. */
export function buildStats(state: AgentState): Record<string, Section> {
  const { ctx, id } = state;
  const runtime = runtimeStats(ctx.startedAt);
  if (state.gossip !== undefined) {
    const self = state.gossip.local();
    const address = joinHostPort(self.Addr, self.Port);
    const counts = state.gossip.counts();
    return {
      gossip: {
        encrypted: "true",
        event_queue: "0",
        event_time: "1",
        failed: String(counts.failed),
        health_score: "0",
        intent_queue: "0",
        left: String(counts.left),
        member_time: String(state.gossip.memberTime()),
        members: String(state.gossip.members().length),
        query_queue: "0",
        query_time: "1",
      },
      raft: {
        applied_index: "1",
        commit_index: "1",
        fsm_pending: "0",
        last_contact: "0",
        last_log_index: "1",
        last_log_term: "1",
        last_snapshot_index: "0",
        last_snapshot_term: "0",
        latest_configuration: `[{Suffrage:Voter ID:${id.memberName} Address:${address}}]`,
        latest_configuration_index: "0",
        num_peers: "0",
        snapshot_version_max: "1",
        state: "Leader",
        term: "1",
      },
      runtime,
      svc: { bootstrap: "true", known_regions: "1", leader: "true", leader_addr: address, server: "true" },
    };
  }
  const servers = state.servers?.list() ?? [];
  const since = state.servers?.sinceContact();
  return {
    client: {
      heartbeat_ttl: "10s",
      known_servers: servers.join(","),
      last_heartbeat: since === undefined ? "" : goDuration(since),
      node_id: id.nodeId,
      num_allocations: "0",
    },
    runtime,
  };
}

