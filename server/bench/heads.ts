/**
 * Request heads of 1 MiB against the server's other clients (loopback only, bounded in time). The
 * server (a child process, its sources, the demo data) meets two attacks from 127.0.0.2, each for
 * SECONDS, while a prober on 127.0.0.1 asks `/health` (the ops listener) and `GET /v1/jobs?per_page=1`
 * every 10 ms, each on a new connection:
 *  1. whole: WHOLE connections at once each write a head of HEAD bytes in one go, and again once all
 *     of them ended (answered, refused or reset);
 *  2. trickle: TRICKLE connections at once each write a head of HEAD bytes a little at a time (160
 *     pieces 50 ms apart: 8 s, within the 10 s headers timeout), and start again when it ended.
 * The attacker runs in a process of its own, so that its work never delays the prober; each phase has
 * a server of its own. Printed per phase (and for an idle phase before them): p50 / p99 / max of both
 * probes and how many failed, how long the server's event loop was held (how late it ran a 5 ms
 * timer, p99 and max: `loop-delay.mjs`, preloaded), the server's CPU seconds (user + system,
 * /proc/PID/stat), its RSS before, at the peak and after, and the attack's heads by outcome (status
 * line, or closed without one). Then (phase `cost`) what one head costs the server, one at a time: its CPU time per head of
 * HEAD bytes, for the bytes in an unknown query parameter, in a header value and in `filter=` (which
 * also pays the filter's compilation), written whole or in 64 pieces 2 ms apart.
 *
 *   npx tsx bench/heads.ts [--seconds 10] [--whole 200] [--trickle 300] [--head 1048576] [--in query|header]
 *                          [--phases idle,whole,trickle,cost] [--target /v1/jobs?per_page=1]
 *
 * `--in query` puts the bytes in an unknown query parameter of the attack's `--target` (routed, parsed
 * as Go's url.ParseQuery), `--in header` in an `X-Pad` header value.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { cpuSeconds, rssMiB, startServer, type Server } from "./support.js";
import { percentile } from "./attacks/stats.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: "string", default: "10" },
    whole: { type: "string", default: "200" },
    trickle: { type: "string", default: "300" },
    head: { type: "string", default: String(1 << 20) },
    in: { type: "string", default: "query" },
    target: { type: "string", default: "/v1/jobs?per_page=1" },
    phases: { type: "string", default: "idle,whole,trickle,cost" },
    // The attacker's own arguments (the child process).
    api: { type: "string" },
    mode: { type: "string" },
  },
});
const SECONDS = Number(values.seconds);
const HEAD = Number(values.head);
const PLACE = values.in === "header" ? "header" : "query";

/** A GET head of `target` of exactly `bytes` bytes, its padding in a query parameter or a header value. */
function headOf(bytes: number, place: "query" | "header", target: string): Buffer {
  const text = (pad: string): string =>
    place === "query"
      ? `GET ${target}${target.includes("?") ? "&" : "?"}pad=${pad} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`
      : `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Pad: ${pad}\r\n\r\n`;
  return Buffer.from(text("p".repeat(bytes - text("").length)), "latin1");
}

// ---------------------------------------------------------------------------------------------------
// The attacker (a child process): `heads.ts attack --mode whole|trickle --api URL --seconds N …`.

/**
 * One attacking connection from 127.0.0.2: writes `head` (whole, or in `steps` pieces spread over
 * `spreadMs`) and resolves with the status line the server wrote, or how the connection ended.
 */
function attackOnce(api: URL, head: Buffer, steps: number, spreadMs: number, until: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: api.hostname, port: Number(api.port), localAddress: "127.0.0.2" });
    let answer = "";
    let error = "";
    let left = false;
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (d: Buffer) => {
      if (answer.length < 64) answer += d.toString("latin1", 0, Math.min(d.length, 64));
    });
    socket.on("error", (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    socket.on("close", () => {
      clearTimeout(timer);
      const line = answer.split("\r\n")[0] ?? "";
      resolve(line !== "" ? line.replace(/^HTTP\/1\.1 /, "") : left ? "unfinished at the phase's end" : `closed (${error || "no answer"})`);
    });
    socket.on("connect", () => {
      if (steps <= 1) {
        socket.write(head);
        return;
      }
      const piece = Math.ceil(head.length / steps);
      let sent = 0;
      const next = (): void => {
        if (socket.destroyed) return;
        // Past the phase's end: stop sending and leave.
        if (performance.now() > until) {
          left = true;
          return void socket.destroy();
        }
        socket.write(head.subarray(sent, sent + piece));
        sent += piece;
        if (sent < head.length) timer = setTimeout(next, spreadMs / steps);
      };
      next();
    });
  });
}

