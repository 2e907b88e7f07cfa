/**
 * Database failures as clients see them (issue 21, items 4 and 5), with the real bin on real
 * PostgreSQL: a 500 carries a request id and none of PostgreSQL's text (which the log line with the
 * same id holds), and a database that refuses writes makes the server unhealthy until a write succeeds.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { killAll, start, stop, type Running } from "./server-process.js";
import type { PostgresCluster } from "./support/postgres.js";
import { runCluster } from "./support/cluster.js";
import { databaseName } from "../../test/support/shared-postgres.js";
import { until } from "../../test/support/wait.js";

let cluster: PostgresCluster;
let admin: pg.Client;
let file: string;
let dir: string;
beforeAll(async () => {
  cluster = runCluster();
  admin = new pg.Client({ host: "127.0.0.1", port: cluster.port, user: "postgres", database: "postgres" });
  await admin.connect();
  dir = mkdtempSync(join(tmpdir(), "filter-server-pgerrors-"));
  file = join(dir, "data.json");
  const jobs = ["web", "api"].map((id, i) => ({ ID: id, Name: id, Namespace: "default", Status: "running", Type: "service", CreateIndex: 10 + i, ModifyIndex: 10 + i }));
  writeFileSync(file, JSON.stringify({ jobs, deployments: [] }));
});
afterAll(async () => {
  killAll();
  await admin?.end();
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const register = async (server: Running, id: string): Promise<{ status: number; body: string }> => {
  const res = await fetch(`${server.api}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: id, Type: "batch", TaskGroups: [{ Name: "g", Count: 1 }] } }) });
  return { status: res.status, body: await res.text() };
};

async function health(server: Running): Promise<{ agent: number; message: string; ops: number }> {
  const agent = await fetch(`${server.api}/v1/agent/health`);
  const body = (await agent.json()) as { server?: { message: string } };
  const ops = await fetch(`${server.ops}/health`);
  return { agent: agent.status, message: body.server?.message ?? "", ops: ops.status };
}

/** The server's JSON log lines. */
function logLines(server: Running): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Ends the server's pooled connections to `database` (not its LISTEN one): the next ones read the database's settings afresh. */
async function dropPooledConnections(database: string): Promise<void> {
  await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query <> 'LISTEN filter_server_index' AND pid <> pg_backend_pid()", [database]);
  await until(`the pooled connections to ${database} gone`, async () => {
    const { rows } = await admin.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND query <> 'LISTEN filter_server_index'", [database]);
    return rows[0]!.n === 0;
  }, 20);
}

describe.concurrent("PostgreSQL failures", () => {
  it("a 500 from a database error carries the request id, not PostgreSQL's text; the log line with that id holds it; 4xx messages are unchanged", async () => {
    const url = await cluster.createDatabase("errors_500");
    const server = await start(["--database", url, "--data", file]);
    try {
      expect((await fetch(`${server.api}/v1/jobs`)).status).toBe(200);
      // A table goes away under the server.
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      await db.query("ALTER TABLE namespaces RENAME TO namespaces_gone");
      await db.end();

      // (A page not read before: the first one is kept as the shared answer of the current index.)
      const res = await fetch(`${server.api}/v1/jobs?per_page=1`);
      const body = await res.text();
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const id = /^internal error \(request (req-[0-9a-z]+)\)$/.exec(body)?.[1];
      expect(id, body).toBeDefined();
      for (const secret of ["namespaces", "relation", "exist", "postgres", "127.0.0.1", String(cluster.port), "errors_500"]) expect(body).not.toContain(secret);
      // The log line comes through the process's stdout, which may reach this test after the answer.
      let line: Record<string, unknown> | undefined;
      await until(`the log line of ${id}`, () => (line = logLines(server).find((l) => l["reqId"] === id && l["msg"] === "request failed")) !== undefined, 20);
      expect(JSON.stringify(line)).toContain('relation \\"namespaces\\" does not exist');

      // A registration too (its INSERT INTO namespaces fails).
      const put = await register(server, "new-job");
      expect(put.status).toBe(500);
      expect(put.body).toMatch(/^internal error \(request req-[0-9a-z]+\)$/);

      // A 400 keeps its message.
      const bad = await fetch(`${server.api}/v1/jobs?filter=${encodeURIComponent("Status ==")}`);
      expect(bad.status).toBe(400);
      expect(await bad.text()).toBe('failed to create result paginator: failed to read filter expression: expected a value after "==", but the expression ends at 1:10');
    } finally {
      await stop(server);
    }
  });

  it("a database that refuses writes (default_transaction_read_only): the failed registration makes /v1/agent/health 500 and the ops /health 503, until a registration succeeds", async () => {
    const url = await cluster.createDatabase("errors_readonly");
    const name = databaseName(url);
    const server = await start(["--database", url, "--data", file]);
    try {
      expect((await register(server, "before")).status).toBe(200);
      expect(await health(server)).toEqual({ agent: 200, message: "ok", ops: 200 });

      await admin.query(`ALTER DATABASE ${name} SET default_transaction_read_only = on`);
      await dropPooledConnections(name);
      const refused = await register(server, "refused");
      expect(refused.status).toBe(500);
      expect(refused.body).toMatch(/^internal error \(request req-[0-9a-z]+\)$/);
      const unhealthy = await health(server);
      expect(unhealthy).toEqual({ agent: 500, message: "database writes failing: the database refuses writes (read-only) (SQLSTATE 25006)", ops: 503 });
      // The store's own message, logged long after the start, reaches the server's log (its stdout,
      // which may reach this test after the answers).
      await until("the store's message in the log", () => logLines(server).some((l) => l["msg"] === "registration failed, the store reports unhealthy until one succeeds"), 20);
      // Lists are still served (read-only snapshots).
      expect((await fetch(`${server.api}/v1/jobs`)).status).toBe(200);
      expect((await health(server)).ops).toBe(503);

      await admin.query(`ALTER DATABASE ${name} RESET default_transaction_read_only`);
      await dropPooledConnections(name);
      expect((await register(server, "after")).status).toBe(200);
      expect(await health(server)).toEqual({ agent: 200, message: "ok", ops: 200 });
    } finally {
      await stop(server);
    }
  });
});
