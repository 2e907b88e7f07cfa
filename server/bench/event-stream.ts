/**
 * Event streams over loopback: the server (a child process, its sources, no jobs at the start) with
 * STREAMS filtered streams open (`Key == "bench-<i>"`: each tails one job; one in ten also
 * `Payload.Job.Priority == 50 and Key == …`, which the index cannot skip by its first leaf), then
 * WRITES sequential `PUT /v1/jobs`, each registering one of the tailed jobs. For each write, the
 * delivery latency is the time from sending the PUT to its frame arriving on the stream that tails
 * that job; the summary gives p50/p99 and the writes (events) per second end to end.
 *
 *   npx tsx bench/event-stream.ts [STREAMS] [WRITES]      (in server/; defaults 1000 and 1000)
 */
import { request, type IncomingMessage } from "node:http";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "./support.js";

const STREAMS = Number(process.argv[2] ?? 1000);
const WRITES = Number(process.argv[3] ?? 1000);

const dir = mkdtempSync(join(tmpdir(), "filter-server-bench-events-"));
const data = join(dir, "data.json");
writeFileSync(data, JSON.stringify({ jobs: [], deployments: [] }));
// Every stream of the bench comes from one loopback address: no per-client bound.
const server = await startServer(["--data", data, "--event-streams", String(STREAMS + 10), "--event-streams-per-client", "0"]);

/** Arrival time of each index's frame, per job key. */
const arrivals = new Map<string, Map<number, number>>();

function openStream(key: string, filter: string): Promise<IncomingMessage> {
  const url = `${server.api}/v1/event/stream?topic=Job&filter=${encodeURIComponent(filter)}`;
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`stream ${key}: ${res.statusCode}`));
      let buf = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        buf += chunk;
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          const frame = JSON.parse(line) as { Index?: number; Events?: { Key: string }[] };
          if (frame.Index === undefined) continue;
          for (const e of frame.Events ?? []) {
            let m = arrivals.get(e.Key);
            if (m === undefined) arrivals.set(e.Key, (m = new Map()));
            m.set(frame.Index, performance.now());
          }
        }
      });
      resolve(res);
    });
    req.on("error", reject);
    req.end();
  });
}

function put(job: Record<string, unknown>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.api}/v1/jobs`, { method: "PUT", headers: { "Content-Type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => (res.statusCode === 200 ? resolve((JSON.parse(text) as { Index: number }).Index) : reject(new Error(`PUT ${res.statusCode}: ${text}`))));
    });
    req.on("error", reject);
    req.end(JSON.stringify({ Job: job }));
  });
}

const streams: IncomingMessage[] = [];
for (let i = 0; i < STREAMS; i++) {
  const key = `bench-${i}`;
  streams.push(await openStream(key, i % 10 === 9 ? `Payload.Job.Priority == 50 and Key == "${key}"` : `Key == "${key}"`));
}

const latencies: number[] = [];
const started = performance.now();
for (let w = 0; w < WRITES; w++) {
  const key = `bench-${w % STREAMS}`;
  const sent = performance.now();
  const index = await put({ ID: key, Type: "batch", Priority: 50, Datacenters: ["dc1"], TaskGroups: [{ Name: "g", Count: 1 }] });
  // The frame may arrive before or after the PUT's answer: wait for it (bounded) on the event loop.
  const deadline = performance.now() + 5000;
  while (arrivals.get(key)?.get(index) === undefined) {
    if (performance.now() > deadline) throw new Error(`no frame for ${key} at ${index}`);
    await new Promise((r) => setImmediate(r));
  }
  latencies.push(arrivals.get(key)!.get(index)! - sent);
}
const seconds = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(2);
console.log(`${STREAMS} filtered streams, ${WRITES} sequential writes: ${(WRITES / seconds).toFixed(0)} writes (events)/s end to end; delivery p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms (PUT sent to frame received)`);
for (const s of streams) s.destroy();
await server.stop();
