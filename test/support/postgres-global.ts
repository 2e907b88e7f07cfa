/**
 * vitest's global setup (vitest.config.ts): one PostgreSQL cluster for the whole test run, when
 * PostgreSQL is installed. Test files take a database of their own in it (shared-postgres.ts); only a
 * test that restarts or stops its cluster starts one of its own.
 */
import type { TestProject } from "vitest/node";
import { pgBin, startCluster, type ClusterAddress, type PostgresCluster } from "./postgres-cluster.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's cluster, or null when PostgreSQL is not installed. */
    postgres: ClusterAddress | null;
  }
}

let cluster: PostgresCluster | undefined;

export async function setup(project: TestProject): Promise<void> {
  if (pgBin() !== undefined) cluster = await startCluster();
  project.provide("postgres", cluster === undefined ? null : { port: cluster.port, dir: cluster.dir });
}

export async function teardown(): Promise<void> {
  await cluster?.stop();
}
