/**
 * The servers of the attack benchmark, one at a time: started with the server's own bounds (no
 * `--filter-budget` of the benchmarks), stopped with SIGTERM and killed when they do not exit in time,
 * and killed whenever the benchmark exits (also on SIGINT/SIGTERM), as is a throw-away cluster.
 */
import { startServer, type Server } from "../support.js";

const running = new Set<number>();
const cleanups: (() => void)[] = [];
let hooked = false;

function killAll(): void {
  for (const pid of running) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  running.clear();
}

/** Kills every server on exit and on SIGINT/SIGTERM (then runs `cleanup`s, e.g. a cluster's stop, synchronously). */
export function onExit(cleanup?: () => void): void {
  if (cleanup !== undefined) cleanups.push(cleanup);
  if (hooked) return;
  hooked = true;
  process.on("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      killAll();
      for (const c of cleanups.splice(0)) {
        try {
          c();
        } catch (e) {
          console.error(e);
        }
      }
      process.exit(130);
    });
  }
}

/** The server with `args` and its default bounds (the evaluation budget included). */
export async function launch(args: string[]): Promise<Server> {
  onExit();
  const server = await startServer(args, []);
  running.add(server.pid);
  return server;
}

/** True while the process exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops `server`: SIGTERM, then SIGKILL when it has not exited after `graceMs`. How it ended. */
export async function shutdown(server: Server, graceMs: number): Promise<string> {
  if (!alive(server.pid)) {
    running.delete(server.pid);
    return "had exited before the end";
  }
  const started = performance.now();
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    try {
      process.kill(server.pid, "SIGKILL");
    } catch {
      // exited meanwhile
    }
  }, graceMs);
  await server.stop();
  clearTimeout(timer);
  running.delete(server.pid);
  const s = ((performance.now() - started) / 1000).toFixed(1);
  return killed ? `killed: no exit ${graceMs / 1000} s after SIGTERM` : `exited ${s} s after SIGTERM`;
}
