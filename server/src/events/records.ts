/** The events of a committed write, and their JSON (made once, whatever the number of streams). */
import type { Commit } from "../store/types.js";
import type { StreamEvent } from "./schema.js";

/**
 * An event and its JSON text, computed on first use and shared by every stream that sends it (the
 * store never changes a record in place: a write replaces it, so the text is the event's as made).
 */
export class RecordedEvent {
  #json: string | undefined;
  constructor(readonly event: StreamEvent) {}

  get json(): string {
    return (this.#json ??= JSON.stringify(this.event));
  }
}

/** The events of one write, in the order of its changes. */
export interface EventBatch {
  readonly index: number;
  readonly events: readonly RecordedEvent[];
}

/**
 * The events of a write: a job change is `JobRegistered` (`JobDeregistered` when the job is stopped),
 * keyed by the job's ID, with the job list entry; a deployment change is `DeploymentStatusUpdate`,
 * keyed by the deployment's ID, with the deployment. Changes to the other lists (allocations, nodes,
 * evaluations: only a data file's seed writes them) have no topic here.
 */
export function eventsOf(commit: Commit): EventBatch {
  const { index } = commit;
  const events = commit.changes.flatMap((change): RecordedEvent[] => {
    if (change.kind === "job") {
      const job = change.record.entry;
      return [new RecordedEvent({ Topic: "Job", Type: job.Stop ? "JobDeregistered" : "JobRegistered", Key: job.ID, Namespace: job.Namespace, Index: index, Payload: { Job: job } })];
    }
    if (change.kind !== "deployment") return [];
    const d = change.deployment;
    return [new RecordedEvent({ Topic: "Deployment", Type: "DeploymentStatusUpdate", Key: d.ID, Namespace: d.Namespace, Index: index, Payload: { Deployment: d } })];
  });
  return { index, events };
}

/** A frame of the stream: `{"Index": N, "Events": [...]}` and a newline. */
export function frameOf(index: number, events: readonly RecordedEvent[]): string {
  return `{"Index":${index},"Events":[${events.map((e) => e.json).join(",")}]}\n`;
}

/** The last frame of a stream that the server ends for a reason of the stream's own: `{"Error": message}` and a newline. */
export function errorFrame(message: string): string {
  return `${JSON.stringify({ Error: message })}\n`;
}

/** The heartbeat frame. */
export const HEARTBEAT = "{}\n";
