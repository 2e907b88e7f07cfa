/**
 * What the server benchmarks share: a large data file of generated jobs, and the server as a child
 * process (from its sources, loopback only).
 */
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, createWriteStream, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateDemo } from "../src/demo/generate.js";

const SERVER_DIR = fileURLToPath(new URL("..", import.meta.url));

export function rssMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? "0");
  return Math.round(kb / 1024);
}

/** Clock ticks per second of /proc's CPU counters (`getconf CLK_TCK`), read once. */
let ticks: number | undefined;

/** CPU seconds the process has used so far (user + system, from /proc/PID/stat). */
export function cpuSeconds(pid: number): number {
  ticks ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / ticks;
}

export interface Server {
  pid: number;
  api: string;
  /** The ops listener (`/health`). */
  ops: string;
  stop(): Promise<void>;
}

/**
 * The server on free loopback ports with `args` (and an evaluation budget of its own when given).
 * BENCH_NODE_FLAGS adds flags to its `node` (e.g. `--cpu-prof --cpu-prof-dir=…`, `--trace-gc`);
 * BENCH_SERVER_LOG names a file its standard output is copied to.
 */
export async function startServer(args: string[], budget: string[] = ["--filter-budget", "1000000000"]): Promise<Server> {
  const child = spawn(process.execPath, [...(process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean), "--max-old-space-size=8192", "--import", "tsx", "src/main.ts", "--port", "0", "--ops-port", "0", ...budget, ...args], {
    cwd: SERVER_DIR,
    stdio: ["ignore", "pipe", "inherit"],
  });
  let out = "";
  const { api, ops } = await new Promise<{ api: string; ops: string }>((resolve, reject) => {
    child.stdout.on("data", (d: Buffer) => {
      if (process.env.BENCH_SERVER_LOG !== undefined) appendFileSync(process.env.BENCH_SERVER_LOG, d);
      out += d.toString();
      for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        const entry = JSON.parse(line) as { api?: string; ops?: string };
        if (entry.api !== undefined && entry.ops !== undefined) resolve({ api: entry.api, ops: entry.ops });
      }
    });
    child.on("exit", () => reject(new Error(`server exited:\n${out.slice(-2000)}`)));
  });
  child.stdout.resume();
  return {
    pid: child.pid as number,
    api,
    ops,
    stop: () =>
      new Promise((resolve) => {
        child.on("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** `jobs` of the demo's jobs, written piece by piece (a million of them is too long for one string). */
export async function writeData(file: string, jobs: number): Promise<void> {
  const out = createWriteStream(file);
  const write = (s: string) => new Promise<void>((resolve) => (out.write(s) ? resolve() : out.once("drain", () => resolve())));
  await write('{"jobs":[');
  const CHUNK = 50_000;
  let first = true;
  for (let done = 0; done < jobs; done += CHUNK) {
    const n = Math.min(CHUNK, jobs - done);
    const snapshot = generateDemo({ jobs: n, seed: 7 + done });
    const parts: string[] = [];
    for (const r of snapshot.jobs) {
      // Unique IDs across chunks; the index fields as the demo makes them.
      // Zero values left out (the loader restores them), so that a million jobs stay one readable file.
      const e = r.entry;
      const entry: Record<string, unknown> = { ID: `${e.ID}-${done}`, Name: e.Name, Namespace: e.Namespace, Type: e.Type, Status: e.Status, Priority: e.Priority };
      entry["Datacenters"] = e.Datacenters;
      entry["CreateIndex"] = e.CreateIndex;
      entry["ModifyIndex"] = e.ModifyIndex;
      entry["JobModifyIndex"] = e.JobModifyIndex;
      if (e.ParentID !== "") entry["ParentID"] = e.ParentID;
      if (e.Stop) entry["Stop"] = true;
      if (e.Periodic) entry["Periodic"] = true;
      if (e.ParameterizedJob) entry["ParameterizedJob"] = true;
      if (e.JobSummary !== null && Object.keys(e.JobSummary.Summary).length > 0) {
        const summary: Record<string, Record<string, number>> = {};
        for (const [group, s] of Object.entries(e.JobSummary.Summary)) {
          summary[group] = Object.fromEntries(Object.entries(s).filter(([, n]) => n !== 0));
        }
        entry["JobSummary"] = { Summary: summary };
      }
      parts.push(JSON.stringify(entry));
    }
    await write((first ? "" : ",") + parts.join(","));
    first = false;
  }
  await write('],"deployments":[]}');
  await new Promise<void>((resolve) => out.end(resolve));
}

