/**
 * What an attack of the benchmark is (bench/attacks.ts), what it reports, and the writer some attacks
 * run beside them. Clients by source address: 127.0.0.1 the prober, .2 the attacker, .3 the writer,
 * .4 another client that wants what the attacker holds, .5 the benchmark's own look at the metrics.
 */
import { Agent } from "node:http";
import type { Server } from "../support.js";
import { PacedLoop, record, send } from "./http.js";
import { Tally } from "./stats.js";

export const ATTACKER = "127.0.0.2";
export const WRITER = "127.0.0.3";
export const OTHER = "127.0.0.4";
export const OBSERVER = "127.0.0.5";

/** The data an attack's server starts with: the demo set, or the large file of the scans (`--data`). */
export type Dataset = "demo" | "scan";

export interface AttackEnv {
  server: Server;
  /**
   * The attack is set up (what it holds is open): the measured window starts now. Called once, at the
   * start by an attack without a setup; the window starts anyway after `--seconds` of setup.
   */
  begin(): void;
  /** Aborted at the window's end. */
  end: AbortSignal;
  /** Blocking queries the `waiters` attack opens. */
  waiters: number;
}

/** Event streams an attack held open: how many, how they ended, what came on them. */
export interface StreamsReport {
  /** Outcomes of the attempts to open one. */
  opening: Tally;
  /** Of those opened: still `open` at the end, `end` (ended by the server), `error:CODE` (cut). */
  states: Record<string, number>;
  /** The last line one stream of each ended state had received (the server's last word to it). */
  lastLines: Record<string, string>;
  frames: number;
  heartbeats: number;
}

export interface AttackReport {
  /** The attack's own requests. */
  requests: Tally;
  /** The writer's PUTs, when the attack has one (a PUT still waiting at the end counts with its time so far). */
  writes?: Tally;
  streams?: StreamsReport;
  /** What another client (127.0.0.4) got when it asked for what the attacker holds. */
  other?: { what: string; outcome: string; ms: number };
  notes: string[];
}

export interface Attack {
  name: string;
  /** One line: what the attacker does. */
  summary: string;
  dataset: Dataset;
  /** Options of the server beyond its defaults. */
  serverArgs: string[];
  /** Runs until `env.end` aborts, then closes every connection it opened. */
  run(env: AttackEnv): Promise<AttackReport>;
}

/** Resolves when `signal` aborts. */
export function ended(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
}

/**
 * The writer (127.0.0.3): `PUT /v1/jobs` of a new service job in dc1 … dc5 every `intervalMs` (each
 * after the previous answer), until `stop`; a PUT still waiting then is `unanswered`, its time so far
 * among the times.
 */
export function startWriter(server: Server, intervalMs = 500): { stop(): Promise<Tally> } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const tally = new Tally();
  const run = `${process.pid}-${Date.now()}`;
  const loop = new PacedLoop(
    intervalMs,
    (i, signal) => {
      const job = { ID: `attack-write-${run}-${i}`, Type: "service", Datacenters: ["dc1", "dc2", "dc3", "dc4", "dc5"], TaskGroups: [{ Name: "g" }] };
      return send(`${server.api}/v1/jobs`, { from: WRITER, method: "PUT", agent, body: JSON.stringify({ Job: job }), signal });
    },
    (out) => record(tally, out),
  );
  return {
    async stop() {
      const pending = await loop.stop();
      if (pending !== undefined) {
        tally.add("unanswered");
        tally.times.push(pending);
      }
      agent.destroy();
      return tally;
    },
  };
}
