import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { loadAclTokens, TokenAcl } from "../acl.js";
import { DEFAULT_API_HEADERS } from "../api-headers.js";
import { buildApp } from "../app.js";
import type { ServerContext, ServerOptions } from "../context.js";
import { newLogEvents } from "../context.js";
import { generateDemo } from "../demo/generate.js";
import { DataFileError, loadDataFile, otherServicesData } from "../lists/load.js";
import type { Snapshot } from "../lists/records.js";
import { isObj } from "../object.js";
import { LevelPersistence } from "../store/memory/persist.js";
import { SchedulerState } from "../store/memory/state.js";
import { MemoryStore } from "../store/memory/index.js";
import { DatabaseError, openPostgresStore } from "../store/postgres/index.js";
import type { SchedulerStore } from "../store/types.js";
import type { ServerConfig } from "./config.js";
import { AnswerCache } from "../scheduler/answers.js";
import { FilterCache } from "../lists/filters.js";
import { closeWithin } from "./connections.js";
import { buildOpsApp } from "./health.js";
import { Lifecycle } from "./lifecycle.js";
import { collectGarbage } from "./memory.js";

export interface RunningServer {
  ctx: ServerContext;
  app: FastifyInstance;
  ops: FastifyInstance;
  /** The scheduler's store (memory, or PostgreSQL with --database). */
  state: SchedulerStore;
  /** The compiled-filter cache and the shared list answers of the scheduler endpoints. */
  filters: FilterCache;
  answers: AnswerCache;
  lifecycle: Lifecycle;
  /** e.g. http://127.0.0.1:4646 */
  apiUrl: string;
  opsUrl: string;
}

/** A file that cannot be read or parsed; the message names it. */
export class StartupError extends Error {}

