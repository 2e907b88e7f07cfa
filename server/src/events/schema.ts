/**
 * The records of the event stream (`GET /v1/event/stream`): one event per job or deployment a write
 * creates or changes, and the typed schema its `filter` is compiled against (server/docs/events.md).
 */
import { schemas, t, type Schema } from "filter-expr";
import type { Deployment, JobListEntry } from "../lists/records.js";

/** The topics this server publishes. */
export const TOPICS = ["Job", "Deployment"] as const;
export type Topic = (typeof TOPICS)[number];

/** One event, as the stream writes it and as its filter reads it. */
export interface StreamEvent {
  readonly Topic: Topic;
  /** `JobRegistered`, `JobDeregistered` (Job), `DeploymentStatusUpdate` (Deployment). */
  readonly Type: string;
  /** The job's ID or the deployment's ID. */
  readonly Key: string;
  readonly Namespace: string;
  /** The index of the write that made it. */
  readonly Index: number;
  /** The job list entry (Job events) or the deployment (Deployment events); the other is absent. */
  readonly Payload: { readonly Job?: JobListEntry; readonly Deployment?: Deployment };
}

/**
 * The schema an event stream's `filter` is compiled with: `Payload.Job` is the job list entry
 * (`schemas.job`) and `Payload.Deployment` the deployment (`schemas.deployment`), each a pointer that
 * is nil on the other topic's events.
 */
export const eventSchema: Schema = t.record("Event", {
  Topic: t.string,
  Type: t.string,
  Key: t.string,
  Namespace: t.string,
  Index: t.uint,
  Payload: t.record("EventPayload", { Job: t.pointer(schemas.job), Deployment: t.pointer(schemas.deployment) }),
});
