/** The PostgreSQL cluster of the server's tests (kept apart from postgres.ts, which the benches import without vitest). */
import { sharedCluster } from "../../../test/support/shared-postgres.js";
import type { PostgresCluster } from "./postgres.js";

/** The test run's cluster (one per run: test/support/postgres-global.ts); each file makes its own databases. */
export function runCluster(): PostgresCluster {
  const cluster = sharedCluster();
  if (cluster === undefined) throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  return cluster;
}

/** `runCluster`, for files that read it lazily. */
export function clusterForFile(): () => PostgresCluster {
  return runCluster;
}
