import { createHash } from "node:crypto";
import { ClassicLevel } from "classic-level";
import type { StoreHealth } from "../../context.js";
import { checkLogs, type LogDamage } from "./level-log.js";
import type { StatePersistence } from "./state.js";
import type { Change, Snapshot } from "../../lists/records.js";
import { addToSnapshot, changesOf, RECORD_LISTS, snapshotOf } from "../../lists/records.js";

const INDEX_KEY = "meta/index";
/** The checksum of every record, written by every batch with the index (see `Digest`). */
const DIGEST_KEY = "meta/digest";
const JOB = "job/";
const DEPLOYMENT = "deployment/";

/** Values are the JSON text of records (job, deployment), of the index and of the digest. */
type Op = { type: "put"; key: string; value: string } | { type: "del"; key: string };

/** A change's record: its key and its value (a job with its version; any other record as it is). */
function changeOps(changes: readonly Change[]): { type: "put"; key: string; value: string }[] {
  return changes.map((c) =>
    c.kind === "job"
      ? { type: "put" as const, key: `${JOB}${c.record.entry.Namespace}\u0000${c.record.entry.ID}`, value: JSON.stringify(c.record) }
      : c.kind === "deployment"
        ? { type: "put" as const, key: `${DEPLOYMENT}${c.deployment.ID}`, value: JSON.stringify(c.deployment) }
        : { type: "put" as const, key: `${c.kind}/${c.item.ID}`, value: JSON.stringify(c.item) },
  );
}

/** The kind of record a key holds (its prefix before "/"), or undefined for the index and the digest. */
function kindOfKey(key: string): Change["kind"] | undefined {
  const kind = key.slice(0, key.indexOf("/"));
  return kind === "job" || kind === "deployment" || Object.hasOwn(RECORD_LISTS, kind) ? (kind as Change["kind"]) : undefined;
}


/**
 * A checksum of our own over the records we write: their number and the XOR of the SHA-256 of each
 * key and value. Every batch stores it with the index, updated from the values it replaces, so a
 * directory read back whole gives the digest its last write stored; records LevelDB lost or changed
 * (a damaged table file, a log record skipped in the middle) give another.
 */
class Digest {
  private constructor(
    private records: number,
    private readonly xor: Buffer,
  ) {}

  static empty(): Digest {
    return new Digest(0, Buffer.alloc(32));
  }

  /** The stored form (`{"records": n, "sha256": hex}`), or undefined when `text` is not one. */
  static parse(text: string | undefined): Digest | undefined {
    if (text === undefined) return undefined;
    try {
      const o = JSON.parse(text) as { records?: unknown; sha256?: unknown };
      if (typeof o.records !== "number" || typeof o.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(o.sha256)) return undefined;
      return new Digest(o.records, Buffer.from(o.sha256, "hex"));
    } catch {
      return undefined;
    }
  }

  copy(): Digest {
    return new Digest(this.records, Buffer.from(this.xor));
  }

  private toggle(key: string, value: string): void {
    const hash = createHash("sha256").update(`${Buffer.byteLength(key)}:`).update(key).update(value).digest();
    for (let i = 0; i < 32; i++) this.xor[i]! ^= hash[i]!;
  }

  add(key: string, value: string): void {
    this.records++;
    this.toggle(key, value);
  }

  remove(key: string, value: string): void {
    this.records--;
    this.toggle(key, value);
  }

  get count(): number {
    return this.records;
  }

  equals(other: Digest): boolean {
    return this.records === other.records && this.xor.equals(other.xor);
  }

  toString(): string {
    return JSON.stringify({ records: this.records, sha256: this.xor.toString("hex") });
  }
}

/** The data directory cannot be opened (locked by another process, corrupt, not a directory...). */
export class DataDirError extends Error {}

/** A write that did not reach the disk: nothing of it is visible, and the client is told so (`expose`: its message is the answer's). */
export class StoreWriteError extends Error {
  readonly statusCode = 500;
  readonly expose = true;
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
  /** previous values of `keys` (undefined: the key did not exist) */
  before: (string | undefined)[];
}

/** What to do about a damaged data directory (the end of its message). */
const DAMAGED_ADVICE =
  "starting on it would silently lose acknowledged writes, so the server does not start and leaves the directory as it is. " +
  "Keep a copy of it, then restore it from a backup, or move it aside and start with an empty --data-dir (seeded again from --data or the demo set)";

function damagedLogs(dir: string, damage: readonly LogDamage[]): DataDirError {
  const what = damage.map((d) => `${d.file} has a damaged record at byte ${d.offset} (${d.reason})`).join(", ");
  return new DataDirError(`the data directory ${dir} is damaged: its write-ahead log ${what}; ${DAMAGED_ADVICE}`);
}

