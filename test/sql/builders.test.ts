/**
 * SQL pushdown through the query builders people use, as docs/sql.md's recipes write it: knex's
 * `whereRaw` (placeholders `question`), Kysely's and Drizzle's `sql` tagged template (placeholders
 * `template`), each run on a real PostgreSQL (PGlite; Drizzle through its own PGlite driver) and on
 * SQLite (sql.js, knex and Kysely compiling, sql.js running). The rows each gives are the rows the
 * compiled filter keeps.
 */
import { PGlite } from "@electric-sql/pglite";
import { sql as drizzleSql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/pglite";
import knexFactory from "knex";
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql as kyselySql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compile, quote, schemas, toSQL, type Filter } from "../../src/index.js";
import { openSqlite, type Engine } from "./engines.js";

const JOBS = [
  { ID: "a", Status: "running", Namespace: "prod", Datacenters: ["dc1", "dc2"], Priority: 50, JobSummary: { Summary: { web: { Running: 3 } } } },
  { ID: "b", Status: "dead", Namespace: "dev", Datacenters: ["dc2"], Priority: 20, JobSummary: { Summary: { api: { Running: 1 } } } },
  { ID: "c", Status: "running", Namespace: 'q"uote\\d', Datacenters: ["dc1"], Priority: 70, JobSummary: { Summary: { web: { Running: 0 } } } },
  { ID: "d", Status: "pending", Namespace: "dev", Datacenters: null, Priority: 50, JobSummary: { Summary: {} } },
];
const FILTERS = [
  'Status == "running" and "dc1" in Datacenters',
  '"web" in JobSummary.Summary',
  `Namespace == "prod" or Namespace == "dev" or Namespace == ${quote('q"uote\\d')}`,
  "Priority == 50 and Status != dead",
  '"web" in JobSummary.Summary and JobSummary.Summary["web"].Running == 3',
];
const kept = (f: Filter) => JOBS.filter((j) => f.evaluate(j)).map((j) => j.ID);
const ids = (rows: readonly Record<string, unknown>[]) => rows.map((r) => String(r["id"])).sort();

let pglite: PGlite;
let sqlite: Engine;
beforeAll(async () => {
  pglite = new PGlite();
  await pglite.exec("CREATE TABLE jobs (id text PRIMARY KEY, doc jsonb NOT NULL)");
  for (const j of JOBS) await pglite.query("INSERT INTO jobs VALUES ($1, $2::jsonb)", [j.ID, JSON.stringify(j)]);
  sqlite = await openSqlite();
  await sqlite.load("jobs", JOBS.map((j) => [j.ID, JSON.stringify(j)] as const));
});
afterAll(async () => {
  await pglite.close();
  await sqlite.close();
});

describe("toSQL in query builders", () => {
  it("knex: whereRaw(where, params) with placeholders: question, on PostgreSQL and SQLite", async () => {
    const pg = knexFactory({ client: "pg" });
    const lite = knexFactory({ client: "sqlite3", useNullAsDefault: true });
    for (const text of FILTERS) {
      const filter = compile(text, { schema: schemas.job });
      const onPg = toSQL(filter, { dialect: "postgres", column: "doc", placeholders: "question" });
      expect(onPg.where).not.toMatch(/\$\d/);
      const q = pg("jobs").select("id").whereRaw(onPg.where, onPg.params as never[]).toSQL().toNative();
      expect(ids((await pglite.query<Record<string, unknown>>(q.sql, q.bindings as unknown[])).rows), text).toEqual(kept(filter));
      const onLite = toSQL(filter, { dialect: "sqlite", column: "doc", placeholders: "question" });
      const l = lite("jobs").select("id").whereRaw(onLite.where, onLite.params as never[]).toSQL().toNative();
      expect(ids(await sqlite.query(l.sql, l.bindings as unknown[])), text).toEqual(kept(filter));
    }
    await pg.destroy();
    await lite.destroy();
  });

  it("Kysely: sql(strings, ...values) with placeholders: template, on PostgreSQL and SQLite", async () => {
    const dialect = (sqliteEngine: boolean) => ({
      createAdapter: () => (sqliteEngine ? new SqliteAdapter() : new PostgresAdapter()),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db: Kysely<unknown>) => (sqliteEngine ? new SqliteIntrospector(db) : new PostgresIntrospector(db)),
      createQueryCompiler: () => (sqliteEngine ? new SqliteQueryCompiler() : new PostgresQueryCompiler()),
    });
    const pg = new Kysely<{ jobs: { id: string; doc: unknown } }>({ dialect: dialect(false) });
    const lite = new Kysely<{ jobs: { id: string; doc: unknown } }>({ dialect: dialect(true) });
    for (const text of FILTERS) {
      const filter = compile(text, { schema: schemas.job });
      const onPg = toSQL(filter, { dialect: "postgres", column: "doc", placeholders: "template" }).template!;
      expect(onPg.strings.length).toBe(onPg.values.length + 1);
      const q = pg.selectFrom("jobs").select("id").where(kyselySql<boolean>(onPg.strings, ...onPg.values)).compile();
      expect(ids((await pglite.query<Record<string, unknown>>(q.sql, [...q.parameters])).rows), text).toEqual(kept(filter));
      const onLite = toSQL(filter, { dialect: "sqlite", column: "doc", placeholders: "template" }).template!;
      const l = lite.selectFrom("jobs").select("id").where(kyselySql<boolean>(onLite.strings, ...onLite.values)).compile();
      expect(ids(await sqlite.query(l.sql, [...l.parameters])), text).toEqual(kept(filter));
    }
  });

  it("Drizzle: sql(strings, ...values) with placeholders: template, run by Drizzle's PGlite driver", async () => {
    const db = drizzle(pglite);
    for (const text of FILTERS) {
      const filter = compile(text, { schema: schemas.job });
      const { strings, values } = toSQL(filter, { dialect: "postgres", column: "doc", placeholders: "template" }).template!;
      const result = await db.execute(drizzleSql`SELECT id FROM jobs WHERE ${drizzleSql(strings, ...values)}`);
      expect(ids(result.rows as Record<string, unknown>[]), text).toEqual(kept(filter));
    }
  });

  it("numbered placeholders share a number between equal values; question and template never do", () => {
    const filter = compile('"web" in JobSummary.Summary and JobSummary.Summary.web.Running == 3', { schema: schemas.job });
    const numbered = toSQL(filter, { dialect: "postgres", column: "doc" });
    const question = toSQL(filter, { dialect: "postgres", column: "doc", placeholders: "question" });
    expect(numbered.where).toContain(" ? ");
    expect(numbered.params.length).toBeLessThan(question.params.length);
    expect(question.where.split("?").length - 1).toBe(question.params.length);
    expect(question.where).toContain("jsonb_exists(");
    expect(() => toSQL(filter, { dialect: "postgres", placeholders: "colon" as never })).toThrow(/placeholders must be/);
  });
});
