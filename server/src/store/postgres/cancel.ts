/**
 * Cancels the statement a backend runs, from a connection of its own (the busy one cannot be used and
 * the pool may have none free): `pg_cancel_backend`, allowed on the backends of the same role.
 */
import pg from "pg";

/** Resolves once the backend was signalled (or the attempt failed, which `onError` is told). */
export async function cancelBackend(url: string, pid: number, onError: (e: unknown) => void): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", onError);
  try {
    await client.connect();
    await client.query("SELECT pg_cancel_backend($1)", [pid]);
  } catch (e) {
    onError(e);
  } finally {
    await client.end().catch(() => undefined);
  }
}