/**
 * The state kept in an embedded LevelDB database (--data-dir). Every write is a single atomic batch
 * holding its changes, the new index and the digest of every record (`Digest`), written with fsync
 * before the server answers, so nothing acknowledged is lost when the process dies and the stored
 * index never goes back.
 *
 * A directory that cannot be read back whole is refused at start (DataDirError, the server exits):
 * its write-ahead logs are checked before LevelDB opens them (LevelDB would skip a damaged record and
 * what follows it in its block, then delete the log: see level-log.ts), and the records read back must
 * give the digest the last write stored.
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
  /** the digest and index the last write stored */
  private digest = Digest.empty();
  private index = 0;

  private constructor(
    private db: ClassicLevel<string, string>,
    private readonly dir: string,
  ) {}

  /**
   * Opens (or creates) the database; DataDirError names the directory and the cause. A damaged
   * write-ahead log is refused before LevelDB touches the directory.
   */
  static async open(dir: string): Promise<LevelPersistence> {
    let damage: LogDamage[];
    try {
      damage = await checkLogs(dir);
    } catch (e) {
      throw new DataDirError(`cannot read the data directory ${dir}: ${describe(e)}`);
    }
    if (damage.length > 0) throw damagedLogs(dir, damage);
    return new LevelPersistence(await LevelPersistence.openDb(dir), dir);
  }

  private static async openDb(dir: string): Promise<ClassicLevel<string, string>> {
    let db: ClassicLevel<string, string>;
    try {
      db = new ClassicLevel<string, string>(dir, { valueEncoding: "utf8" });
      await db.open();
    } catch (e) {
      throw new DataDirError(`cannot open the data directory ${dir}: ${describe(e)}`);
    }
    return db;
  }

  /**
   * The stored state, or undefined for a new (or never completely seeded) database. The records must
   * give the stored digest (a directory written before digests gets one now).
   */
  async load(): Promise<Snapshot | undefined> {
    const snapshot = snapshotOf({});
    const digest = Digest.empty();
    let index: unknown;
    let stored: string | undefined;
    try {
      const indexText = await this.db.get(INDEX_KEY);
      index = indexText === undefined ? undefined : JSON.parse(indexText);
      if (typeof index !== "number") return undefined;
      stored = await this.db.get(DIGEST_KEY);
      for await (const [key, value] of this.db.iterator()) {
        const kind = kindOfKey(key);
        if (kind === undefined) continue;
        digest.add(key, value);
        const record = JSON.parse(value) as never;
        addToSnapshot(snapshot, kind === "job" ? { kind, record } : kind === "deployment" ? { kind, deployment: record } : { kind, item: record });
      }
    } catch (e) {
      throw new DataDirError(`cannot read the data directory ${this.dir}: ${describe(e)}`);
    }
    const expected = Digest.parse(stored);
    if (stored !== undefined && (expected === undefined || !expected.equals(digest))) {
      const what =
        expected === undefined
          ? "the checksum its last write stored is unreadable"
          : expected.count === digest.count
            ? `its ${digest.count} records do not give the checksum its last write stored (records were altered)`
            : `it holds ${digest.count} records where its last write left ${expected.count}`;
      throw new DataDirError(`the data directory ${this.dir} is damaged: ${what}; ${DAMAGED_ADVICE}`);
    }
    if (stored === undefined) {
      try {
        await this.db.batch([{ type: "put", key: DIGEST_KEY, value: digest.toString() }], { sync: true });
      } catch (e) {
        throw new DataDirError(`cannot write to the data directory ${this.dir}: ${describe(e)}`);
      }
    }
    this.digest = digest;
    this.index = index;
    return { ...snapshot, index };
  }

  /**
   * Writes a whole initial state. What a seeding killed half-way left behind (records without the
   * index, which is written last with the digest) is cleared first, so it never comes back.
   */
  async seed(snapshot: Snapshot): Promise<void> {
    const ops = changeOps(changesOf(snapshot));
    const digest = Digest.empty();
    for (const op of ops) digest.add(op.key, op.value);
    try {
      await this.db.clear();
      for (let i = 0; i < ops.length; i += 5000) await this.db.batch(ops.slice(i, i + 5000));
      await this.db.batch(
        [
          { type: "put", key: INDEX_KEY, value: JSON.stringify(snapshot.index) },
          { type: "put", key: DIGEST_KEY, value: digest.toString() },
        ],
        { sync: true },
      );
    } catch (e) {
      throw new DataDirError(`cannot seed the data directory ${this.dir}: ${describe(e)}`);
    }
    this.digest = digest;
    this.index = snapshot.index;
  }

  async save(changes: readonly Change[], index: number): Promise<void> {
    if (this.failure !== undefined) await this.recover();
    const records = changeOps(changes);
    let before: (string | undefined)[];
    try {
      // What the batch replaces: for the digest, and to undo the batch should it fail yet reach the disk.
      before = await this.db.getMany(records.map((op) => op.key));
    } catch (e) {
      this.unhealthy = `state not saved: ${this.withoutDir(describe(e))}`;
      throw new StoreWriteError(this.unhealthy);
    }
    const digest = this.digest.copy();
    const current = new Map<string, string | undefined>();
    records.forEach((op, i) => {
      const previous = current.has(op.key) ? current.get(op.key) : before[i];
      if (previous !== undefined) digest.remove(op.key, previous);
      digest.add(op.key, op.value);
      current.set(op.key, op.value);
    });
    const ops: Op[] = [...records, { type: "put", key: INDEX_KEY, value: JSON.stringify(index) }, { type: "put", key: DIGEST_KEY, value: digest.toString() }];
    try {
      await this.db.batch(ops, { sync: true });
    } catch (e) {
      const message = `state not saved: ${this.withoutDir(describe(e))}`;
      this.failure = { message, index, keys: ops.map((op) => op.key), before: [...before, JSON.stringify(this.index), this.digest.toString()] };
      this.unhealthy = message;
      throw new StoreWriteError(message);
    }
    this.digest = digest;
    this.index = index;
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
    let db: ClassicLevel<string, string>;
    try {
      db = await LevelPersistence.openDb(this.dir);
    } catch (e) {
      this.unhealthy = `${failure.message}; reopening the data directory failed: ${this.withoutDir((e as Error).message)}`;
      throw new StoreWriteError(this.unhealthy);
    }
    this.db = db;
    try {
      const stored = await db.get(INDEX_KEY);
      if (stored !== undefined && JSON.parse(stored) === failure.index) {
        const undo: Op[] = failure.keys.map((key, i) => {
          const value = failure.before[i];
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
