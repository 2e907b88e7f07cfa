/**
 * Versioned migrations: `schema_migrations` records each applied version; the pending ones run in
 * order, each in its own transaction, under an advisory lock so that servers starting together on
 * one database migrate it once. A database newer than this server refuses to start.
 */
import type { PoolClient } from "pg";
import { MIGRATIONS, type Migration } from "./migrations/index.js";

/** Advisory lock key of the migrations (any constant shared by every server). */
const MIGRATION_LOCK = 0x66696c74;

export class SchemaError extends Error {}

/** Brings the schema to the newest version this server knows; returns the versions applied. */
export async function migrate(client: PoolClient, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
  try {
    await client.query(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const { rows } = await client.query<{ v: number | null }>("SELECT max(version) AS v FROM schema_migrations");
    const current = rows[0]?.v ?? 0;
    if (current > migrations.length) {
      throw new SchemaError(`the database's schema is version ${current}, newer than this server's (${migrations.length}): upgrade filter-server`);
    }
    const applied: number[] = [];
    for (let version = current + 1; version <= migrations.length; version++) {
      const m = migrations[version - 1]!;
      await client.query("BEGIN");
      try {
        await client.query(m.sql);
        await client.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [version, m.name]);
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK");
        throw e;
      }
      applied.push(version);
    }
    return applied;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
  }
}