export function packageVersion(): string {
  // ../../package.json from src/ops, ../package.json from dist/.
  const require = createRequire(import.meta.url);
  for (const path of ["../../package.json", "../package.json"]) {
    try {
      const pkg = require(path) as { name?: string; version?: string };
      if (pkg.name === "filter-server" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // try the next location
    }
  }
  return "0.0.0";
}

/** The --data file: its name and bytes. */
interface DataFile {
  readonly file: string;
  readonly bytes: Buffer;
}

async function readDataFile(file: string): Promise<DataFile> {
  try {
    return { file, bytes: await readFile(file) };
  } catch (e) {
    throw new StartupError(`data file ${file}: ${(e as Error).message}`);
  }
}

/**
 * `read(bytes)` of the --data file, its JSON syntax errors named as the file's, and so is a file too
 * large to be read whole (past 512 MiB of text) where it must be.
 */
function fromDataFile<T>({ file, bytes }: DataFile, read: (bytes: Buffer) => T): T {
  try {
    return read(bytes);
  } catch (e) {
    if (e instanceof SyntaxError || (e as NodeJS.ErrnoException).code === "ERR_STRING_TOO_LONG") throw new StartupError(`data file ${file}: ${(e as Error).message}`);
    // A record's mistake names the file and the path inside it (`data file jobs.json: [3].Priority: …`).
    if (e instanceof DataFileError) throw new DataFileError(`data file ${file}: ${e.message}`);
    throw e;
  }
}

/**
 * The --data file parsed whole: what the other services read (`ctx.data`), and the state it describes,
 * made when asked (a store that already holds one never asks) by the loader the embedded store uses.
 */
function parseDataFile(ctx: ServerContext, file: DataFile): () => Snapshot {
  const data = fromDataFile(file, (bytes) => JSON.parse(bytes.toString("utf8")) as unknown);
  ctx.data = otherServicesData(data);
  return () => fromDataFile(file, (bytes) => loadDataFile(bytes).snapshot);
}

/** The state of --data (read job by job, so that a large file's parse never lives beside it), or the demo set. */
function initialState(ctx: ServerContext, data: DataFile | undefined): Snapshot {
  if (data === undefined) return generateDemo();
  const loaded = fromDataFile(data, loadDataFile);
  ctx.data = loaded.rest;
  return loaded.snapshot;
}

/** The state: from --data-dir when it holds one, else from --data or the demo set (and saved to --data-dir). */
async function openState(ctx: ServerContext, data: DataFile | undefined, log: (msg: string, extra?: object) => void): Promise<SchedulerState> {
  const { options } = ctx;
  if (options.dataDir === undefined) return new SchedulerState(initialState(ctx, data));
  const persistence = await LevelPersistence.open(options.dataDir);
  ctx.storeHealth = () => persistence.health();
  const stored = await persistence.load();
  if (stored !== undefined) {
    if (data !== undefined) parseDataFile(ctx, data);
    log("state loaded from the data directory", { dataDir: options.dataDir, index: stored.index, jobs: stored.jobs.length, deployments: stored.deployments.length });
    return new SchedulerState(stored, persistence);
  }
  const snapshot = initialState(ctx, data);
  await persistence.seed(snapshot);
  log("new data directory seeded", { dataDir: options.dataDir, jobs: snapshot.jobs.length, deployments: snapshot.deployments.length });
  return new SchedulerState(snapshot, persistence);
}

/** The PostgreSQL store, seeded from --data or the demo set when its database has no state yet. */
async function openPostgres(ctx: ServerContext, url: string, data: DataFile | undefined, log: (msg: string, extra?: object) => void): Promise<SchedulerStore> {
  const initial = data === undefined ? generateDemo : parseDataFile(ctx, data);
  const rawApplies = isObj(ctx.data) ? ctx.data["applies"] : undefined;
  const store = await openPostgresStore(url, initial, log, rawApplies).catch((e: unknown) => {
    throw e instanceof DatabaseError ? new StartupError(e.message) : e;
  });
  // The applies are the database's (seeded with it), so that every server shows the same.
  const { applies: _fromFile, ...rest } = (ctx.data ?? {}) as Record<string, unknown>;
  ctx.data = store.applies === undefined ? rest : { ...rest, applies: store.applies };
  ctx.storeHealth = () => store.health();
  return store;
}

/** The scheduler's store (memory, or PostgreSQL with --database), its state from --data when given. */
async function openStore(ctx: ServerContext, log: (msg: string, extra?: object) => void): Promise<SchedulerStore> {
  const { options } = ctx;
  const data = options.dataFile === undefined ? undefined : await readDataFile(options.dataFile);
  return options.database !== undefined ? openPostgres(ctx, options.database, data, log) : new MemoryStore(await openState(ctx, data, log));
}

function url(app: FastifyInstance): string {
  const address = app.server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}

/** Builds and starts both listeners. Signals are the caller's business (see main.ts). */
export async function startServer(options: ServerOptions, config?: ServerConfig): Promise<RunningServer> {
  const acl = new TokenAcl(options.aclTokensFile === undefined ? undefined : await loadAclTokens(options.aclTokensFile), options.apiHeaders);
  const ctx: ServerContext = {
    options,
    acl,
    version: { Version: packageVersion(), VersionPrerelease: "" },
    startedAt: new Date(),
    logEvents: newLogEvents(),
  };
  if (config !== undefined) ctx.config = config;

  // The store's messages: held until the API listener's logger exists, then written through it.
  const pending: [string, object | undefined][] = [];
  let write: ((msg: string, extra?: object) => void) | undefined;
  const log = (msg: string, extra?: object): void => (write === undefined ? void pending.push([msg, extra]) : write(msg, extra));
  const state = await openStore(ctx, log);
  // The data file's bytes and what loading it left behind are garbage now: returned at once (ops/memory.ts).
  if (options.dataFile !== undefined) collectGarbage();
  let lifecycle: Lifecycle | undefined;
  let app: FastifyInstance;
  const filters = new FilterCache();
  const answers = new AnswerCache();
  try {
    app = await buildApp(ctx, { scheduler: state, filters, answers });
  } catch (e) {
    await state.close();
    throw e;
  }
  write = (msg, extra) => app.log.info(extra ?? {}, msg);
  for (const [msg, extra] of pending.splice(0)) write(msg, extra);
  await app.listen({ host: options.bind, port: options.port, listenTextResolver: (address) => `API listener at ${address}` });

  const ops = await buildOpsApp(
    {
      phase: () => lifecycle?.phase ?? "serving",
      apiListening: () => app.server.listening,
      activeSessions: () => new Promise((resolve) => app.server.getConnections((err, n) => resolve(err ? 0 : n))),
      worker: options.worker ?? options.configFile === undefined,
      store: () => ctx.storeHealth?.() ?? { ok: true, message: "ok" },
    },
    app.log.child({ listener: "ops" }),
    options.requestTimeoutMs ?? 30_000,
  );
  await ops.listen({ host: options.opsBind ?? options.bind, port: options.opsPort, listenTextResolver: (address) => `ops listener at ${address}` });

  lifecycle = new Lifecycle(options.gracefulShutdownWaitMs, app.log, async () => {
    state.releaseWaiters();
    // In-flight requests may finish; what lingers past the bound (a trickled body, a reader that never
    // reads) is cut, so that a shutdown always completes.
    const bound = options.shutdownTimeoutMs ?? 10_000;
    await closeWithin(app, bound);
    await closeWithin(ops, bound);
    await state.close();
  });
  const running: RunningServer = { ctx, app, ops, state, filters, answers, lifecycle, apiUrl: url(app), opsUrl: url(ops) };
  const counts = await state.summary();
  app.log.info(
    { api: running.apiUrl, ops: running.opsUrl, ...counts, store: state.kind, acl: acl.enabled, apiHeaders: options.apiHeaders ?? DEFAULT_API_HEADERS },
    `filter-server listening on ${running.apiUrl} (health on ${running.opsUrl}/health)`,
  );
  return running;
}
