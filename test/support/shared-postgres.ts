/**
 * The test run's PostgreSQL cluster (postgres-global.ts) as test files use it: each database made
 * here gets a name no other file can take (files run at the same time), and is dropped when the run's
 * cluster goes.
 */
import { inject } from "vitest";
import { clusterAt, type PostgresCluster } from "./postgres-cluster.js";

let made = 0;

/** The run's cluster, or undefined when PostgreSQL is not installed. Its `stop` does nothing. */
export function sharedCluster(): PostgresCluster | undefined {
  const address = inject("postgres");
  if (address === null || address === undefined) return undefined;
  const cluster = clusterAt(address);
  return {
    ...cluster,
    // `name`, made unique among the run's files: `<name>_<pid>_<n>`.
    createDatabase: (name) => cluster.createDatabase(`${name}_${process.pid}_${++made}`),
    stop: async () => undefined,
  };
}

/** The name of the database of a `postgres://` URL. */
export const databaseName = (url: string): string => decodeURIComponent(new URL(url).pathname.slice(1));
