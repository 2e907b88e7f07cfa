/** A test file's PostgreSQL cluster (kept apart from postgres.ts, which the benches import without vitest). */
import { afterAll, beforeAll } from "vitest";
import { startPostgres, type PostgresCluster } from "./postgres.js";

/** One cluster for the calling test file: started before its tests, stopped after them. */
export function clusterForFile(): () => PostgresCluster {
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return () => {
    if (cluster === undefined) throw new Error("the cluster is not started yet");
    return cluster;
  };
}
