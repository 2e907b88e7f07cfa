/**
 * The notification connection across PostgreSQL restarts (issue 21, item 2): two servers (the real
 * bin) on one database; the cluster is restarted (`pg_ctl restart -m fast`, `-m immediate`), stopped
 * for a while (both servers unhealthy meanwhile) and started again, and the listeners are killed alone
 * (`pg_terminate_backend`). After each,
 * once both servers are healthy again, the database holds exactly one LISTEN connection per server,
 * and stays so; a blocking query on one server still wakes on the other's write.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, start, stop, type Running } from "./server-process.js";
import { startPostgres, type PostgresCluster } from "./support/postgres.js";
import { HANG_MS, until } from "../../test/support/wait.js";
import { runAsOwner } from "../../test/support/postgres-cluster.js";

let cluster: PostgresCluster;
let dir: string;
let data: string;
beforeAll(async () => {
  cluster = await startPostgres();
  dir = mkdtempSync(join(tmpdir(), "filter-server-listen-"));
  const admin = await connect("postgres");
  data = (await admin.query<{ data_directory: string }>("SHOW data_directory")).rows[0]!.data_directory;
  await admin.end();
});
afterAll(async () => {
  killAll();
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function connect(database: string): Promise<pg.Client> {
  const client = new pg.Client({ host: "127.0.0.1", port: cluster.port, user: "postgres", database });
  await client.connect();
  return client;
}

/** pg_ctl as the cluster's owner (the postgres user when the tests run as root). */
const pgCtl = (args: string[]): void => runAsOwner("pg_ctl", args);

/** The cluster's log file (the test helper's). */
const log = (): string => join(dirname(data), "log");

/** The server's options as it was started (postmaster.opts), for a start after a stop. */
function startOptions(): string {
  const line = readFileSync(join(data, "postmaster.opts"), "utf8").trim();
  const args = [...line.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
  const options: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-D") i++;
    else options.push(args[i]!);
  }
  return options.join(" ");
}

/** What the database `name` runs: LISTEN connections, and whether it answers at all. */
async function listeners(name: string): Promise<number | undefined> {
  try {
    const client = await connect("postgres");
    try {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query = 'LISTEN filter_server_index'",
        [name],
      );
      return rows[0]!.n;
    } finally {
      await client.end();
    }
  } catch {
    return undefined;
  }
}

async function healthy(server: Running): Promise<boolean> {
  try {
    return (await fetch(`${server.ops}/health`)).status === 200;
  } catch {
    return false;
  }
}

/** How long pg_ctl waits for the cluster to start or stop (-t): only a guard against a hang. */
const PG_CTL_WAIT = String(HANG_MS / 1000);

const register = (server: Running, id: string) =>
  fetch(`${server.api}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: id, Type: "batch", TaskGroups: [{ Name: "g", Count: 1 }] } }) });

describe("one notification connection per server", () => {
  it("after restarts, a stop and a killed listener: exactly one LISTEN connection per server, and blocking queries still wake on the other server's write", async () => {
    const name = "listen_restarts";
    const url = await cluster.createDatabase(name);
    const file = join(dir, "data.json");
    writeFileSync(file, JSON.stringify({ jobs: [{ ID: "seed", Name: "seed", Namespace: "default", Status: "running", Type: "batch", CreateIndex: 10, ModifyIndex: 10 }], deployments: [] }));
    const a = await start(["--database", url, "--data", file]);
    const b = await start(["--database", url]);
    try {
      const servers = [a, b];
      const settled = async (what: string): Promise<void> => {
        let seen = "";
        await until(`${what}: both servers healthy with one LISTEN connection each`, async () => {
          const ok = await Promise.all(servers.map(healthy));
          const count = await listeners(name);
          seen = `healthy ${ok.join("/")}, ${count} LISTEN connections`;
          return ok.every(Boolean) && count === 2;
        }, 50).catch((e: Error) => {
          throw new Error(`${e.message} (last seen: ${seen})`);
        });
        // And it stays so while any reconnection still pending would have fired (they retry every second).
        const window = Date.now() + 1_200;
        while (Date.now() < window) {
          expect(await listeners(name), what).toBe(2);
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      await settled("at start");

      pgCtl(["restart", "-D", data, "-m", "fast", "-l", log(), "-w", "-t", PG_CTL_WAIT]);
      await settled("after pg_ctl restart -m fast");

      pgCtl(["restart", "-D", data, "-m", "immediate", "-l", log(), "-w", "-t", PG_CTL_WAIT]);
      await settled("after pg_ctl restart -m immediate");

      // Down long enough for several failed reconnections of each server: both say so meanwhile.
      const options = startOptions();
      pgCtl(["stop", "-D", data, "-m", "fast", "-w", "-t", PG_CTL_WAIT]);
      try {
        await until("both servers unhealthy", async () => (await Promise.all(servers.map(healthy))).every((ok) => !ok), 50);
        const down = Date.now() + 2_200;
        while (Date.now() < down) {
          expect(await Promise.all(servers.map(healthy))).toEqual([false, false]);
          await new Promise((r) => setTimeout(r, 100));
        }
      } finally {
        pgCtl(["start", "-D", data, "-o", options, "-l", log(), "-w", "-t", PG_CTL_WAIT]);
      }
      await settled("after a stop and a start");

      // A listener killed alone (the database stays up).
      const admin = await connect("postgres");
      await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query = 'LISTEN filter_server_index'", [name]);
      await admin.end();
      await settled("after pg_terminate_backend of the listeners");

      // A blocking query on B wakes on A's write (a B that was not woken answers the old index at its
      // wait, the hang guard's: far longer than a wake takes on a busy machine).
      const first = await fetch(`${b.api}/v1/jobs`);
      await first.arrayBuffer();
      const index = Number(first.headers.get("x-svc-index"));
      const blocked = fetch(`${b.api}/v1/jobs?index=${index}&wait=${HANG_MS / 1000}s`);
      const put = (await (await register(a, "after-restarts")).json()) as { Index: number };
      const woken = await blocked;
      expect(Number(woken.headers.get("x-svc-index"))).toBe(put.Index);
      expect(((await woken.json()) as { ID: string }[]).map((j) => j.ID)).toContain("after-restarts");
      expect(await listeners(name)).toBe(2);
    } finally {
      await Promise.all([stop(a), stop(b)]);
    }
  });
});
