import { getHeapSpaceStatistics, getHeapStatistics } from "node:v8";
import type { HeapProfiler, Profiler } from "node:inspector";
import type { activeResources } from "./collect.js";

function where(frame: Profiler.ProfileNode["callFrame"]): string {
  const name = frame.functionName === "" ? "(anonymous)" : frame.functionName;
  return frame.url === "" ? name : `${name} ${frame.url}:${frame.lineNumber + 1}`;
}

function pct(part: number, whole: number): string {
  return `${whole === 0 ? "0.00" : ((100 * part) / whole).toFixed(2)}%`;
}

/** A CPU profile as text: the functions with the most samples of their own, heaviest first. */
export function cpuProfileText(profile: Profiler.Profile, seconds: number, top = 50): string {
  const samples = profile.samples ?? [];
  const byNode = new Map<number, number>();
  for (const id of samples) byNode.set(id, (byNode.get(id) ?? 0) + 1);
  const byFunction = new Map<string, number>();
  for (const node of profile.nodes) {
    const count = byNode.get(node.id) ?? 0;
    if (count > 0) byFunction.set(where(node.callFrame), (byFunction.get(where(node.callFrame)) ?? 0) + count);
  }
  const intervalUs = samples.length === 0 ? 0 : Math.round((profile.endTime - profile.startTime) / samples.length);
  const rows = [...byFunction.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = [
    `cpu profile: ${seconds}s, ${samples.length} samples, sampling interval ~${intervalUs}us`,
    `${"samples".padStart(10)} ${"flat%".padStart(8)}  function`,
    ...rows.map(([name, count]) => `${String(count).padStart(10)} ${pct(count, samples.length).padStart(8)}  ${name}`),
  ];
  return `${lines.join("\n")}\n`;
}

/** A sampled allocation profile as text: allocation sites by bytes, heaviest first. */
export function allocationProfileText(profile: HeapProfiler.SamplingHeapProfile, seconds: number, top = 50): string {
  const bySite = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapProfiler.SamplingHeapProfileNode): void => {
    if (node.selfSize > 0) {
      bySite.set(where(node.callFrame), (bySite.get(where(node.callFrame)) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  const rows = [...bySite.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = [
    `allocs profile: ${seconds}s, ${total} bytes sampled`,
    `${"bytes".padStart(12)} ${"flat%".padStart(8)}  allocation site`,
    ...rows.map(([name, bytes]) => `${String(bytes).padStart(12)} ${pct(bytes, total).padStart(8)}  ${name}`),
  ];
  return `${lines.join("\n")}\n`;
}

/** V8 heap statistics, overall and per space. */
export function heapText(): string {
  const lines = ["heap profile: v8 heap statistics", ""];
  for (const [key, value] of Object.entries(getHeapStatistics())) lines.push(`# ${key} = ${String(value)}`);
  lines.push("");
  for (const space of getHeapSpaceStatistics()) {
    lines.push(
      `# ${space.space_name}: size=${space.space_size} used=${space.space_used_size} available=${space.space_available_size} physical=${space.physical_space_size}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** Active resources as text; debug=2 adds the memory and uptime of the process. */
export function goroutineText(resources: ReturnType<typeof activeResources>, debug: number): string {
  const lines = [`goroutine profile: total ${resources.total}`];
  for (const [type, count] of Object.entries(resources.byType).sort((a, b) => b[1] - a[1])) lines.push(`${count} @ ${type}`);
  if (debug >= 2) {
    const memory = process.memoryUsage();
    lines.push("", `# uptime ${process.uptime().toFixed(3)}s`);
    for (const [key, value] of Object.entries(memory)) lines.push(`# ${key} = ${value}`);
  }
  return `${lines.join("\n")}\n`;
}
