/**
 * The server under attack (issue 39), by hand on loopback, not part of the tests: for each attack a
 * fresh server (a child process from its sources, its default bounds: no `--filter-budget` of the other
 * benchmarks), the attack from 127.0.0.2 for a fixed window while a prober from 127.0.0.1 asks
 * `GET <ops>/health` and `GET <api>/v1/jobs?per_page=1` every 10 ms (each waiting for its previous
 * answer, on a keep-alive connection; the goal: p99 ≤ 100 ms and ≤ 200 ms). Per attack: both probes'
 * p50/p99/max and errors, the server's CPU seconds over the window and over the 2 s after the attack
 * closed its connections (work it did not stop), its resident memory before and after, what the
 * attack's requests got (5xx counted apart), the writes' latencies where the attack writes, streams
 * opened and cut, and the machine's load average at the window's start and end.
 *
 *   npx tsx bench/attacks.ts [--seconds 15] [--attacks streams,scan,scan-wait,parens,waiters,one-client-streams]
 *                            [--store memory|postgres|both] [--database postgres://…] [--jobs 100000]
 *                            [--waiters 3000] [--json FILE]                                   (in server/)
 *
 * The attacks (bench/attacks/*.ts):
 *  - streams: 256 event streams from one client, each a distinct ~1 KB filter that spends the whole
 *    per-event budget (1,000,000 steps) on each Job event without matching (a stream the server ends
 *    is replaced by a new one); a writer (127.0.0.3) PUTs a job every 500 ms; another client
 *    (127.0.0.4) opens a stream;
 *  - scan: `--jobs` jobs (`--data`); ten `GET /v1/jobs?namespace=*&filter=…` at once whose filter costs
 *    up to 878,915 steps an item, each abandoned by its client after 1 s, renewed for the window;
 *  - scan-wait: the same, each waited for;
 *  - parens: five `filter=` of 100,000 nested parentheses (~200 KB URLs, each its own) at once, renewed;
 *  - waiters: `--blocking-queries page`; `--waiters` blocking queries (wait=5m) with distinct filters no
 *    index skips, 914,080 steps on each written job; then a writer PUTs a job every 500 ms;
 *  - one-client-streams: 256 plain streams from one client (kept as above); another client opens one.
 * An attack that first opens what it holds (streams, waiters) does so before the window (at most
 * `--seconds`; the window starts then anyway), its probes and CPU time reported apart as its setup.
 * `--store` picks the stores every attack runs on (default memory). PostgreSQL: `--database URL` (every
 * attack uses it; the scans seed it with `--data`, which the server does only when it holds no state),
 * else a throw-away cluster of the test helper (Debian's binaries), a fresh database for each attack.
 * `--json FILE` saves the results. A server that has not exited 5 s after SIGTERM is killed, and every
 * server is killed when this script exits or is interrupted.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { setMaxListeners } from "node:events";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { cpuSeconds, rssMiB, type Server } from "./support.js";
import type { Attack, AttackReport } from "./attacks/attack.js";
import { sleep } from "./attacks/http.js";
import { startProbes, type ProbesReport } from "./attacks/probes.js";
import { formatResults, type AttackResult } from "./attacks/report.js";
import { parensAttack, scanAttack, scanWaitAttack } from "./attacks/scans.js";
import { launch, onExit, shutdown } from "./attacks/servers.js";
import { stores, type StoreKind } from "./attacks/stores.js";
import { oneClientStreamsAttack, streamsAttack } from "./attacks/streams.js";
import { waitersAttack } from "./attacks/waiters.js";

const ATTACKS: readonly Attack[] = [streamsAttack, scanAttack, scanWaitAttack, parensAttack, waitersAttack, oneClientStreamsAttack];

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "15" },
    attacks: { type: "string", default: ATTACKS.map((a) => a.name).join(",") },
    store: { type: "string", default: "memory" },
    database: { type: "string" },
    jobs: { type: "string", default: "100000" },
    waiters: { type: "string", default: "3000" },
    json: { type: "string" },
  },
});

const SECONDS = Number(values.seconds);
const PROBE_INTERVAL_MS = 10;
const STOP_GRACE_MS = 5000;
/** The server's CPU time is also read over this long after the attack has closed its connections. */
const AFTER_MS = 2000;
const chosen = values.attacks.split(",").map((name) => {
  const attack = ATTACKS.find((a) => a.name === name.trim());
  if (attack === undefined) throw new Error(`--attacks: unknown attack "${name}" (${ATTACKS.map((a) => a.name).join(", ")})`);
  return attack;
});
const kinds: StoreKind[] = values.store === "both" ? ["memory", "postgres"] : values.store === "memory" || values.store === "postgres" ? [values.store] : [];
if (kinds.length === 0) throw new Error(`--store: expected memory, postgres or both, got "${values.store}"`);
if (!(SECONDS > 0)) throw new Error(`--seconds: expected a positive number, got "${values.seconds}"`);

