/**
 * PostgreSQL for the server's tests and benches: the library's cluster (test/support/postgres-cluster.ts),
 * under the names the server's files use.
 */
import { startCluster, type PostgresCluster } from "../../../test/support/postgres-cluster.js";
import type { AnswerCache } from "../../src/scheduler/answers.js";

export type { PostgresCluster } from "../../../test/support/postgres-cluster.js";
export { freePort, pgBin as postgresBin } from "../../../test/support/postgres-cluster.js";

/**
 * Starts a cluster of its own (a few seconds; tests take the run's shared one, support/cluster.ts).
 * `settings`: more server settings (`-c name=value`) on top of the defaults (PostgreSQL's own
 * `shared_buffers`, 128MB): a bench over a large table sizes its memory to the data.
 */
export function startPostgres(options: { settings?: Readonly<Record<string, string>> } = {}): Promise<PostgresCluster> {
  return startCluster(options.settings);
}

// ---- the scheduler's app on either store, for the store suites ----

import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../src/app.js";
import type { AclToken } from "../../src/context.js";
import { snapshotFromData } from "../../src/lists/load.js";
import { SchedulerState } from "../../src/store/memory/state.js";
import { MemoryStore } from "../../src/store/memory/index.js";
import { PostgresStore } from "../../src/store/postgres/index.js";
import type { SchedulerStore } from "../../src/store/types.js";
import { testContext } from "./context.js";

export type StoreKind = "memory" | "postgres";

export interface StoreServer {
  app: FastifyInstance;
  base: string;
  store: SchedulerStore;
  close(): Promise<void>;
}

let databases = 0;

/** The real app on a loopback port over a new store of `kind` holding `data` (a fresh database for PostgreSQL). */
export async function serveStore(kind: StoreKind, cluster: PostgresCluster | undefined, data: unknown, tokens?: AclToken[]): Promise<StoreServer> {
  let store: SchedulerStore;
  if (kind === "memory") store = new MemoryStore(new SchedulerState(snapshotFromData(data)));
  else {
    if (cluster === undefined) throw new Error("no PostgreSQL cluster");
    const url = await cluster.createDatabase(`suite_${process.pid}_${++databases}`);
    store = await PostgresStore.open(url, () => snapshotFromData(data), () => undefined, 4);
  }
  return serveOn(store, tokens);
}

/** The real app on a loopback port over `store` (closing it closes the store); `answers`: its shared-answer cache. */
export async function serveOn(store: SchedulerStore, tokens?: AclToken[], answers?: AnswerCache): Promise<StoreServer> {
  const app = await buildApp(testContext(tokens), answers === undefined ? { scheduler: store } : { scheduler: store, answers });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return {
    app,
    base: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    store,
    async close() {
      store.releaseWaiters();
      await app.close();
      await store.close();
    },
  };
}
