import { ClassicLevel } from "classic-level";
import type { Change, Snapshot, StatePersistence } from "./state.js";
import type { Deployment, JobRecord } from "./types.js";

const INDEX_KEY = "meta/index";
const JOB = "job/";
const DEPLOYMENT = "deployment/";

type Stored = JobRecord | Deployment | number;
type Batch = { type: "put"; key: string; value: Stored }[];

function changeOps(changes: readonly Change[]): Batch {
  return changes.map((c) =>
    c.kind === "job"
      ? { type: "put" as const, key: `${JOB}${c.record.entry.Namespace}\u0000${c.record.entry.ID}`, value: c.record }
      : { type: "put" as const, key: `${DEPLOYMENT}${c.deployment.ID}`, value: c.deployment },
  );
}

/**
 * The state kept in an embedded LevelDB database (--data-dir). Every write is a single atomic batch
 * written with fsync before the server answers, so nothing acknowledged is lost when the process dies.
 */
export class LevelPersistence implements StatePersistence {
  private constructor(private readonly db: ClassicLevel<string, Stored>) {}

  static async open(dir: string): Promise<LevelPersistence> {
    const db = new ClassicLevel<string, Stored>(dir, { valueEncoding: "json" });
    await db.open();
    return new LevelPersistence(db);
  }

  /** The stored state, or undefined for a new database. */
  async load(): Promise<Snapshot | undefined> {
    const index = await this.db.get(INDEX_KEY);
    if (typeof index !== "number") return undefined;
    const jobs: JobRecord[] = [];
    for await (const value of this.db.values({ gte: JOB, lt: `${JOB}\uffff` })) jobs.push(value as JobRecord);
    const deployments: Deployment[] = [];
    for await (const value of this.db.values({ gte: DEPLOYMENT, lt: `${DEPLOYMENT}\uffff` })) deployments.push(value as Deployment);
    return { index, jobs, deployments };
  }

  /** Writes a whole initial state; the index goes last, so a half-written seed is written again next time. */
  async seed(snapshot: Snapshot): Promise<void> {
    const ops = changeOps([
      ...snapshot.jobs.map((record) => ({ kind: "job" as const, record })),
      ...snapshot.deployments.map((deployment) => ({ kind: "deployment" as const, deployment })),
    ]);
    for (let i = 0; i < ops.length; i += 5000) await this.db.batch(ops.slice(i, i + 5000));
    await this.db.batch([{ type: "put", key: INDEX_KEY, value: snapshot.index }], { sync: true });
  }

  async save(changes: readonly Change[], index: number): Promise<void> {
    await this.db.batch([...changeOps(changes), { type: "put", key: INDEX_KEY, value: index }], { sync: true });
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