async function attack(): Promise<void> {
  const api = new URL(values.api ?? "");
  const until = performance.now() + SECONDS * 1000;
  const head = headOf(HEAD, PLACE, values.target);
  const outcomes = new Map<string, number>();
  const count = (o: string): void => void outcomes.set(o, (outcomes.get(o) ?? 0) + 1);
  if (values.mode === "whole") {
    const n = Number(values.whole);
    while (performance.now() < until) {
      for (const o of await Promise.all(Array.from({ length: n }, () => attackOnce(api, head, 1, 0, Infinity)))) count(o);
    }
  } else {
    const n = Number(values.trickle);
    const STEPS = 160;
    const SPREAD_MS = 8000;
    // All at once: every connection's head grows in step with the others.
    await Promise.all(
      Array.from({ length: n }, async () => {
        while (performance.now() < until) count(await attackOnce(api, head, STEPS, SPREAD_MS, until));
      }),
    );
  }
  process.stdout.write(`${JSON.stringify(Object.fromEntries([...outcomes].sort((a, b) => b[1] - a[1])))}\n`);
}

// ---------------------------------------------------------------------------------------------------
// The prober and the report.


/** One probe on a new connection from 127.0.0.1: its latency in ms, or undefined when it failed. */
function probe(url: string): Promise<number | undefined> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(url, { agent: false, localAddress: "127.0.0.1", timeout: 30_000 }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode === 200 ? performance.now() - started : undefined));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(undefined));
    req.end();
  });
}

interface Phase {
  name: string;
  health: number[];
  jobs: number[];
  failed: { health: number; jobs: number };
  cpu: number;
  rss: { before: number; peak: number; after: number };
  /** How late the server's loop ran a 5 ms timer during the phase (`loop-delay.mjs`), ms. */
  loop: { p99: number; max: number } | undefined;
  outcomes: string;
}

/** The file the server's `loop-delay.mjs` writes to (one per run). */
const LOOP_DELAY_FILE = join(mkdtempSync(join(tmpdir(), "filter-server-bench-heads-")), "loop-delay.json");

/** The server's loop delay over the phase: SIGUSR2 starts the count, the next one writes it. */
async function loopDelay(server: Server, start: boolean): Promise<{ p99: number; max: number } | undefined> {
  process.kill(server.pid, "SIGUSR2");
  if (start) return undefined;
  const deadline = Date.now() + 10_000;
  while (!existsSync(LOOP_DELAY_FILE) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  const text = readFileSync(LOOP_DELAY_FILE, "utf8");
  return JSON.parse(text) as { p99: number; max: number };
}

/** Probes both listeners every 10 ms while `work` runs; the server's CPU and RSS around it. */
async function phase(server: Server, name: string, work: () => Promise<string>): Promise<Phase> {
  const result: Phase = { name, health: [], jobs: [], failed: { health: 0, jobs: 0 }, cpu: 0, rss: { before: rssMiB(server.pid), peak: 0, after: 0 }, loop: undefined, outcomes: "" };
  result.rss.peak = result.rss.before;
  const cpu = cpuSeconds(server.pid);
  await loopDelay(server, true);
  const probes: Promise<void>[] = [];
  const tick = setInterval(() => {
    probes.push(probe(`${server.ops}/health`).then((ms) => (ms === undefined ? void result.failed.health++ : void result.health.push(ms))));
    probes.push(probe(`${server.api}/v1/jobs?per_page=1`).then((ms) => (ms === undefined ? void result.failed.jobs++ : void result.jobs.push(ms))));
  }, 10);
  const memory = setInterval(() => (result.rss.peak = Math.max(result.rss.peak, rssMiB(server.pid))), 100);
  try {
    result.outcomes = await work();
  } finally {
    clearInterval(tick);
    clearInterval(memory);
  }
  await Promise.all(probes);
  result.loop = await loopDelay(server, false);
  result.cpu = cpuSeconds(server.pid) - cpu;
  result.rss.after = rssMiB(server.pid);
  result.rss.peak = Math.max(result.rss.peak, result.rss.after);
  return result;
}

/** The attacker as a child process; resolves with its outcome counts once it ended. */
function runAttacker(server: Server, mode: "whole" | "trickle"): Promise<string> {
  const args = ["--import", "tsx", fileURLToPath(import.meta.url), "attack", "--mode", mode, "--api", server.api, "--seconds", String(SECONDS), "--whole", String(values.whole), "--trickle", String(values.trickle), "--head", String(HEAD), "--in", PLACE, "--target", values.target];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on("exit", () => resolve(out.trim())));
}

function line(p: Phase): string {
  const ms = (x: number): string => (Number.isNaN(x) ? "-" : x.toFixed(1));
  const probes = (xs: number[], failed: number): string => `${ms(percentile(xs, 50))} / ${ms(percentile(xs, 99))} / ${ms(Math.max(...xs))} (${xs.length}${failed > 0 ? `, ${failed} failed` : ""})`;
  return `| ${p.name} | ${probes(p.health, p.failed.health)} | ${probes(p.jobs, p.failed.jobs)} | ${p.loop === undefined ? "-" : `${ms(p.loop.p99)} / ${ms(p.loop.max)}`} | ${p.cpu.toFixed(2)} | ${p.rss.before} / ${p.rss.peak} (+${p.rss.peak - p.rss.before}) / ${p.rss.after} | ${p.outcomes} |`;
}

