/**
 * The change log (migration 2): each committed registration's changes, written in the registration's
 * own transaction, so that every server sharing the database can hand every write to its event stream
 * (`feed.ts`). The log is bounded by writes: registrations also delete the rows of the writes that
 * fell out of the bound. Indexes are taken under the index row's lock, so the writes that remain are
 * the consecutive indexes above the ones deleted; a reader that finds its next index gone knows that
 * those writes were pruned before it read them.
 */
import type pg from "pg";
import { RECORD_LISTS, type Change, type Deployment, type JobListEntry, type JobRecord, type RecordChange } from "../../lists/records.js";
import type { Commit } from "../types.js";

/**
 * Writes the change log keeps: a server may lose its notification connection (or fall behind) for this
 * many writes of the other servers and still deliver every one of them. A write of a demo job (the
 * job and its previous version, a cancelled and a new deployment) is about 4 KB of rows: 39 MB for
 * 10,000 writes.
 */
export const CHANGE_LOG_WRITES = 10_000;

type Queryable = Pick<pg.ClientBase, "query">;

/**
 * Writes pruned together: every `pruneEvery(keep)`-th index (1 % of the bound, at least 1), the write at
 * that index deletes the rows of the writes at or below `index - keep`, so the log holds between `keep`
 * and `keep + pruneEvery(keep) - 1` writes. Deleting one write's rows on every registration instead
 * made each delete walk the index entries of the rows deleted before it (until a vacuum removes them):
 * with 10,000 writes kept, a registration took 3.3–4.0 ms against 2.1–2.3 ms without the log; with a
 * delete every 100 writes, 1.9–2.7 ms (docs/events.md, "The log's bound").
 */
export function pruneEvery(keep: number): number {
  return Math.max(1, Math.floor(keep / 100));
}

/**
 * Adds the rows of the write at `index` and, on every `pruneEvery(keep)`-th index, deletes those of the
 * writes that fell out of the bound, in one statement (a data-modifying `WITH`: no round trip more than
 * the insert). Runs inside the registration's transaction, which holds the index row's lock: writers
 * run this one at a time, and every index is some writer's.
 */
export async function logChanges(client: Queryable, index: number, changes: readonly Change[], keep: number): Promise<void> {
  // A registration always changes its job: an index without rows would read as a gap.
  if (changes.length === 0) return;
  const params: unknown[] = [index];
  const rows = changes.map((change, pos) => {
    const [kind, version, body, previous] =
      change.kind === "job"
        ? (["job", change.record.version, change.record.entry, change.previous] as const)
        : change.kind === "deployment"
          ? (["deployment", null, change.deployment, change.previous] as const)
          : ([change.kind, null, change.item, change.previous] as const);
    params.push(pos, kind, version, JSON.stringify(body), previous === undefined ? null : JSON.stringify(previous));
    const n = params.length;
    return `($1, $${n - 4}, $${n - 3}, $${n - 2}, $${n - 1}, $${n})`;
  });
  const insert = `INSERT INTO change_log (idx, pos, kind, version, body, previous) VALUES ${rows.join(", ")}`;
  if (index % pruneEvery(keep) !== 0) {
    await client.query(insert, params);
    return;
  }
  params.push(index - keep);
  await client.query(`WITH pruned AS (DELETE FROM change_log WHERE idx <= $${params.length}) ${insert}`, params);
}

/** A write read back from the log: its commit, or undefined when its rows could not be parsed. */
export interface LoggedWrite {
  readonly index: number;
  readonly commit: Commit | undefined;
}

interface Row {
  /** bigint: node-postgres reads it as text. */
  idx: string;
  kind: string;
  version: number | null;
  body: string;
  previous: string | null;
}

/**
 * The writes held above `after`, oldest first: those of the first `writes` indexes from the oldest held
 * one (one statement, so one snapshot: every write whole, and at most `writes` of them). When that
 * oldest index is above `after + 1`, the writes between were pruned. Fewer than `writes` writes: the
 * reader has caught up with what was committed when the statement ran.
 */
export async function readChanges(client: Queryable, after: number, writes: number): Promise<LoggedWrite[]> {
  const { rows } = await client.query<Row>(
    `SELECT idx, kind, version, body, previous FROM change_log
     WHERE idx > $1 AND idx < (SELECT min(idx) FROM change_log WHERE idx > $1) + $2
     ORDER BY idx, pos`,
    [after, writes],
  );
  const out: LoggedWrite[] = [];
  for (let i = 0; i < rows.length; ) {
    const index = Number(rows[i]!.idx);
    let end = i;
    while (end < rows.length && rows[end]!.idx === rows[i]!.idx) end++;
    out.push({ index, commit: commitOf(index, rows.slice(i, end)) });
    i = end;
  }
  return out;
}

/** The rows of one write as a commit (the texts parsed as the list answers them); undefined when one does not parse. */
function commitOf(index: number, rows: readonly Row[]): Commit | undefined {
  try {
    const changes = rows.map((r): Change => {
      const body: unknown = JSON.parse(r.body);
      const previous: unknown = r.previous === null ? undefined : JSON.parse(r.previous);
      if (r.kind === "job") {
        const record: JobRecord = { entry: body as JobListEntry, version: r.version ?? 0 };
        return previous === undefined ? { kind: "job", record } : { kind: "job", record, previous: previous as JobListEntry };
      }
      if (r.kind === "deployment") {
        const deployment = body as Deployment;
        return previous === undefined ? { kind: "deployment", deployment } : { kind: "deployment", deployment, previous: previous as Deployment };
      }
      if (!Object.hasOwn(RECORD_LISTS, r.kind)) throw new Error(`unknown kind ${r.kind}`);
      const kind = r.kind as RecordChange["kind"];
      return (previous === undefined ? { kind, item: body } : { kind, item: body, previous }) as RecordChange;
    });
    return { index, changes };
  } catch {
    return undefined;
  }
}
