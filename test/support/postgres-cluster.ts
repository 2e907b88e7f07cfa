/**
 * A throw-away PostgreSQL cluster of Debian's binaries (initdb, pg_ctl) in a temporary directory on
 * a free loopback port, for the SQL tests on a real PostgreSQL and bench/sql.ts. As root (CI) the
 * server runs as the `postgres` user, since initdb refuses root. PG_BIN names the binaries' directory
 * (default: the directory of `initdb` on PATH, else the newest /usr/lib/postgresql/<version>/bin).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A running cluster: its port (user `bench`, trust authentication, database `postgres`), and how to stop it. */
export interface Cluster {
  readonly port: number;
  stop(): void;
}

/** Starts a cluster with `settings` (`-c` options) on top of the defaults (fsync off). */
export async function startCluster(settings: Readonly<Record<string, string>> = {}): Promise<Cluster> {
  const bin = pgBin();
  if (bin === undefined) throw new Error("PostgreSQL's binaries were not found (apt-get install postgresql, or PG_BIN)");
  const dir = mkdtempSync(join(tmpdir(), "filter-expr-pg-"));
  const data = join(dir, "data");
  const asRoot = userInfo().uid === 0;
  const run = (cmd: string, argv: string[]) => {
    const full = join(bin, cmd);
    if (asRoot) execFileSync("runuser", ["-u", "postgres", "--", full, ...argv], { stdio: "pipe" });
    else execFileSync(full, argv, { stdio: "pipe" });
  };
  if (asRoot) {
    const uid = execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim();
    chownSync(dir, Number(uid), Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim()));
    chmodSync(dir, 0o700);
  }
  run("initdb", ["-D", data, "-U", "bench", "--auth=trust", "--locale=C", "-E", "UTF8", "--no-sync"]);
  const port = await freePort();
  const options = [`-c listen_addresses=127.0.0.1`, `-c port=${port}`, `-c unix_socket_directories='${dir}'`, "-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off", ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(" ");
  run("pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "60", "start"]);
  return {
    port,
    stop: () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
