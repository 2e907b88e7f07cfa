/**
 * The PostgreSQL store: jobs (with their summaries), deployments, namespaces and the index in one
 * database that several servers share. Lists are read in a read-only snapshot with the library's
 * pushdown, every statement under a statement timeout: a page whose pushed-down statements run out of
 * time is read again with the pushdown in key ranges (a bounded number of rows of the key order per
 * statement), and one whose ranged statement does too without the pushdown, the compiled filter
 * deciding each row on the request's budget.
 * A read whose client went away is cancelled. Connections are handed out by a bounded queue (503 when
 * it is full or the wait too long). A registration is one transaction that takes the next index (a
 * row lock orders writers across servers) and notifies every server (`LISTEN`/`NOTIFY` on one
 * connection per server), which wakes its blocking queries; a registration the database refused makes
 * the store unhealthy until one succeeds. Each registration also writes its changes to a bounded change
 * log, which every server reads back, on the notifications, to feed its event stream (`onCommit`).
 */
import pg from "pg";
import { toSQL } from "filter-expr";
import { LIST_ENDPOINTS, perTable } from "../../lists/endpoints.js";
import { DataFileError } from "../../lists/load.js";
import { planRegistration, type JobSpec, type RegisterResponse } from "../../lists/register.js";
import { changesOf, RECORD_LISTS, snapshotOf, type RecordChange, type Snapshot, type Table } from "../../lists/records.js";
import { TERMINAL_DEPLOYMENT_STATUSES, type Deployment, type JobListEntry, type JobRecord } from "../../lists/records.js";
import { holdable } from "./text-bounds.js";
import type { Commit, ListRead, SchedulerStore, StorePage } from "../types.js";
import { Waiters } from "../waiters.js";
import { cancelBackend } from "./cancel.js";
import { CHANGE_LOG_WRITES, logChanges, readChanges } from "./change-log.js";
import { ClientGone } from "../../lists/errors.js";
import { isCanceled, writeFailure } from "./errors.js";
import { ChangeFeed } from "./feed.js";
import { ConnectionGate, gateLimits, type GateLimits } from "./gate.js";
import { migrate, SchemaError } from "./migrate.js";
import { pushdownSql, RANGE_ROWS, readWalk, remembering, type ReadMode } from "./pages.js";

export { StoreBusy } from "./errors.js";

/** The page's pushed-down statements took the whole pushdown timeout before the next one. */
class PushdownOutOfTime extends Error {}

/** The channel every server listens on; the payload is {"jobs": n, "deployments": n} of a commit. */
export const INDEX_CHANNEL = "filter_server_index";

/** A database the server cannot use at start; the message is one line naming it and the cause. */
export class DatabaseError extends Error {}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== "") u.password = "****";
    return u.toString();
  } catch {
    return "(invalid URL)";
  }
}

function describe(e: unknown): string {
  if (e instanceof AggregateError && e.errors.length > 0) return describe(e.errors[0]);
  const err = e as NodeJS.ErrnoException;
  const message = err?.message || err?.code || String(e);
  return message.split("\n")[0]!;
}

type Log = (msg: string, extra?: object) => void;

const TERMINAL = [...TERMINAL_DEPLOYMENT_STATUSES];
const BATCH = 500;

/**
 * `statement_timeout` of the statements that carry a filter's translation, in milliseconds (the first
 * attempt's statements share it). A page that reaches it is read again with the same pushdown in key
 * ranges (`RANGE_ROWS` rows of the key order a statement, each with a quarter of this timeout: a
 * condition costing more than ~12 µs a row is not worth pushing down); one whose ranged statement
 * still runs out of time, without the pushdown: it bounds what SQL may spend narrowing before the
 * in-process evaluation (itself bounded by the request's budget) takes over.
 */
export const PUSHDOWN_TIMEOUT_MS = 1_000;

/**
 * `statement_timeout` of the other statements of a list read (keyset chunks of at most 2,000 rows in
 * key order, without a condition of the filter's): a safety net, far above what they take.
 */
export const SCAN_TIMEOUT_MS = 10_000;

