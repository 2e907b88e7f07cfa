/**
 * vitest's global setup (vitest.config.ts): one PostgreSQL cluster for the whole test run, when
 * PostgreSQL is installed. Test files take a database of their own in it (shared-postgres.ts); only a
 * test that restarts or stops its cluster starts one of its own.
 */
import type { TestProject } from "vitest/node";
import { pgBin, startCluster, type PostgresCluster } from "./postgres-cluster.js";

// vitest runs a root global setup once per project: the projects share one cluster, stopped when the
// last of them tears down.
let cluster: Promise<PostgresCluster | undefined> | undefined;
let users = 0;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  users++;
  cluster ??= pgBin() === undefined ? Promise.resolve(undefined) : startCluster();
  const running = await cluster;
  project.provide("postgres", running === undefined ? null : { port: running.port, dir: running.dir });
  return async () => {
    if (--users === 0) await running?.stop();
  };
}
