/**
 * Real engines for the SQL tests: PGlite (PostgreSQL compiled to WebAssembly) and sql.js (SQLite),
 * each behind the small query function `filterPage` takes, with a table of JSON documents.
 */
import { PGlite } from "@electric-sql/pglite";
import initSqlJs from "sql.js";
import { registerSqliteFunctions, stringifyJson, type QueryFunction, type SqlDialect } from "../../src/index.js";

export interface Engine {
  readonly dialect: SqlDialect;
  readonly query: QueryFunction;
  /** Creates `table (id text PRIMARY KEY, doc <json> NOT NULL)` holding `rows` (JSON texts by key). */
  load(table: string, rows: readonly (readonly [string, string])[]): Promise<void>;
  close(): Promise<void>;
}

/** A PostgreSQL table of `rows` (JSON texts by key) as `jsonb`, 500 rows a statement. */
async function loadJsonb(query: QueryFunction, table: string, rows: readonly (readonly [string, string])[]): Promise<void> {
  await query(`DROP TABLE IF EXISTS ${table}`, []);
  await query(`CREATE TABLE ${table} (id text PRIMARY KEY, doc jsonb NOT NULL)`, []);
  for (let i = 0; i < rows.length; i += 500) {
    const part = rows.slice(i, i + 500);
    await query(`INSERT INTO ${table} VALUES ${part.map((_, j) => `($${2 * j + 1}, $${2 * j + 2}::jsonb)`).join(", ")}`, part.flat());
  }
}

export async function openPglite(): Promise<Engine> {
  const db = new PGlite();
  const query: QueryFunction = async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows;
  return {
    dialect: "postgres",
    query,
    load: (table, rows) => loadJsonb(query, table, rows),
    close: () => db.close(),
  };
}

export async function openSqlite(): Promise<Engine> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  registerSqliteFunctions(db);
  const query: QueryFunction = async (sql, params) => {
    const stmt = db.prepare(sql);
    try {
      stmt.bind(params as (string | number | null)[]);
      const rows: Record<string, unknown>[] = [];
      while (stmt.step()) rows.push(stmt.getAsObject());
      return rows;
    } finally {
      stmt.free();
    }
  };
  return {
    dialect: "sqlite",
    query,
    async load(table, rows) {
      db.run(`DROP TABLE IF EXISTS ${table}; CREATE TABLE ${table} (id text PRIMARY KEY, doc text NOT NULL)`);
      const stmt = db.prepare(`INSERT INTO ${table} VALUES (?, ?)`);
      for (const r of rows) stmt.run([r[0], r[1]]);
      stmt.free();
    },
    close: async () => db.close(),
  };
}

/** JSON text keeping `bigint`s exact (the inverse of `parseJson`): the storage recipe of docs/sql.md. */
export const stringify = stringifyJson;

/** Whether the engine can store the JSON text at all (PostgreSQL's jsonb refuses U+0000 and lone surrogates). */
export function storable(dialect: SqlDialect, json: string): boolean {
  return dialect === "sqlite" || !/\\u0000|\\ud[89a-f]/i.test(json);
}

/** PostgreSQL itself (Debian's binaries): a database of its own in the test run's cluster, one connection, behind the same interface. */
export async function openPostgres(): Promise<Engine> {
  const { sharedCluster } = await import("../support/shared-postgres.js");
  const pg = (await import("pg")).default;
  const cluster = sharedCluster();
  if (cluster === undefined) throw new Error("PostgreSQL is not installed (apt-get install postgresql, or PG_BIN)");
  const client = new pg.Client({ connectionString: await cluster.createDatabase("engine") });
  await client.connect();
  const query: QueryFunction = async (sql, params) => (await client.query<Record<string, unknown>>(sql, params)).rows;
  return {
    dialect: "postgres",
    query,
    load: (table, rows) => loadJsonb(query, table, rows),
    async close() {
      await client.end().catch(() => undefined);
    },
  };
}
