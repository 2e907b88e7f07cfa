/** The results of the attack benchmark: one record per attack and store, printed as a table and details. */
import type { AttackReport } from "./attack.js";
import type { ProbeFigures } from "./probes.js";
import { formatLatency, latency, type Tally } from "./stats.js";

export interface AttackResult {
  attack: string;
  store: string;
  summary: string;
  serverArgs: string[];
  /** The window's length (s). */
  seconds: number;
  health: ProbeFigures;
  list: ProbeFigures;
  /** The attack's setup before the window (opening what it holds): its length, the server's CPU seconds, the probes. */
  setup: { seconds: number; cpuSeconds: number; health: ProbeFigures; list: ProbeFigures };
  /** The server's CPU seconds (user + system) over the window. */
  cpuSeconds: number;
  /** The server's CPU seconds over `seconds` after the attack had closed its connections. */
  cpuAfter: { seconds: number; cpuSeconds: number };
  /** Once started (before the setup), and at the window's end. */
  rssMiB: { before: number; after: number };
  /** os.loadavg() at the window's start and end. */
  load: { start: number[]; end: number[] };
  report: AttackReport;
  /** How the server stopped after the window. */
  stopped: string;
}

function probe(p: ProbeFigures): string {
  const errors = Object.entries(p.errors).map(([k, n]) => `${k}×${n}`);
  return `${formatLatency(p)} (${p.n}${errors.length === 0 ? "" : `; ${errors.join(" ")}`}${p.pending === undefined ? "" : "; 1 waiting at end"})`;
}

function writes(t: Tally | undefined): string {
  return t === undefined ? "–" : `${formatLatency(latency(t.times))} (${t.format()})`;
}

const load = (l: number[]): string => l.map((x) => x.toFixed(2)).join(" ");

/** The table (markdown), then each attack's details. */
export function formatResults(results: readonly AttackResult[]): string {
  const lines = [
    "| attack | store | /health p50 / p99 / max ms (probes; errors) | GET /v1/jobs?per_page=1 p50 / p99 / max ms (probes; errors) | server CPU s (in the window; after it) | RSS MiB before → after | load 1 min start → end | attack's requests | their 5xx | PUT p50 / p99 / max ms (outcomes) |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const r of results) {
    const rep = r.report;
    lines.push(
      `| ${r.attack} | ${r.store} | ${probe(r.health)} | ${probe(r.list)} | ${r.cpuSeconds.toFixed(1)} of ${r.seconds.toFixed(0)}; ${r.cpuAfter.cpuSeconds.toFixed(1)} of ${r.cpuAfter.seconds} | ${r.rssMiB.before} → ${r.rssMiB.after} | ${r.load.start[0]!.toFixed(2)} → ${r.load.end[0]!.toFixed(2)} | ${rep.requests.format()} | ${rep.requests.fiveXX} | ${writes(rep.writes)} |`,
    );
  }
  lines.push("");
  for (const r of results) {
    const rep = r.report;
    lines.push(`${r.attack} (${r.store}${r.serverArgs.length === 0 ? "" : `, ${r.serverArgs.join(" ")}`}): ${r.summary}`);
    lines.push(`  attack's requests: ${rep.requests.format()}; answered in p50 / p99 / max ${formatLatency(latency(rep.requests.times))} ms`);
    for (const [status, body] of Object.entries(rep.requests.samples)) lines.push(`    ${status}: ${body}`);
    if (rep.streams !== undefined) {
      const states = Object.entries(rep.streams.states).map(([k, n]) => `${k}×${n}`).join(" ") || "none";
      lines.push(`  streams at the end: ${states}; ${rep.streams.frames} frames and ${rep.streams.heartbeats} heartbeats received`);
      for (const [state, line] of Object.entries(rep.streams.lastLines)) lines.push(`    last line of a stream that ended (${state}): ${line === "" ? "none" : line}`);
    }
    if (rep.other !== undefined) lines.push(`  another client (127.0.0.4), ${rep.other.what}: ${rep.other.outcome} (after ${rep.other.ms.toFixed(0)} ms)`);
    if (rep.writes !== undefined) {
      lines.push(`  PUTs: ${rep.writes.format()}; p50 / p99 / max ${formatLatency(latency(rep.writes.times))} ms`);
      for (const [status, body] of Object.entries(rep.writes.samples)) if (status !== "200") lines.push(`    ${status}: ${body}`);
    }
    for (const note of rep.notes) lines.push(`  ${note}`);
    if (r.setup.seconds >= 0.05) {
      lines.push(`  setup: ${r.setup.seconds.toFixed(1)} s, server CPU ${r.setup.cpuSeconds.toFixed(1)} s; meanwhile /health ${probe(r.setup.health)}, list ${probe(r.setup.list)}`);
    }
    lines.push(`  load average start ${load(r.load.start)}, end ${load(r.load.end)}; server ${r.stopped}`);
  }
  return lines.join("\n");
}