const log = (line: string): void => console.error(`[attacks] ${line}`);

/** The server's CPU seconds so far (NaN once it is gone). */
function cpu(server: Server): number {
  try {
    return cpuSeconds(server.pid);
  } catch {
    return NaN;
  }
}

function rss(server: Server): number {
  try {
    return rssMiB(server.pid);
  } catch {
    return NaN;
  }
}

/** The checkout's commit (`git describe --always --dirty`), or what the environment's ATTACKS_COMMIT says outside a checkout. */
function describeCommit(): string {
  try {
    return execFileSync("git", ["describe", "--always", "--dirty"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return process.env.ATTACKS_COMMIT ?? "unknown (not a git checkout)";
  }
}

/** The server's figures at a moment. */
interface Reading {
  at: number;
  rss: number;
  load: number[];
  cpu: number;
}

const read = (server: Server): Reading => ({ at: performance.now(), rss: rss(server), load: loadavg(), cpu: cpu(server) });

/**
 * One attack on a fresh server: its setup (at most `SECONDS`), the window, its figures, and the server
 * stopped. The figures at the window's end are read before the attack closes anything.
 */
async function runAttack(attack: Attack, store: StoreKind, args: string[]): Promise<AttackResult> {
  const serverArgs = [...args, ...attack.serverArgs];
  const server = await launch(serverArgs);
  const probes = await startProbes(server, PROBE_INTERVAL_MS);
  const launched = read(server);
  const window = new AbortController();
  setMaxListeners(0, window.signal); // every request of an attack listens to the window's end
  let start: Reading | undefined;
  let end: Reading | undefined;
  let probed: Promise<ProbesReport> | undefined;
  let forced = false;
  let windowTimer: NodeJS.Timeout | undefined;
  const finish = (): void => {
    if (end !== undefined) return;
    end = read(server);
    probed = probes.stop();
    window.abort();
  };
  const begin = (): void => {
    if (start !== undefined) return;
    clearTimeout(setupTimer);
    probes.window();
    start = read(server);
    log(`${attack.name} (${store}): window of ${SECONDS} s begins`);
    windowTimer = setTimeout(finish, SECONDS * 1000);
  };
  const setupTimer = setTimeout(() => {
    forced = true;
    begin();
  }, SECONDS * 1000);
  let report: AttackReport;
  try {
    report = await attack.run({ server, begin, end: window.signal, waiters: Number(values.waiters) });
  } finally {
    clearTimeout(setupTimer);
    clearTimeout(windowTimer);
    begin();
    finish();
  }
  const probesReport = await probed!;
  // Work the server goes on with once every client has gone (abandoned requests it did not stop).
  const quiet = cpu(server);
  await sleep(AFTER_MS);
  const cpuAfter = cpu(server) - quiet;
  const stopped = await shutdown(server, STOP_GRACE_MS);
  log(`${attack.name} (${store}): done; server ${stopped}`);
  if (forced) report.notes.push(`the setup had not finished after ${SECONDS} s: the window began then`);
  return {
    attack: attack.name,
    store: store === "memory" ? "embedded" : "PostgreSQL",
    summary: attack.summary,
    serverArgs: attack.serverArgs,
    seconds: (end!.at - start!.at) / 1000,
    health: probesReport.health,
    list: probesReport.list,
    setup: { seconds: (start!.at - launched.at) / 1000, cpuSeconds: start!.cpu - launched.cpu, health: probesReport.setup.health, list: probesReport.setup.list },
    cpuSeconds: end!.cpu - start!.cpu,
    cpuAfter: { seconds: AFTER_MS / 1000, cpuSeconds: cpuAfter },
    rssMiB: { before: launched.rss, after: end!.rss },
    load: { start: start!.load, end: end!.load },
    report,
    stopped,
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "filter-server-attacks-"));
  onExit(() => rmSync(dir, { recursive: true, force: true }));
  const where = stores(dir, Number(values.jobs), values.database, log);
  const results: AttackResult[] = [];
  try {
    for (const kind of kinds) {
      for (const attack of chosen) results.push(await runAttack(attack, kind, await where.args(kind, attack.dataset)));
    }
  } finally {
    await where.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const commit = describeCommit();
  console.log(`\nfilter-server under attack: ${SECONDS} s windows, probes every ${PROBE_INTERVAL_MS} ms from 127.0.0.1; commit ${commit}; node ${process.version}\n`);
  console.log(formatResults(results));
  if (values.json !== undefined) {
    writeFileSync(values.json, `${JSON.stringify({ commit, node: process.version, seconds: SECONDS, probeIntervalMs: PROBE_INTERVAL_MS, results }, null, 2)}\n`);
    log(`results saved to ${values.json}`);
  }
}

await main();