/** One head from `from`, written whole (`pieces` 1) or in pieces 2 ms apart; the status line answered. */
async function sendHead(base: string, from: string, head: Buffer, pieces: number): Promise<string> {
  const api = new URL(base);
  const socket = connect({ host: api.hostname, port: Number(api.port), localAddress: from });
  let answer = "";
  socket.on("data", (d: Buffer) => (answer += d.toString("latin1", 0, Math.min(d.length, 64))));
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve) => socket.once("connect", resolve));
  const size = Math.ceil(head.length / pieces);
  for (let at = 0; at < head.length && !socket.destroyed; at += size) {
    socket.write(head.subarray(at, at + size));
    if (at + size < head.length) await new Promise((r) => setTimeout(r, 2));
  }
  await closed;
  return (answer.split("\r\n")[0] ?? "").replace(/^HTTP\/1\.1 /, "") || "closed";
}

/** What one head costs the server (CPU ms per head, one head at a time), per place of its bytes and way of writing. */
async function costs(): Promise<string[]> {
  const server = await startServer([]);
  const lines = ["| head of HEAD bytes, one at a time | whole: server CPU ms / head | in 64 pieces: server CPU ms / head | answers |", "|---|---|---|---|"];
  const filterHead = (bytes: number): Buffer => {
    const text = (pad: string): string => `GET /v1/jobs?per_page=1&filter=ID+%3D%3D+%22x%22${pad} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`;
    return Buffer.from(text("+".repeat(bytes - text("").length)), "latin1");
  };
  const kinds: [string, Buffer, number][] = [
    ["unknown query parameter", headOf(HEAD, "query", "/v1/jobs?per_page=1"), 20],
    ["header value", headOf(HEAD, "header", "/v1/jobs?per_page=1"), 20],
    ["`filter=` (compiled: a parse-budget error)", filterHead(HEAD), 5],
  ];
  try {
    for (const [i, [name, head, n]] of kinds.entries()) {
      const perHead: string[] = [];
      const answers = new Map<string, number>();
      for (const pieces of [1, 64]) {
        // A client of its own per kind and way: its share of the loop's time is its own.
        const from = `127.0.0.${10 + 2 * i + (pieces === 1 ? 0 : 1)}`;
        await sendHead(server.api, from, head, pieces);
        const cpu = cpuSeconds(server.pid);
        for (let k = 0; k < n; k++) {
          const status = await sendHead(server.api, from, head, pieces);
          answers.set(status, (answers.get(status) ?? 0) + 1);
        }
        perHead.push((((cpuSeconds(server.pid) - cpu) / n) * 1000).toFixed(1));
      }
      lines.push(`| ${name} | ${perHead[0]} | ${perHead[1]} | ${[...answers].map(([s, c]) => `${c} × ${s}`).join(", ")} |`);
    }
  } finally {
    await server.stop();
  }
  return lines;
}

/** A phase on a server of its own (so that one phase's memory is not the next one's baseline). */
async function onFreshServer(name: string, work: (server: Server) => Promise<string>): Promise<Phase> {
  const server = await startServer([]);
  rmSync(LOOP_DELAY_FILE, { force: true });
  try {
    // Warm both routes up.
    for (let i = 0; i < 20; i++) await Promise.all([probe(`${server.ops}/health`), probe(`${server.api}/v1/jobs?per_page=1`)]);
    return await phase(server, name, () => work(server));
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  // Every server of the run preloads the loop-delay counter (plain JavaScript, before tsx).
  process.env.BENCH_NODE_FLAGS = `${process.env.BENCH_NODE_FLAGS ?? ""} --import ./bench/loop-delay.mjs`;
  process.env.BENCH_LOOP_DELAY_FILE = LOOP_DELAY_FILE;
  const wanted = new Set(values.phases.split(","));
  const phases: Phase[] = [];
  if (wanted.has("idle")) {
    phases.push(
      await onFreshServer("idle", async () => {
        await new Promise((r) => setTimeout(r, Math.min(3, SECONDS) * 1000));
        return "";
      }),
    );
  }
  if (wanted.has("whole")) phases.push(await onFreshServer(`whole × ${values.whole}`, (server) => runAttacker(server, "whole")));
  if (wanted.has("trickle")) phases.push(await onFreshServer(`trickle × ${values.trickle}`, (server) => runAttacker(server, "trickle")));
  const cost = wanted.has("cost") ? await costs() : [];
  if (phases.length > 0) {
    console.log(`heads of ${HEAD} bytes for ${values.target} (in the ${PLACE === "query" ? "query string" : "X-Pad header"}), ${SECONDS} s a phase, from 127.0.0.2; probes from 127.0.0.1 every 10 ms:`);
    console.log("| phase | /health p50 / p99 / max ms (probes) | /v1/jobs?per_page=1 p50 / p99 / max ms (probes) | server loop delay p99 / max ms | server CPU s | RSS MiB before / peak (growth) / after | attack's heads |");
    console.log("|---|---|---|---|---|---|---|");
    for (const p of phases) console.log(line(p));
  }
  if (cost.length > 0) console.log(`\n${cost.join("\n").replaceAll("HEAD", String(HEAD))}`);
}

if (positionals[0] === "attack") await attack();
else await main();
