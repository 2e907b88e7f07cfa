import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";

// The filter-server bin as a child process, for the tests about processes (restarts, kill -9, disks):
// its build, made current by the run's global setup (test/support/build-global.ts).
const ROOT = join(import.meta.dirname, "..");
/** The bin's command line before its arguments. */
export const SERVER_BIN: readonly string[] = [process.execPath, join(ROOT, "dist/main.js")];
const children = new Set<ChildProcessWithoutNullStreams>();

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Proc {
  child: ChildProcessWithoutNullStreams;
  /** Standard output and standard error, as they came. */
  output: () => string;
  /** Standard output alone. */
  stdout: () => string;
  exit: Promise<Exit>;
}

export interface Running extends Proc {
  api: string;
  ops: string;
}

export interface RunOptions {
  /**
   * A soft limit on the size of any file the server writes (RLIMIT_FSIZE, in 512-byte blocks), with
   * SIGXFSZ ignored: a write past it fails with EFBIG, as a write to a full disk fails with ENOSPC.
   * `prlimit --pid PID --fsize=unlimited` lifts it while the server runs.
   */
  fileSizeBlocks?: number;
}

export function run(args: string[], options: RunOptions = {}): Proc {
  const node = [...SERVER_BIN, ...args];
  const env = { ...process.env, NO_COLOR: "1" };
  const child =
    options.fileSizeBlocks === undefined
      ? spawn(node[0] as string, node.slice(1), { cwd: ROOT, env })
      : // The shell sets the limit and the ignored signal, then becomes the server (same pid).
        spawn("sh", ["-c", `trap '' XFSZ; ulimit -S -f ${options.fileSizeBlocks}; exec "$0" "$@"`, ...node], { cwd: ROOT, env });
  children.add(child);
  let output = "";
  let stdout = "";
  child.stdout.on("data", (d: Buffer) => {
    output += d.toString();
    stdout += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
  const exit = new Promise<Exit>((resolve) =>
    child.on("exit", (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    }),
  );
  return { child, output: () => output, stdout: () => stdout, exit };
}

/**
 * Starts the bin on free ports and waits for its "listening" log line (however long the machine
 * takes: the test's own time limit is the only guard against a hang); an exit before it is an error.
 */
export async function start(args: string[], options: RunOptions = {}): Promise<Running> {
  const proc = run(["--port", "0", "--ops-port", "0", ...args], options);
  const listening = (): { api: string; ops: string } | undefined => {
    // Whole lines only (the last piece may be a line still being written).
    for (const line of proc.stdout().split("\n").slice(0, -1)) {
      if (!line.startsWith("{")) continue;
      const entry = JSON.parse(line) as { api?: string; ops?: string };
      if (entry.api !== undefined && entry.ops !== undefined) return { api: entry.api, ops: entry.ops };
    }
    return undefined;
  };
  const addresses = await new Promise<{ api: string; ops: string }>((resolve, reject) => {
    const look = () => {
      const found = listening();
      if (found === undefined) return;
      proc.child.stdout.off("data", look);
      resolve(found);
    };
    proc.child.stdout.on("data", look);
    // "data" listeners run in order: run()'s own listener has appended the chunk before `look` reads it.
    void proc.exit.then(() => {
      const found = listening();
      if (found === undefined) reject(new Error(`server exited early:\n${proc.output()}`));
      else resolve(found);
    });
  });
  return { ...proc, ...addresses };
}

/** SIGTERM and wait for the exit. */
export async function stop(proc: Proc): Promise<Exit> {
  proc.child.kill("SIGTERM");
  return proc.exit;
}

/** Kills every child still running (for afterEach). */
export function killAll(): void {
  for (const child of children) child.kill("SIGKILL");
}
