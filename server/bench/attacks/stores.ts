/**
 * Where an attack's server keeps its data: the embedded store (the demo set, or `--data` of the large
 * file), or PostgreSQL (`--database URL`, else a throw-away cluster of the test helper: a fresh database
 * for each attack on the demo set, one database seeded once with the large file for the scans).
 */
import { join } from "node:path";
import pg from "pg";
import { startPostgres, type PostgresCluster } from "../../test/support/postgres.js";
import { writeData } from "../support.js";
import type { Dataset } from "./attack.js";
import { launch, onExit, shutdown } from "./servers.js";

export type StoreKind = "memory" | "postgres";

export interface Stores {
  /** The server options of an attack on `dataset` in `kind`. */
  args(kind: StoreKind, dataset: Dataset): Promise<string[]>;
  /** Stops the throw-away cluster, if one was made. */
  close(): Promise<void>;
}

/** The stores of one run: the large file (`jobs` jobs) written in `dir` when first needed, the cluster started when first needed. */
export function stores(dir: string, jobs: number, database: string | undefined, log: (line: string) => void): Stores {
  let dataFile: Promise<string> | undefined;
  let cluster: Promise<PostgresCluster> | undefined;
  let seeded: Promise<string> | undefined;
  let databases = 0;

  const data = (): Promise<string> =>
    (dataFile ??= (async () => {
      const file = join(dir, "data.json");
      const t = performance.now();
      await writeData(file, jobs);
      log(`wrote ${jobs} jobs to ${file} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      return file;
    })());

  const postgres = (): Promise<PostgresCluster> =>
    (cluster ??= startPostgres().then((c) => {
      onExit(() => void c.stop());
      log(`throw-away PostgreSQL cluster on port ${c.port}`);
      return c;
    }));

  /** The database of the scans: seeded by a server started with `--data` (which seeds an empty database only), then analysed. */
  const scanDatabase = (): Promise<string> =>
    (seeded ??= (async () => {
      const url = database ?? (await (await postgres()).createDatabase("attack_scan"));
      const t = performance.now();
      const seeder = await launch(["--database", url, "--data", await data()]);
      await shutdown(seeder, 60_000);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("VACUUM ANALYZE");
      await client.end();
      log(`seeded ${url} in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      return url;
    })());

  return {
    async args(kind, dataset) {
      if (kind === "memory") return dataset === "scan" ? ["--data", await data()] : [];
      if (dataset === "scan") return ["--database", await scanDatabase()];
      return ["--database", database ?? (await (await postgres()).createDatabase(`attack_${++databases}`))];
    },
    async close() {
      if (cluster !== undefined) await (await cluster).stop();
    },
  };
}
