/**
 * A child process run to its end without blocking the test's worker: a worker that waits in a
 * synchronous call (spawnSync, execFileSync) cannot answer vitest's own messages, which time out after
 * 60 s, and a busy machine makes `npm install` or `tsc` take that long.
 */
import { spawn, type SpawnOptions } from "node:child_process";

export interface Ran {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `command` with `args` to its exit; its output as text. */
export function runChild(command: string, args: readonly string[], options: SpawnOptions = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.once("error", reject);
    child.once("close", (status) => resolve({ status, stdout, stderr }));
  });
}
