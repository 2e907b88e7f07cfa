/**
 * The PostgreSQL store: jobs (with their summaries), deployments, namespaces and the index in one
 * database that several servers share. Lists are read in a read-only snapshot with the library's
 * pushdown; a registration is one transaction that takes the next index (a row lock orders writers
 * across servers) and notifies every server (`LISTEN`/`NOTIFY`), which wakes its blocking queries.
 */
import pg from "pg";
import { toSQL } from "filter-expr";
import { planRegistration, type JobSpec, type RegisterResponse } from "../../scheduler/register.js";
import type { Snapshot, Table } from "../../scheduler/state.js";
import { TERMINAL_DEPLOYMENT_STATUSES, type Deployment, type JobRecord } from "../../scheduler/types.js";
import type { ListRead, SchedulerStore, StorePage } from "../types.js";
import { Waiters } from "../waiters.js";
import { migrate, SchemaError } from "./migrate.js";
import { readDeployments, readJobs } from "./pages.js";

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

export class PostgresStore implements SchedulerStore {
  readonly kind = "postgres";
  private readonly index: Record<Table, number> = { jobs: 1, deployments: 1 };
  private raft = 1;
  private readonly waiters = new Waiters();
  private listener: pg.Client | undefined;
  private closed = false;
  private readonly exactCache = new WeakMap<object, boolean>();
  /** The seed's "applies" (the apply resource's data), as the database holds them; undefined: none. */
  applies: unknown;

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    private readonly log: Log,
  ) {}

  /** Connects, migrates the schema, seeds an empty database, listens for other servers' writes. */
  static async open(url: string, initial: () => Snapshot, log: Log, poolSize = 10, applies?: unknown): Promise<PostgresStore> {
    const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 10_000 });
    pool.on("error", (e) => log("idle database connection failed", { error: describe(e) }));
    // A connection lost while checked out fails its query (the request answers 500); its client's
    // 'error' event must not end the process.
    pool.on("connect", (client) => client.on("error", (e) => log("database connection lost", { error: describe(e) })));
    const store = new PostgresStore(pool, url, log);
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
    } catch (e) {
      await store.close();
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
      const raft = Math.max(1, snapshot.index, jobsIndex, deploymentsIndex);
      for (let i = 0; i < snapshot.jobs.length; i += BATCH) await insertJobs(client, snapshot.jobs.slice(i, i + BATCH));
      for (let i = 0; i < snapshot.deployments.length; i += BATCH) await insertDeployments(client, snapshot.deployments.slice(i, i + BATCH));
      await client.query("INSERT INTO namespaces (name) SELECT DISTINCT namespace FROM jobs ON CONFLICT DO NOTHING");
      if (applies !== undefined) await client.query("INSERT INTO documents (name, body) VALUES ('applies', $1)", [JSON.stringify(applies)]);
      await client.query(
        "UPDATE svc_index SET idx = CASE name WHEN 'raft' THEN $1::bigint WHEN 'jobs' THEN $2::bigint WHEN 'deployments' THEN $3::bigint ELSE 1 END",
        [raft, jobsIndex, deploymentsIndex],
      );
      await client.query("COMMIT");
      this.log("new database seeded", { jobs: snapshot.jobs.length, deployments: snapshot.deployments.length });
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw e;
    }
  }

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
    });
    client.on("error", (e) => {
      if (this.closed) return;
      this.log("database notifications lost, reconnecting", { error: describe(e) });
      this.listener = undefined;
      setTimeout(() => void this.relisten(), 1000).unref();
    });
    await client.connect();
    await client.query(`LISTEN ${INDEX_CHANNEL}`);
    this.listener = client;
  }

  private async relisten(): Promise<void> {
    if (this.closed) return;
    try {
      await this.listen();
      await this.refresh();
    } catch (e) {
      this.log("database notifications still lost", { error: describe(e) });
      setTimeout(() => void this.relisten(), 1000).unref();
    }
  }

  /** Reads the indexes (at start, after a lost notification connection). */
  private async refresh(): Promise<void> {
    const { rows } = await this.pool.query<{ name: string; idx: string }>("SELECT name, idx FROM svc_index");
    const seen: Record<string, number> = {};
    for (const r of rows) seen[r.name] = Number(r.idx);
    this.advance(seen);
  }

  /** Moves the known indexes forward (never back) and wakes the blocking queries they pass. */
  private advance(seen: Partial<Record<Table | "raft", number>>): void {
    if (typeof seen.raft === "number" && seen.raft > this.raft) this.raft = seen.raft;
    for (const table of ["jobs", "deployments"] as const) {
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

  /** Not ok while the notification connection is lost (blocking queries would not hear other servers' writes). */
  health(): { ok: boolean; message: string } {
    if (this.closed || this.listener !== undefined) return { ok: true, message: "ok" };
    return { ok: false, message: `database ${redactUrl(this.url)}: notification connection lost, reconnecting` };
  }

  private exact(read: ListRead<unknown>): boolean {
    const filter = read.filter;
    if (filter === undefined) return true;
    let exact = this.exactCache.get(filter);
    if (exact === undefined) {
      exact = toSQL({ ast: filter.ast, schema: filter.schema }, { dialect: "postgres" }).exact;
      this.exactCache.set(filter, exact);
    }
    return exact;
  }

  async readPage<T>(read: ListRead<T>): Promise<StorePage<T>> {
    const table = read.endpoint.table;
    const client = await this.pool.connect();
    try {
      // One round trip opens the snapshot and reads its index and the namespaces (constant SQL text).
      const opened = (await client.query(
        `BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT (SELECT idx FROM svc_index WHERE name = '${table}')::text AS idx, (SELECT coalesce(array_agg(name ORDER BY name), '{}') FROM namespaces) AS namespaces`,
      )) as unknown as pg.QueryResult[];
      const row = opened[1]!.rows[0] as { idx: string | null; namespaces: string[] };
      const index = Number(row.idx ?? 1);
      const run = async (sql: string, params: unknown[]) => (await client.query(sql, params)).rows as Record<string, unknown>[];
      const exact = this.exact(read as ListRead<unknown>);
      const page = table === "jobs" ? await readJobs(run, read, exact, row.namespaces) : await readDeployments(run, read, exact);
      await client.query("COMMIT");
      // What this snapshot saw is committed: no later answer of this server shows an older index.
      this.advance({ [table]: index });
      return { ...page, index };
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  async register(spec: JobSpec, nowMs: number): Promise<RegisterResponse> {
    const client = await this.pool.connect();
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
      const view = { job: () => record, deployments: active.rows.map((r) => JSON.parse(r.body) as Deployment) };
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
      await client.query("UPDATE svc_index SET idx = $1 WHERE name = ANY($2::text[])", [index, Object.keys(touched).filter((k) => k !== "raft")]);
      await client.query("SELECT pg_notify($1, $2)", [INDEX_CHANNEL, JSON.stringify(touched)]);
      await client.query("COMMIT");
      this.advance(touched);
      return result;
    } catch (e) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw e;
    } finally {
      client.release();
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

  async summary(): Promise<{ jobs: number; deployments: number; index: number }> {
    const { rows } = await this.pool.query<{ jobs: string; deployments: string }>(
      "SELECT (SELECT count(*) FROM jobs) AS jobs, (SELECT count(*) FROM deployments) AS deployments",
    );
    return { jobs: Number(rows[0]!.jobs), deployments: Number(rows[0]!.deployments), index: this.raft };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.releaseWaiters();
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

/** Opens the PostgreSQL store of `--database`; `applies` (the data file's) are kept with a new database's seed. */
export function openPostgresStore(url: string, initial: () => Snapshot, log: Log, applies?: unknown): Promise<PostgresStore> {
  return PostgresStore.open(url, initial, log, 10, applies);
}
