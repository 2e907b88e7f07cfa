/**
 * A throw-away PostgreSQL cluster for a test file: initdb into a temporary directory, a free port on
 * 127.0.0.1 only, the socket in that directory, trust authentication; removed by `stop`. As root (the
 * tests run as root in CI) the cluster runs as the `postgres` system user, since initdb refuses root.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { pgBin } from "../../../test/support/postgres-cluster.js";
import type { AnswerCache } from "../../src/scheduler/answers.js";

export interface PostgresCluster {
  port: number;
  /** The last lines of the server's log (for a failure's message). */
  logTail(lines?: number): string;
  /** A new, empty database; its URL. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** The installed server binaries (the library's test support finds them), or undefined. */
export { pgBin as postgresBin } from "../../../test/support/postgres-cluster.js";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function runAs(user: { uid: number; gid: number } | undefined, command: string, args: string[]): void {
  const [file, argv] = user === undefined ? [command, args] : ["runuser", ["-u", "postgres", "--", command, ...args]];
  const result = spawnSync(file, argv, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}`);
}

/**
 * Starts a cluster (a few seconds). `settings`: more server settings (`-c name=value`) on top of the
 * defaults below (PostgreSQL's own `shared_buffers`, 128MB): a bench over a large table sizes its
 * memory to the data and sets the costs of storage that is memory or SSD.
 */
export async function startPostgres(options: { settings?: Readonly<Record<string, string>> } = {}): Promise<PostgresCluster> {
  const bin = pgBin();
  if (bin === undefined) throw new Error("PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)");
  const root = process.getuid?.() === 0;
  const user = root ? { uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })), gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })) } : undefined;
  const dir = mkdtempSync(join(tmpdir(), "filter-server-pg-"));
  if (user !== undefined) chownSync(dir, user.uid, user.gid);
  const data = join(dir, "data");
  const port = await freePort();
  runAs(user, join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]);
  const settings = [
    "-c listen_addresses=127.0.0.1",
    `-p ${port}`,
    `-c unix_socket_directories=${dir}`,
    "-c fsync=off",
    "-c full_page_writes=off",
    "-c max_connections=100",
    ...Object.entries(options.settings ?? {}).map(([name, value]) => `-c ${name}=${value}`),
  ].join(" ");
  runAs(user, join(bin, "pg_ctl"), ["-D", data, "-o", settings, "-l", join(dir, "log"), "-w", "-t", "60", "start"]);
  let stopped = false;
  return {
    port,
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
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      try {
        runAs(user, join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

// ---- the scheduler's app on either store, for the store suites ----

import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import type { AclToken } from "../../src/context.js";
import { snapshotFromData } from "../../src/lists/load.js";
import { SchedulerState } from "../../src/store/memory/state.js";
import { MemoryStore } from "../../src/store/memory/index.js";
import { PostgresStore } from "../../src/store/postgres/index.js";
import type { SchedulerStore } from "../../src/store/types.js";
import { testContext } from "./context.js";

export type StoreKind = "memory" | "postgres";

export interface StoreServer {
  app: FastifyInstance;
  base: string;
  store: SchedulerStore;
  close(): Promise<void>;
}

let databases = 0;

/** The real app on a loopback port over a new store of `kind` holding `data` (a fresh database for PostgreSQL). */
export async function serveStore(kind: StoreKind, cluster: PostgresCluster | undefined, data: unknown, tokens?: AclToken[]): Promise<StoreServer> {
  let store: SchedulerStore;
  if (kind === "memory") store = new MemoryStore(new SchedulerState(snapshotFromData(data)));
  else {
    if (cluster === undefined) throw new Error("no PostgreSQL cluster");
    const url = await cluster.createDatabase(`suite_${process.pid}_${++databases}`);
    store = await PostgresStore.open(url, () => snapshotFromData(data), () => undefined, 4);
  }
  return serveOn(store, tokens);
}

/** The real app on a loopback port over `store` (closing it closes the store); `answers`: its shared-answer cache. */
export async function serveOn(store: SchedulerStore, tokens?: AclToken[], answers?: AnswerCache): Promise<StoreServer> {
  const app = await buildApp(testContext(tokens), answers === undefined ? { scheduler: store } : { scheduler: store, answers });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    app,
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    store,
    async close() {
      store.releaseWaiters();
      await app.close();
      await store.close();
    },
  };
}
