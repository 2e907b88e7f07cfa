/** The probes of the attack benchmark (run in `probe-worker.ts`), and their figures. */
import { Worker } from "node:worker_threads";
import type { Server } from "../support.js";
import type { ProbeLog, ProbeResults, ProbeSetup } from "./probe-worker.js";
import { latency, type Latency } from "./stats.js";

/**
 * A probe's figures: its answers' times (a probe still waiting at the window's end counts with its time
 * so far: a frozen server shows in `max`), its answers other than a 200 and its failures.
 */
export interface ProbeFigures extends Latency {
  errors: Record<string, number>;
  /** Milliseconds the probe still waiting at the end had waited, if one was. */
  pending?: number;
}

/** Both probes' figures over the attack's setup and over the window. */
export interface ProbesReport {
  health: ProbeFigures;
  list: ProbeFigures;
  setup: { health: ProbeFigures; list: ProbeFigures };
}

export interface Probes {
  /** Marks the start of the window: what came before is the attack's setup. */
  window(): void;
  /** Stops probing. */
  stop(): Promise<ProbesReport>;
}

function figures(log: ProbeLog): ProbeFigures {
  const times = log.pending === undefined ? log.times : [...log.times, log.pending];
  return { ...latency(times), errors: log.errors, ...(log.pending === undefined ? {} : { pending: log.pending }) };
}

/** Probes `server` every `intervalMs` from 127.0.0.1 until `stop`; resolves once each probe has had an answer. */
export async function startProbes(server: Server, intervalMs: number): Promise<Probes> {
  const setup: ProbeSetup = { health: `${server.ops}/health`, list: `${server.api}/v1/jobs?per_page=1`, intervalMs };
  // The worker loads TypeScript through tsx's API: a worker does not inherit the main thread's loader.
  const tsx = import.meta.resolve("tsx/esm/api");
  const file = new URL("./probe-worker.ts", import.meta.url).href;
  const worker = new Worker(`import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(file)}); })`, { eval: true, workerData: setup });
  const failed = new Promise<never>((_, reject) => worker.once("error", reject));
  failed.catch(() => undefined); // seen by `stop`
  await Promise.race([new Promise((resolve) => worker.once("message", resolve)), failed]);
  return {
    window: () => worker.postMessage("window"),
    async stop() {
      const results = new Promise<ProbeResults>((resolve) => worker.once("message", resolve));
      worker.postMessage("stop");
      const r = await Promise.race([results, failed]);
      await worker.terminate();
      return {
        health: figures(r.health.window),
        list: figures(r.list.window),
        setup: { health: figures(r.health.setup), list: figures(r.list.setup) },
      };
    },
  };
}
