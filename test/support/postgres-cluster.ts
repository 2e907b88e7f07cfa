/**
 * A throw-away PostgreSQL cluster of Debian's binaries (initdb, pg_ctl) in a temporary directory, on
 * a free port of 127.0.0.1 only, its socket in that directory, trust authentication, user `postgres`;
 * removed by `stop`. As root (CI) the server runs as the `postgres` system user, since initdb refuses
 * root. PG_BIN names the binaries' directory (default: the directory of `initdb` on PATH, else the
 * newest /usr/lib/postgresql/<version>/bin).
 *
 * The one implementation: the test run's shared cluster (postgres-global.ts), the few tests that
 * restart a cluster of their own, and the benches (bench/sql.ts, server/bench/*) all start theirs here.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";

/** The binaries' directory, or undefined when PostgreSQL is not installed. */
export function pgBin(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const found = spawnSync("sh", ["-c", "command -v initdb"], { encoding: "utf8" }).stdout.trim();
  if (found) return join(found, "..");
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length === 0 ? undefined : join(root, versions[0]!, "bin");
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Where a running cluster is: enough for another process to use it (postgres-global.ts hands it over). */
export interface ClusterAddress {
  readonly port: number;
  /** Its directory (the data in `data/`, the log in `log`). */
  readonly dir: string;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The test run's cluster (postgres-global.ts), or null when PostgreSQL is not installed. */
    postgres: ClusterAddress | null;
  }
}

/** A running cluster. */
export interface PostgresCluster extends ClusterAddress {
  /** The last lines of the server's log (for a failure's message). */
  logTail(lines?: number): string;
  /** A new, empty database named `name`; its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The uid and gid the server runs as: the postgres user when this runs as root, else undefined (this user). */
export function clusterOwner(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }));
  return { uid: id("-u"), gid: id("-g") };
}

/** Runs one of the cluster's binaries (`pg_ctl`, `initdb`) as its owner. */
export function runAsOwner(command: string, args: readonly string[]): void {
  const bin = pgBin();
  if (bin === undefined) throw new Error("PostgreSQL's binaries were not found (apt-get install postgresql, or PG_BIN)");
  const full = join(bin, command);
  const [file, argv] = clusterOwner() === undefined ? [full, [...args]] : ["runuser", ["-u", "postgres", "--", full, ...args]];
  const result = spawnSync(file, argv, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status}): ${result.stderr || result.stdout}`);
}

/** The `-o` options of `pg_ctl start` for a cluster in `dir` on `port`, with `settings` on top of the defaults (fsync off). */
export function serverOptions(dir: string, port: number, settings: Readonly<Record<string, string>> = {}): string {
  return [
    "-c listen_addresses=127.0.0.1",
    `-c port=${port}`,
    `-c unix_socket_directories='${dir}'`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
    ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`),
  ].join(" ");
}

/** Starts a cluster with `settings` (`-c` options) on top of the defaults. */
export async function startCluster(settings: Readonly<Record<string, string>> = {}): Promise<PostgresCluster> {
  if (pgBin() === undefined) throw new Error("PostgreSQL's binaries were not found (apt-get install postgresql, or PG_BIN)");
  const dir = mkdtempSync(join(tmpdir(), "filter-expr-pg-"));
  const owner = clusterOwner();
  if (owner !== undefined) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, "data");
  runAsOwner("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const port = await freePort();
  runAsOwner("pg_ctl", ["-D", data, "-o", serverOptions(dir, port, settings), "-l", join(dir, "log"), "-w", "-t", "600", "start"]);
  let stopped = false;
  return {
    ...clusterAt({ port, dir }),
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      try {
        runAsOwner("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** A cluster started elsewhere (another process), without the means to stop it. */
export function clusterAt(address: ClusterAddress): Omit<PostgresCluster, "stop"> {
  const { port, dir } = address;
  return {
    port,
    dir,
    logTail(lines = 30): string {
      try {
        return readFileSync(join(dir, "log"), "utf8").split("\n").slice(-lines).join("\n");
      } catch {
        return "";
      }
    },
    async createDatabase(name: string): Promise<string> {
      const client = new pg.Client({ host: "127.0.0.1", port, user: "postgres", database: "postgres" });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${encodeURIComponent(name)}`;
    },
  };
}
