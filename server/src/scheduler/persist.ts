import { ClassicLevel } from "classic-level";
import type { StoreHealth } from "../context.js";
import type { Change, Snapshot, StatePersistence } from "./state.js";
import type { Deployment, JobRecord } from "./types.js";

const INDEX_KEY = "meta/index";
const JOB = "job/";
const DEPLOYMENT = "deployment/";

type Stored = JobRecord | Deployment | number;
type Op = { type: "put"; key: string; value: Stored } | { type: "del"; key: string };

function changeOps(changes: readonly Change[]): Op[] {
  return changes.map((c) =>
    c.kind === "job"
      ? { type: "put" as const, key: `${JOB}${c.record.entry.Namespace}\u0000${c.record.entry.ID}`, value: c.record }
      : { type: "put" as const, key: `${DEPLOYMENT}${c.deployment.ID}`, value: c.deployment },
  );
}

/** The data directory cannot be opened (locked by another process, corrupt, not a directory...). */
export class DataDirError extends Error {}

/** A write that did not reach the disk: nothing of it is visible, and the client is told so. */
export class StoreWriteError extends Error {
  readonly statusCode = 500;
}

/** Why an error happened, from classic-level's error and its causes, on one line. */
function describe(error: unknown): string {
  const parts: string[] = [];
  let e: unknown = error;
  for (let depth = 0; e instanceof Error && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    const text = e.message.replace(/\s+/g, " ").trim();
    if (!parts.includes(text)) parts.push(typeof code === "string" && code !== "" && !text.includes(code) ? `${text} (${code})` : text);
    e = e.cause;
  }
  return parts.length === 0 ? String(error) : parts.join(": ");
}

/** A write that failed: what the keys it wrote held before, to undo it if it reached the disk after all. */
interface Failure {
  message: string;
  index: number;
  keys: string[];
  /** previous values of `keys` (undefined: the key did not exist); undefined when they could not be read */
  before: (Stored | undefined)[] | undefined;
}

/**
 * The state kept in an embedded LevelDB database (--data-dir). Every write is a single atomic batch
 * holding its changes and the new index, written with fsync before the server answers, so nothing
 * acknowledged is lost when the process dies and the stored index never goes back.
 *
 * A write that fails (a full disk, an I/O error) is not acknowledged and changes nothing in memory.
 * LevelDB's log may then hold a torn record, after which it would silently drop every later write at
 * the next start; so before the next write the database is closed and opened again (which recovers
 * the log into a table and starts a new one), and if the failed batch did reach the disk it is undone.
 * Until a write succeeds again, health() reports the store as not writable.
 */
export class LevelPersistence implements StatePersistence {
  private failure: Failure | undefined;
  /** why the store is not writable, until a write succeeds */
  private unhealthy: string | undefined;

  private constructor(
    private db: ClassicLevel<string, Stored>,
    private readonly dir: string,
  ) {}

  /** Opens (or creates) the database; DataDirError names the directory and the cause. */
  static async open(dir: string): Promise<LevelPersistence> {
    return new LevelPersistence(await LevelPersistence.openDb(dir), dir);
  }

  private static async openDb(dir: string): Promise<ClassicLevel<string, Stored>> {
    let db: ClassicLevel<string, Stored>;
    try {
      db = new ClassicLevel<string, Stored>(dir, { valueEncoding: "json" });
      await db.open();
    } catch (e) {
      throw new DataDirError(`cannot open the data directory ${dir}: ${describe(e)}`);
    }
    return db;
  }

  /** The stored state, or undefined for a new (or never completely seeded) database. */
  async load(): Promise<Snapshot | undefined> {
    try {
      const index = await this.db.get(INDEX_KEY);
      if (typeof index !== "number") return undefined;
      const jobs: JobRecord[] = [];
      for await (const value of this.db.values({ gte: JOB, lt: `${JOB}\uffff` })) jobs.push(value as JobRecord);
      const deployments: Deployment[] = [];
      for await (const value of this.db.values({ gte: DEPLOYMENT, lt: `${DEPLOYMENT}\uffff` })) deployments.push(value as Deployment);
      return { index, jobs, deployments };
    } catch (e) {
      throw new DataDirError(`cannot read the data directory ${this.dir}: ${describe(e)}`);
    }
  }

  /**
   * Writes a whole initial state. What a seeding killed half-way left behind (records without the
   * index, which is written last) is cleared first, so it never comes back.
   */
  async seed(snapshot: Snapshot): Promise<void> {
    const ops = changeOps([
      ...snapshot.jobs.map((record) => ({ kind: "job" as const, record })),
      ...snapshot.deployments.map((deployment) => ({ kind: "deployment" as const, deployment })),
    ]);
    try {
      await this.db.clear();
      for (let i = 0; i < ops.length; i += 5000) await this.db.batch(ops.slice(i, i + 5000));
      await this.db.batch([{ type: "put", key: INDEX_KEY, value: snapshot.index }], { sync: true });
    } catch (e) {
      throw new DataDirError(`cannot seed the data directory ${this.dir}: ${describe(e)}`);
    }
  }

  async save(changes: readonly Change[], index: number): Promise<void> {
    if (this.failure !== undefined) await this.recover();
    const ops: Op[] = [...changeOps(changes), { type: "put", key: INDEX_KEY, value: index }];
    try {
      await this.db.batch(ops, { sync: true });
    } catch (e) {
      const message = `state not saved: ${this.withoutDir(describe(e))}`;
      const keys = ops.map((op) => op.key);
      let before: Failure["before"];
      try {
        // Reads do not write: they work on a full disk. A failed batch is not in the memtable.
        before = await this.db.getMany(keys);
      } catch {
        before = undefined;
      }
      this.failure = { message, index, keys, before };
      this.unhealthy = message;
      throw new StoreWriteError(message);
    }
    this.unhealthy = undefined;
  }

  /** Reopens the database after a failed write and undoes the failed batch if it reached the disk. */
  private async recover(): Promise<void> {
    const failure = this.failure as Failure;
    try {
      await this.db.close();
    } catch {
      // already closed, or closing failed: open a new handle regardless
    }
    let db: ClassicLevel<string, Stored>;
    try {
      db = await LevelPersistence.openDb(this.dir);
    } catch (e) {
      this.unhealthy = `${failure.message}; reopening the data directory failed: ${this.withoutDir((e as Error).message)}`;
      throw new StoreWriteError(this.unhealthy);
    }
    this.db = db;
    try {
      const stored = await db.get(INDEX_KEY);
      if (stored === failure.index) {
        if (failure.before === undefined) throw new Error("a failed write reached the disk and cannot be undone; restart the server");
        const undo: Op[] = failure.keys.map((key, i) => {
          const value = failure.before?.[i];
          return value === undefined ? { type: "del", key } : { type: "put", key, value };
        });
        await db.batch(undo, { sync: true });
      }
    } catch (e) {
      this.unhealthy = `${failure.message}; recovery failed: ${this.withoutDir(describe(e))}`;
      throw new StoreWriteError(this.unhealthy);
    }
    this.failure = undefined;
  }

  /** Client-facing text names the data directory only as such (its path stays in the server's log). */
  private withoutDir(text: string): string {
    return text.split(this.dir).join("<data-dir>");
  }

  /** Not ok from a failed write until a write succeeds again. */
  health(): StoreHealth {
    return this.unhealthy === undefined ? { ok: true, message: "ok" } : { ok: false, message: this.unhealthy };
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
