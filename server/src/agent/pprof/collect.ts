import { Session } from "node:inspector/promises";
import type { Profiler, HeapProfiler } from "node:inspector";
import type { Readable } from "node:stream";
import { getHeapSnapshot } from "node:v8";

/** Resolves after `ms`, or as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

async function withSession<T>(use: (session: Session) => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  try {
    return await use(session);
  } finally {
    session.disconnect();
  }
}

/** The V8 CPU profile of this process over `seconds` (the `.cpuprofile` format). */
export function cpuProfile(seconds: number, signal: AbortSignal): Promise<Profiler.Profile> {
  return withSession(async (session) => {
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
    // Stops early when the client went away; the profiler is always stopped.
    await sleep(seconds * 1000, signal);
    const { profile } = await session.post("Profiler.stop");
    await session.post("Profiler.disable");
    return profile;
  });
}

/** Sampled heap allocations of this process over `seconds` (the `.heapprofile` format). */
export function allocationProfile(seconds: number, signal: AbortSignal): Promise<HeapProfiler.SamplingHeapProfile> {
  return withSession(async (session) => {
    await session.post("HeapProfiler.enable");
    await session.post("HeapProfiler.startSampling", { samplingInterval: 16384 });
    await sleep(seconds * 1000, signal);
    const { profile } = await session.post("HeapProfiler.stopSampling");
    await session.post("HeapProfiler.disable");
    return profile;
  });
}

export const TRACE_CATEGORIES = ["node", "node.async_hooks", "node.http", "node.fs.async", "node.net.native", "node.perf", "v8"];

/** An execution trace of this process over `seconds`: trace events in the Chrome trace format. */
export function executionTrace(seconds: number, signal: AbortSignal): Promise<{ traceEvents: unknown[] }> {
  return withSession(async (session) => {
    const events: unknown[] = [];
    session.on("NodeTracing.dataCollected", (message) => {
      events.push(...message.params.value);
    });
    await session.post("NodeTracing.start", { traceConfig: { includedCategories: TRACE_CATEGORIES } });
    await sleep(seconds * 1000, signal);
    const complete = new Promise<void>((resolve) => session.once("NodeTracing.tracingComplete", () => resolve()));
    await session.post("NodeTracing.stop");
    await complete;
    return { traceEvents: events };
  });
}

/** A V8 heap snapshot (the `.heapsnapshot` format), streamed. */
export function heapSnapshot(): Readable {
  return getHeapSnapshot();
}

/** Counts of the active resources keeping the event loop alive (this runtime's goroutines). */
export function activeResources(): { total: number; byType: Record<string, number> } {
  const byType: Record<string, number> = {};
  const all = process.getActiveResourcesInfo();
  for (const type of all) byType[type] = (byType[type] ?? 0) + 1;
  return { total: all.length, byType };
}