/** Settings of the store beyond its URL (tests shorten them). */
export interface PostgresStoreOptions {
  /** Connections the requests share (default 10; the pool holds one more, see `open`). */
  poolSize?: number;
  /** `statement_timeout` of pushed-down statements (default `PUSHDOWN_TIMEOUT_MS`). */
  pushdownTimeoutMs?: number;
  /** Rows of the key order a statement read again in key ranges passes over (default `RANGE_ROWS`). */
  rangeRows?: number;
  /** `statement_timeout` of the other read statements (default `SCAN_TIMEOUT_MS`). */
  scanTimeoutMs?: number;
  /** The bounds of the connection queue (default `gateLimits(poolSize)`). */
  gate?: Partial<GateLimits>;
  /** Reconnection delay of the notification connection (default 1 s). */
  relistenMs?: number;
  /** Writes the change log keeps, pruned by this server's registrations (default `CHANGE_LOG_WRITES`). */
  changeLogWrites?: number;
}

export class PostgresStore implements SchedulerStore {
  readonly kind = "postgres";
  private readonly index: Record<Table, number> = perTable(() => 1);
  private raft = 1;
  private readonly waiters = new Waiters();
  private listener: pg.Client | undefined;
  private relistenTimer: NodeJS.Timeout | undefined;
  /** Why the last registration failed for a database reason (client-facing words), until one succeeds. */
  private writeFailed: string | undefined;
  private closed = false;
  private readonly exactCache = new WeakMap<object, boolean>();
  private readonly gate: ConnectionGate;
  private readonly pushdownTimeoutMs: number;
  private readonly rangeRows: number;
  private readonly scanTimeoutMs: number;
  private readonly relistenMs: number;
  private readonly changeLogWrites: number;
  /** The committed writes of every server, from the change log; made by `open` once it knows the index. */
  private feed: ChangeFeed | undefined;
  /** The seed's "applies" (the apply resource's data), as the database holds them; undefined: none. */
  applies: unknown;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    private readonly log: Log,
    options: PostgresStoreOptions,
  ) {
    this.gate = new ConnectionGate({ ...gateLimits(options.poolSize ?? 10), ...options.gate });
    this.pushdownTimeoutMs = Math.max(1, Math.round(options.pushdownTimeoutMs ?? PUSHDOWN_TIMEOUT_MS));
    this.rangeRows = Math.max(1, Math.round(options.rangeRows ?? RANGE_ROWS));
    this.scanTimeoutMs = Math.max(1, Math.round(options.scanTimeoutMs ?? SCAN_TIMEOUT_MS));
    this.relistenMs = options.relistenMs ?? 1000;
    this.changeLogWrites = Math.max(1, Math.floor(options.changeLogWrites ?? CHANGE_LOG_WRITES));
  }

  /** Connects, migrates the schema, seeds an empty database, listens for other servers' writes. */
  static async open(url: string, initial: () => Snapshot, log: Log, poolSize: number | PostgresStoreOptions = 10, applies?: unknown): Promise<PostgresStore> {
    const options = typeof poolSize === "number" ? { poolSize } : poolSize;
    // One connection more than the gate hands out, for the statements that do not pass it (the event
    // feed's reader, one statement at a time; the indexes' re-read): they never wait behind the
    // requests, nor take a place from them.
    const pool = new pg.Pool({ connectionString: url, max: (options.poolSize ?? 10) + 1, connectionTimeoutMillis: 10_000 });
    pool.on("error", (e) => log("idle database connection failed", { error: describe(e) }));
    // A connection lost while checked out fails its query (the request answers 500); its client's
    // 'error' event must not end the process.
    pool.on("connect", (client) => client.on("error", (e) => log("database connection lost", { error: describe(e) })));
    const store = new PostgresStore(pool, url, log, options);
    try {
      const client = await pool.connect();
      try {
        const applied = await migrate(client);
        if (applied.length > 0) log("database schema migrated", { versions: applied });
        await store.seed(client, initial, applies);
        const doc = await client.query<{ body: string }>("SELECT body FROM documents WHERE name = 'applies'");
        if (doc.rows[0] !== undefined) store.applies = JSON.parse(doc.rows[0].body);
      } finally {
        client.release();
      }
      await store.listen();
      await store.refresh();
      // The feed starts after the index seen now: earlier writes are the state the server starts with.
      store.feed = new ChangeFeed((after, writes) => readChanges(pool, after, writes), store.raft, log, { retryMs: store.relistenMs });
    } catch (e) {
      await store.close();
      // A data file the seed cannot read is the file's mistake, told as the embedded store tells it.
      if (e instanceof DataFileError) throw e;
      if (e instanceof SchemaError) throw new DatabaseError(`database ${redactUrl(url)}: ${e.message}`);
      throw new DatabaseError(`database ${redactUrl(url)}: ${describe(e)}`);
    }
    return store;
  }

  /** Loads the initial state (--data or the demo set) into a database that never had one, in one transaction. */
  private async seed(client: pg.PoolClient, initial: () => Snapshot, applies: unknown): Promise<void> {
    await client.query("BEGIN");
    try {
      const { rows } = await client.query<{ idx: string }>("SELECT idx FROM svc_index WHERE name = 'seeded' FOR UPDATE");
      if (Number(rows[0]?.idx ?? 0) !== 0) {
        await client.query("COMMIT");
        return;
      }
      const snapshot = initial();
      let jobsIndex = 1;
      for (const r of snapshot.jobs) jobsIndex = Math.max(jobsIndex, r.entry.ModifyIndex, r.entry.JobSummary?.ModifyIndex ?? 0);
      let deploymentsIndex = 1;
      for (const d of snapshot.deployments) deploymentsIndex = Math.max(deploymentsIndex, d.ModifyIndex);
      const indexes: Record<string, number> = { jobs: jobsIndex, deployments: deploymentsIndex };
      for (const table of Object.values(RECORD_LISTS)) indexes[table] = snapshot[table].reduce((max, item) => Math.max(max, item.ModifyIndex), 1);
      const raft = Math.max(1, snapshot.index, ...Object.values(indexes));
      indexes["raft"] = raft;
      for (let i = 0; i < snapshot.jobs.length; i += BATCH) await insertJobs(client, snapshot.jobs.slice(i, i + BATCH));
      for (let i = 0; i < snapshot.deployments.length; i += BATCH) await insertDeployments(client, snapshot.deployments.slice(i, i + BATCH));
      const records = changesOf(snapshotOf({ allocations: snapshot.allocations, nodes: snapshot.nodes, evaluations: snapshot.evaluations })) as RecordChange[];
      for (let i = 0; i < records.length; i += BATCH) await insertRecords(client, records.slice(i, i + BATCH));
      await client.query("INSERT INTO namespaces (name) SELECT DISTINCT namespace FROM jobs ON CONFLICT DO NOTHING");
      if (applies !== undefined) await client.query("INSERT INTO documents (name, body) VALUES ('applies', $1)", [JSON.stringify(applies)]);
      await client.query(
        // Every table's index and the raft index; any other row ('seeded') is 1.
        "UPDATE svc_index s SET idx = coalesce((SELECT v.idx FROM unnest($1::text[], $2::bigint[]) AS v(name, idx) WHERE v.name = s.name), 1)",
        [Object.keys(indexes), Object.values(indexes)],
      );
      await client.query("COMMIT");
      // The planner's statistics of the seed, before the first list (autovacuum would take a while).
      await client.query(LIST_ENDPOINTS.map(({ table }) => `ANALYZE ${table}`).join("; "));
      this.log("new database seeded", { jobs: snapshot.jobs.length, deployments: snapshot.deployments.length });
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw e;
    }
  }

  /**
   * Opens the notification connection (`LISTEN`). Its loss (an 'error', an 'end', or both) is handled
   * once: the client is ended and one reconnection is scheduled, so a server holds one such
   * connection however often the database restarts.
   */
  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (n) => {
      if (n.channel !== INDEX_CHANNEL || n.payload === undefined) return;
      try {
        const seen = JSON.parse(n.payload) as Partial<Record<Table | "raft", number>>;
        this.advance(seen);
      } catch {
        // not ours
      }
      this.feed?.kick(this.raft);
    });
    // Before it is the listener, a failure reaches the caller through connect or query.
    client.on("error", (e) => this.lost(client, e));
    client.on("end", () => this.lost(client, undefined));
    try {
      await client.connect();
      await client.query(`LISTEN ${INDEX_CHANNEL}`);
    } catch (e) {
      await client.end().catch(() => undefined);
      throw e;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
  }

  /** The notification connection `client` failed or ended: drop it and reconnect (once per loss). */
  private lost(client: pg.Client, e: Error | undefined): void {
    if (this.closed || client !== this.listener) return;
    this.listener = undefined;
    this.log("database notifications lost, reconnecting", { error: e === undefined ? "connection ended" : describe(e) });
    void client.end().catch(() => undefined);
    this.relisten();
  }

  /** Schedules one attempt to listen again and re-read the indexes; at most one is pending. */
  private relisten(): void {
    if (this.closed || this.relistenTimer !== undefined) return;
    this.relistenTimer = setTimeout(() => {
      void (async () => {
        try {
          if (this.listener === undefined) await this.listen();
          await this.refresh();
          this.relistenTimer = undefined;
        } catch (e) {
          this.log("database notifications still lost", { error: describe(e) });
          this.relistenTimer = undefined;
          this.relisten();
        }
      })();
    }, this.relistenMs);
    this.relistenTimer.unref();
  }

  /** Reads the indexes (at start, after a lost notification connection). */
  private async refresh(): Promise<void> {
    const { rows } = await this.pool.query<{ name: string; idx: string }>("SELECT name, idx FROM svc_index");
    const seen: Record<string, number> = {};
    for (const r of rows) seen[r.name] = Number(r.idx);
    this.advance(seen);
    // Writes whose notifications were lost with the connection are in the change log.
    this.feed?.kick(this.raft);
  }

  /** Moves the known indexes forward (never back) and wakes the blocking queries they pass. */
  private advance(seen: Partial<Record<Table | "raft", number>>): void {
    if (typeof seen.raft === "number" && seen.raft > this.raft) this.raft = seen.raft;
    for (const { table } of LIST_ENDPOINTS) {
      const n = seen[table];
      if (typeof n === "number" && n > this.index[table]) {
        this.index[table] = n;
        this.raft = Math.max(this.raft, n);
        this.waiters.wake(table, n);
      }
    }
  }

  indexOf(table: Table): number {
    return this.index[table];
  }

  /**
   * Not ok while the notification connection is lost (blocking queries would not hear other servers'
   * writes), nor after a registration the database refused (a full disk, a read-only database, a lost
   * connection…) until a registration succeeds. The message is for anonymous clients: no address.
   */
  health(): { ok: boolean; message: string } {
    if (this.closed) return { ok: true, message: "ok" };
    if (this.listener === undefined) return { ok: false, message: "database notification connection lost, reconnecting" };
    if (this.writeFailed !== undefined) return { ok: false, message: this.writeFailed };
    return { ok: true, message: "ok" };
  }

  private exact(read: ListRead<unknown>): boolean {
    const filter = read.filter;
    if (filter === undefined) return true;
    let exact = this.exactCache.get(filter);
    if (exact === undefined) {
      exact = toSQL({ ast: filter.ast, schema: filter.schema }, { dialect: "postgres", ...pushdownSql(read.endpoint) }).exact;
      this.exactCache.set(filter, exact);
    }
    return exact;
  }

  /**
   * One page in one read-only snapshot, every statement under `statement_timeout` (the pushdown's with
   * a filter, the scan's without). When a statement with the filter pushed down runs out of time, the
   * snapshot goes back to its savepoint and the page is read again without the pushdown, in keyset
   * chunks (each row the first attempt decided is not evaluated again).
   * When `read.signal` aborts, the running statement is cancelled and the connection goes back to the
   * pool at once (`ClientGone`).
   */
  /** A place in the gate's queue (`filtered`: one of the places reads with a filter may take), then a pooled connection. */
  private async connect(filtered: boolean, signal?: AbortSignal): Promise<{ client: pg.PoolClient; release: () => void }> {
    const release = await this.gate.acquire(filtered, signal);
    try {
      return { client: await this.pool.connect(), release };
    } catch (e) {
      release();
      throw e;
    }
  }

  async readJob(namespace: string, id: string, signal?: AbortSignal): Promise<{ record: JobRecord | undefined; index: number }> {
    // Text PostgreSQL cannot hold names no stored job.
    if (!holdable(namespace) || !holdable(id)) return { record: undefined, index: this.index.jobs };
    const row = await this.readOne<{ idx: string; version: number | null; body: string | null }>(
      "SELECT s.idx::text AS idx, j.version, j.body FROM svc_index s LEFT JOIN jobs j ON j.namespace = $1 AND j.id = $2 WHERE s.name = 'jobs'",
      [namespace, id],
      signal,
    );
    const index = Number(row.idx);
    this.advance({ jobs: index });
    return { record: row.body === null ? undefined : { entry: JSON.parse(row.body) as JobListEntry, version: row.version ?? 0 }, index };
  }

  async namespaces(signal?: AbortSignal): Promise<{ names: string[]; index: number }> {
    const row = await this.readOne<{ idx: string; names: string[] }>(
      "SELECT (SELECT idx FROM svc_index WHERE name = 'jobs')::text AS idx, coalesce(array_agg(name ORDER BY name), '{}') AS names FROM namespaces",
      [],
      signal,
    );
    const index = Number(row.idx);
    this.advance({ jobs: index });
    return { names: row.names, index };
  }

  /** The one row of a short read (one statement, through the connection queue, under the scan timeout). */
  private async readOne<R extends pg.QueryResultRow>(sql: string, params: unknown[], signal: AbortSignal | undefined): Promise<R> {
    const { client, release } = await this.connect(false, signal);
    try {
      await client.query(`SET statement_timeout = ${this.scanTimeoutMs}`);
      const { rows } = await client.query<R>(sql, params);
      return rows[0]!;
    } finally {
      await client.query("RESET statement_timeout").catch(() => undefined);
      client.release();
      release();
    }
  }

  async readPage<T>(read: ListRead<T>): Promise<StorePage<T>> {
    const table = read.endpoint.table;
    const signal = read.signal;
    const { client, release } = await this.connect(read.filter !== undefined, signal);
    let pid: number | undefined;
    let cancelling: Promise<void> | undefined;
    const onAbort = (): void => {
      if (pid !== undefined) cancelling ??= cancelBackend(this.url, pid, (e) => this.log("could not cancel a statement", { error: describe(e) }));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    let broken = false;
    const succeeds = (sql: string): Promise<boolean> =>
      client.query(sql).then(
        () => true,
        () => false,
      );
    const timeout = read.filter === undefined ? this.scanTimeoutMs : this.pushdownTimeoutMs;
    try {
      // One round trip opens the snapshot, reads its index and the namespaces (constant SQL text), marks
      // where a timed-out pushdown goes back to, and bounds the statements: the scan's timeout, and
      // after the savepoint the pushdown's (going back to the savepoint restores the scan's).
      const opened = (await client.query(
        `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = ${this.scanTimeoutMs}; SELECT pg_backend_pid() AS pid, (SELECT idx FROM svc_index WHERE name = '${table}')::text AS idx, (SELECT coalesce(array_agg(name ORDER BY name), '{}') FROM namespaces) AS namespaces; SAVEPOINT pushdown; SET LOCAL statement_timeout = ${timeout}`,
      )) as unknown as pg.QueryResult[];
      const row = opened[2]!.rows[0] as { pid: number; idx: string | null; namespaces: string[] };
      pid = row.pid;
      const index = Number(row.idx ?? 1);
      // The pushed-down statements of the page share one timeout: before each one after the first,
      // the time its predecessors took is taken off (`SET LOCAL`, undone by going back to the savepoint).
      // Read again in key ranges, each statement has a quarter of it to itself.
      let pushing = read.filter !== undefined;
      let ranged = false;
      let left = timeout;
      const run = async (sql: string, params: unknown[]): Promise<Record<string, unknown>[]> => {
        if (signal?.aborted) throw new ClientGone();
        if (!pushing || ranged) return (await client.query(sql, params)).rows as Record<string, unknown>[];
        if (left < timeout) {
          if (left <= 0) throw new PushdownOutOfTime();
          await client.query(`SET LOCAL statement_timeout = ${left}`);
        }
        const started = performance.now();
        try {
          return (await client.query(sql, params)).rows as Record<string, unknown>[];
        } finally {
          left = Math.floor(left - (performance.now() - started));
        }
      };
      // Going back to the savepoint runs under the timeout the pushdown left (a few milliseconds in key
      // ranges), so on a busy machine that timeout may cancel it; it reads nothing and is sent again.
      const rewind = async (): Promise<void> => {
        for (let tries = 1; ; tries++) {
          try {
            await client.query("ROLLBACK TO SAVEPOINT pushdown");
            return;
          } catch (e) {
            if (!isCanceled(e) || signal?.aborted === true || tries === 3) throw e;
          }
        }
      };
      const once = remembering(read);
      const readWith = (mode: ReadMode) => readWalk(run, once, mode, row.namespaces);
      const exact = this.exact(read as ListRead<unknown>);
      const outOfTime = (e: unknown): boolean => pushing && (e instanceof PushdownOutOfTime || isCanceled(e)) && signal?.aborted !== true;
      let page;
      try {
        page = await readWith({ exact, pushdown: true });
      } catch (e) {
        if (!outOfTime(e)) throw e;
        const filter = read.filter?.expression.slice(0, 200);
        // Every row of the scan, the compiled filter deciding each (after going back to the savepoint).
        const withoutPushdown = () => {
          pushing = false;
          return readWith({ exact: false, pushdown: false });
        };
        // The planner walked the key order testing a condition no index serves (or misjudged one):
        // the same pushdown again, each statement over at most `rangeRows` rows of the key order,
        // where the table has more rows than a range (as the planner counts them); otherwise a range
        // is the whole table, and the condition costs more than the pushdown's time.
        await rewind();
        const { rows } = await client.query<{ n: number }>("SELECT reltuples::float8 AS n FROM pg_class WHERE oid = $1::regclass", [table]);
        if (!(Number(rows[0]?.n) > this.rangeRows)) {
          this.log("filter pushdown ran out of time, reading without it", { table, filter, timeoutMs: timeout });
          page = await withoutPushdown();
        } else {
          this.log("filter pushdown ran out of time, reading it in key ranges", { table, filter, timeoutMs: timeout });
          ranged = true;
          await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.floor(timeout / 4))}`);
          try {
            page = await readWith({ exact, pushdown: true, rangeRows: this.rangeRows });
          } catch (e2) {
            if (!outOfTime(e2)) throw e2;
            this.log("filter pushdown ran out of time in a key range, reading without it", { table, filter, timeoutMs: timeout });
            await rewind();
            page = await withoutPushdown();
          }
        }
      }
      // The page is read from one snapshot, and ending a read-only transaction changes nothing: an end
      // the pushdown's timeout cancels costs the connection (closed if it cannot roll back), not the answer.
      if (!(await succeeds("COMMIT"))) broken = !(await succeeds("ROLLBACK"));
      // What this snapshot saw is committed: no later answer of this server shows an older index.
      this.advance({ [table]: index });
      return { ...page, index };
    } catch (e) {
      // A cancel sent for this read lands before the connection serves anything else.
      await cancelling;
      broken = !(await succeeds("ROLLBACK"));
      if (signal?.aborted) throw new ClientGone();
      throw e;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      await cancelling;
      // A connection that could not roll back is closed rather than handed to the next request.
      client.release(broken ? new Error("rollback failed") : undefined);
      release();
    }
  }

  /** One transaction; a failure for a database reason makes the store unhealthy until a registration succeeds. */
  async register(spec: JobSpec, nowMs: number): Promise<RegisterResponse> {
    try {
      const result = await this.write(spec, nowMs);
      this.writeFailed = undefined;
      return result;
    } catch (e) {
      const failure = writeFailure(e);
      if (failure !== undefined) {
        if (this.writeFailed === undefined) this.log("registration failed, the store reports unhealthy until one succeeds", { error: describe(e), code: (e as { code?: string }).code });
        this.writeFailed = failure;
      }
      throw e;
    }
  }

  private async write(spec: JobSpec, nowMs: number): Promise<RegisterResponse> {
    const { client, release } = await this.connect(false);
    try {
      await client.query("BEGIN");
      // The raft index's row lock orders the writers of every server.
      const next = await client.query<{ idx: string }>("UPDATE svc_index SET idx = idx + 1 WHERE name = 'raft' RETURNING idx");
      const index = Number(next.rows[0]!.idx);
      const previous = await client.query<{ version: number; body: string }>("SELECT version, body FROM jobs WHERE namespace = $1 AND id = $2", [spec.Namespace, spec.ID]);
      const active = await client.query<{ body: string }>(
        "SELECT body FROM deployments WHERE namespace = $1 AND job_id = $2 AND status <> ALL($3::text[]) ORDER BY ord",
        [spec.Namespace, spec.ID, TERMINAL],
      );
      const prev = previous.rows[0];
      const record: JobRecord | undefined = prev === undefined ? undefined : { entry: JSON.parse(prev.body), version: prev.version };
      const activeDeployments = active.rows.map((r) => JSON.parse(r.body) as Deployment);
      const view = { job: () => record, deploymentsOf: () => activeDeployments };
      const { changes, result } = planRegistration(view, spec, index, nowMs);
      const jobs = changes.flatMap((c) => (c.kind === "job" ? [c.record] : []));
      const deployments = changes.flatMap((c) => (c.kind === "deployment" ? [c.deployment] : []));
      const touched: Partial<Record<Table | "raft", number>> = { raft: index };
      if (jobs.length > 0) {
        await insertJobs(client, jobs);
        await client.query("INSERT INTO namespaces (name) VALUES ($1) ON CONFLICT DO NOTHING", [spec.Namespace]);
        touched.jobs = index;
      }
      if (deployments.length > 0) {
        await insertDeployments(client, deployments);
        touched.deployments = index;
      }
      const records = changes.filter((c): c is RecordChange => Object.hasOwn(RECORD_LISTS, c.kind));
      await insertRecords(client, records);
      for (const c of records) touched[RECORD_LISTS[c.kind]] = index;
      await client.query("UPDATE svc_index SET idx = $1 WHERE name = ANY($2::text[])", [index, Object.keys(touched).filter((k) => k !== "raft")]);
      await logChanges(client, index, changes, this.changeLogWrites);
      await client.query("SELECT pg_notify($1, $2)", [INDEX_CHANNEL, JSON.stringify(touched)]);
      await client.query("COMMIT");
      this.advance(touched);
      // Our own notification comes too, but this server's streams need not wait for it.
      this.feed?.kick(index);
      return result;
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw e;
    } finally {
      client.release();
      release();
    }
  }

  waitForChange(table: Table, minIndex: number, timeoutMs: number): { done: Promise<void>; cancel(): void } {
    return this.waiters.wait(table, minIndex, this.index[table], timeoutMs);
  }

  get waiting(): number {
    return this.waiters.size;
  }

  releaseWaiters(): void {
    this.waiters.releaseAll();
  }

  /**
   * The writes of every server, read back from the change log, from the index this store saw when it
   * opened; writes pruned from the log before this server read them are reported to `onGap`.
   */
  onCommit(listener: (commit: Commit) => void, onGap?: (after: number, upTo: number) => void): () => void {
    // `open` makes the feed before it hands the store out; a store that failed to open has no listeners.
    return this.feed?.subscribe(listener, onGap) ?? (() => undefined);
  }

  /** The index after which a listener added now receives writes (the event stream's start). */
  get feedIndex(): number {
    return this.feed?.delivered ?? this.raft;
  }

  async summary(): Promise<{ jobs: number; deployments: number; index: number }> {
    const { rows } = await this.pool.query<{ jobs: string; deployments: string }>(
      "SELECT (SELECT count(*) FROM jobs) AS jobs, (SELECT count(*) FROM deployments) AS deployments",
    );
    return { jobs: Number(rows[0]!.jobs), deployments: Number(rows[0]!.deployments), index: this.raft };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.relistenTimer);
    this.releaseWaiters();
    await this.feed?.close();
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    await this.pool.end().catch(() => undefined);
  }
}

async function insertJobs(client: pg.PoolClient, records: readonly JobRecord[]): Promise<void> {
  if (records.length === 0) return;
  const params: unknown[] = [];
  const rows = records.map((r) => {
    params.push(r.entry.Namespace, r.entry.ID, r.version, JSON.stringify(r.entry));
    const n = params.length;
    return `($${n - 3}, $${n - 2}, $${n - 1}, $${n}::text::jsonb, $${n}::text)`;
  });
  await client.query(
    `INSERT INTO jobs (namespace, id, version, doc, body) VALUES ${rows.join(", ")}
     ON CONFLICT (namespace, id) DO UPDATE SET version = EXCLUDED.version, doc = EXCLUDED.doc, body = EXCLUDED.body`,
    params,
  );
}

async function insertDeployments(client: pg.PoolClient, deployments: readonly Deployment[]): Promise<void> {
  if (deployments.length === 0) return;
  const params: unknown[] = [];
  const rows = deployments.map((d) => {
    params.push(d.ID, d.Namespace, d.JobID, d.CreateIndex, d.Status, JSON.stringify(d));
    const n = params.length;
    return `($${n - 5}, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n}::text::jsonb, $${n}::text)`;
  });
  await client.query(
    `INSERT INTO deployments (id, namespace, job_id, create_index, status, doc, body) VALUES ${rows.join(", ")}
     ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, doc = EXCLUDED.doc, body = EXCLUDED.body`,
    params,
  );
}

/**
 * Writes records of the lists held as given (allocations, evaluations: by ID with their namespace and
 * create index; nodes: by ID), replacing those with the same ID, one statement per table.
 */
async function insertRecords(client: pg.PoolClient, changes: readonly RecordChange[]): Promise<void> {
  for (const kind of Object.keys(RECORD_LISTS) as RecordChange["kind"][]) {
    const items = changes.flatMap((c) => (c.kind === kind ? [c.item] : []));
    if (items.length === 0) continue;
    const table = RECORD_LISTS[kind];
    const namespaced = kind !== "node";
    const params: unknown[] = [];
    const rows = items.map((item) => {
      params.push(item.ID, JSON.stringify(item));
      if (namespaced) params.push((item as { Namespace: string }).Namespace, (item as { CreateIndex: number }).CreateIndex);
      const n = params.length;
      return namespaced ? `($${n - 3}, $${n - 1}, $${n}, $${n - 2}::text::jsonb, $${n - 2}::text)` : `($${n - 1}, $${n}::text::jsonb, $${n}::text)`;
    });
    const columns = namespaced ? "id, namespace, create_index, doc, body" : "id, doc, body";
    const update = namespaced ? "namespace = EXCLUDED.namespace, create_index = EXCLUDED.create_index, doc = EXCLUDED.doc, body = EXCLUDED.body" : "doc = EXCLUDED.doc, body = EXCLUDED.body";
    await client.query(`INSERT INTO ${table} (${columns}) VALUES ${rows.join(", ")} ON CONFLICT (id) DO UPDATE SET ${update}`, params);
  }
}

/** Opens the PostgreSQL store of `--database`; `applies` (the data file's) are kept with a new database's seed. */
export function openPostgresStore(url: string, initial: () => Snapshot, log: Log, applies?: unknown): Promise<PostgresStore> {
  return PostgresStore.open(url, initial, log, {}, applies);
}
