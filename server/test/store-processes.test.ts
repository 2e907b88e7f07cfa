/**
 * The PostgreSQL store with the real bin as child processes: two servers on one database (a write
 * through one wakes a blocking query on the other; X-Svc-Index never goes back on either), kill -9
 * during a stream of registrations (every acknowledged write survives), --data into an empty database,
 * and the one-line errors of an unreachable database and of a newer schema.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type PostgresCluster } from "./support/postgres.js";
import { runCluster } from "./support/cluster.js";
import { killAll, run, start, stop, type Running } from "./server-process.js";
import { MIGRATIONS } from "../src/store/postgres/migrations/index.js";
import { HANG_MS, until } from "../../test/support/wait.js";

let cluster: PostgresCluster;
let dir: string;
beforeAll(async () => {
  cluster = runCluster();
  dir = mkdtempSync(join(tmpdir(), "filter-server-pgdata-"));
});
afterAll(async () => {
  killAll();
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function dataFile(name: string, ids: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify({ jobs: ids.map((id, i) => ({ ID: id, Name: id, Namespace: "default", Status: "running", Type: "batch", CreateIndex: 10 + i, ModifyIndex: 10 + i })), deployments: [] }));
  return path;
}

const register = (server: Running, id: string) =>
  fetch(`${server.api}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: id, Type: "batch", TaskGroups: [{ Name: "g", Count: 1 }] } }) });

async function jobIds(server: Running): Promise<{ ids: string[]; index: number }> {
  const res = await fetch(`${server.api}/v1/jobs?per_page=0`);
  return { ids: ((await res.json()) as { ID: string }[]).map((j) => j.ID), index: Number(res.headers.get("x-svc-index")) };
}

describe.concurrent("several servers on one database", () => {
  it("a registration through A wakes a blocking query on B with the new index; the index never goes back on either", async () => {
    const url = await cluster.createDatabase("two_servers");
    const data = dataFile("two.json", ["seed-1", "seed-2"]);
    const a = await start(["--database", url, "--data", data]);
    const b = await start(["--database", url, "--data", data]);
    try {
      const before = await jobIds(b);
      expect(before.ids).toEqual(["seed-1", "seed-2"]);
      // A wait as long as the hang guard: were B not woken, it would answer the old index after it (a
      // wake takes far less, however busy the machine).
      const blocked = fetch(`${b.api}/v1/jobs?index=${before.index}&wait=${HANG_MS / 1000}s`);
      const put = (await (await register(a, "from-a")).json()) as { Index: number };
      const woken = await blocked;
      expect(Number(woken.headers.get("x-svc-index"))).toBe(put.Index);
      expect(((await woken.json()) as { ID: string }[]).map((j) => j.ID)).toContain("from-a");

      // Writes through both, reads on both: a read that starts after another answered never shows a
      // smaller index (each writer's reads are in sequence; the two writers' run concurrently, so
      // their answers may arrive in any order), and a read after a server acknowledged a write shows
      // at least that write's index.
      const servers = { a, b };
      await Promise.all(
        (["a", "b"] as const).map(async (name) => {
          const seen = { a: 0, b: 0 };
          for (let i = 0; i < 8; i++) {
            const ack = (await (await register(servers[name], `${name}-${i}`)).json()) as { Index: number };
            for (const other of ["a", "b"] as const) {
              const res = await fetch(`${servers[other].api}/v1/jobs?per_page=1`);
              await res.arrayBuffer();
              const index = Number(res.headers.get("x-svc-index"));
              expect(index).toBeGreaterThanOrEqual(seen[other]);
              seen[other] = index;
              if (other === name) expect(index).toBeGreaterThanOrEqual(ack.Index);
            }
          }
        }),
      );
      const [fromA, fromB] = await Promise.all([jobIds(a), jobIds(b)]);
      expect(fromA.ids).toHaveLength(2 + 1 + 16);
      expect(fromB).toEqual(fromA);
    } finally {
      await Promise.all([stop(a), stop(b)]);
    }
  });
});

describe.concurrent("durability", () => {
  it("--data seeds an empty database; kill -9 during a stream of registrations: after a restart every acknowledged write is there (and --data is not loaded again)", async () => {
    const url = await cluster.createDatabase("kill9");
    const server = await start(["--database", url, "--data", dataFile("kill.json", ["seed-x", "seed-y"])]);
    expect((await jobIds(server)).ids).toEqual(["seed-x", "seed-y"]);
    const acknowledged: string[] = [];
    let stopping = false;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; !stopping; i++) {
        const id = `w${w}-${i}`;
        try {
          const res = await register(server, id);
          if (res.status === 200) acknowledged.push(id);
        } catch {
          return; // the connection died with the process
        }
      }
    });
    await until("40 acknowledged registrations", () => acknowledged.length >= 40, 0);
    server.child.kill("SIGKILL");
    stopping = true;
    await server.exit;
    await Promise.all(writers);
    const again = await start(["--database", url, "--data", dataFile("other.json", ["other"])]);
    try {
      const { ids } = await jobIds(again);
      expect(acknowledged.filter((id) => !ids.includes(id))).toEqual([]);
      expect(ids).toContain("seed-x");
      expect(ids).not.toContain("other");
    } finally {
      await stop(again);
    }
  });
});

describe.concurrent("start", () => {
  it("an unreachable database is one line on stderr and exit 1", async () => {
    const port = await freePort();
    const proc = run(["--port", "0", "--ops-port", "0", "--database", `postgres://someone:secret@127.0.0.1:${port}/nothing`]);
    const { code } = await proc.exit;
    expect(code).toBe(1);
    const out = proc.output().trim();
    expect(out).toMatch(new RegExp(`^filter-server: database postgres://someone:\\*\\*\\*\\*@127\\.0\\.0\\.1:${port}/nothing: .*ECONNREFUSED`));
    expect(out.split("\n")).toHaveLength(1);
    expect(out).not.toContain("secret");
  });

  it("a schema newer than the server's is one line on stderr and exit 1", async () => {
    const url = await cluster.createDatabase("newer");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query("CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())");
    await client.query("INSERT INTO schema_migrations (version, name) VALUES (1, 'initial schema'), (99, 'from the future')");
    await client.end();
    const proc = run(["--port", "0", "--ops-port", "0", "--database", url]);
    const { code } = await proc.exit;
    expect(code).toBe(1);
    const out = proc.output().trim();
    expect(out).toBe(`filter-server: database ${url}: the database's schema is version 99, newer than this server's (${MIGRATIONS.length}): upgrade filter-server`);
  });
});
