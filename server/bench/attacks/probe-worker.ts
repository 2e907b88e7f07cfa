/**
 * The prober of the attack benchmark, in a worker thread of its own so that the attack clients' work
 * on the main thread does not delay its timings: from 127.0.0.1, `GET <ops>/health` and
 * `GET <api>/v1/jobs?per_page=1` every `intervalMs`, each on a keep-alive connection of its own and
 * waiting for the previous answer of its kind. It posts "ready" once each probe has had an answer;
 * the message "window" marks the start of the measured window (what came before is the attack's
 * setup), and "stop" ends probing and posts `ProbeResults`.
 */
import { Agent } from "node:http";
import { parentPort, workerData } from "node:worker_threads";
import { PacedLoop, send, type Outcome } from "./http.js";

/** What the main thread passes (`workerData`). */
export interface ProbeSetup {
  health: string;
  list: string;
  intervalMs: number;
}

/** One probe's outcomes in a phase: the times of its answers (ms), the non-200 ones, and the one still waiting at its end. */
export interface ProbeLog {
  times: number[];
  /** Outcomes other than a 200 (status, or `error:CODE`) and how many. */
  errors: Record<string, number>;
  /** Milliseconds the probe still waiting at the end had waited (the window's log only). */
  pending: number | undefined;
}

/** Each probe's log of the setup (before "window") and of the window. */
export interface ProbeResults {
  health: { setup: ProbeLog; window: ProbeLog };
  list: { setup: ProbeLog; window: ProbeLog };
}

const setup = workerData as ProbeSetup;

let unanswered = 2;
function probe(url: string): PacedLoop {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let first = true;
  return new PacedLoop(
    setup.intervalMs,
    (_i, signal) => send(url, { from: "127.0.0.1", agent, signal }),
    () => {
      if (!first) return;
      first = false;
      if (--unanswered === 0) parentPort!.postMessage("ready");
    },
  );
}

function logOf(outcomes: readonly Outcome[], pending: number | undefined): ProbeLog {
  const errors: Record<string, number> = {};
  const times: number[] = [];
  for (const o of outcomes) {
    if (o.status !== 0) times.push(o.ms);
    if (o.status !== 200) {
      const key = o.status === 0 ? `error:${o.error}` : String(o.status);
      errors[key] = (errors[key] ?? 0) + 1;
    }
  }
  return { times, errors, pending };
}

const health = probe(setup.health);
const list = probe(setup.list);
/** Outcomes of each probe before the window (the first answer, taken when the window began). */
let mark: { health: number; list: number } | undefined;
parentPort!.on("message", async (message: "window" | "stop") => {
  if (message === "window") {
    mark ??= { health: health.outcomes.length, list: list.outcomes.length };
    return;
  }
  mark ??= { health: health.outcomes.length, list: list.outcomes.length };
  const [h, l] = await Promise.all([health.stop(), list.stop()]);
  const phases = (loop: PacedLoop, at: number, pending: number | undefined) => ({ setup: logOf(loop.outcomes.slice(0, at), undefined), window: logOf(loop.outcomes.slice(at), pending) });
  const results: ProbeResults = { health: phases(health, mark.health, h), list: phases(list, mark.list, l) };
  parentPort!.postMessage(results);
});
