/**
 * The scheduler's reads beside the lists: `GET /v1/job/:id` (one job) and `GET /v1/namespaces`, with
 * the reads' conventions (region, namespace, ACL, `index`/`wait` blocking on the jobs table, `pretty`,
 * the meta headers), through the store interface.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { apiHeaderNames } from "../api-headers.js";
import type { ServerContext } from "../context.js";
import { BadRequest } from "../lists/errors.js";
import { compareStrings } from "../lists/orders.js";
import type { JobRecord } from "../lists/records.js";
import type { SchedulerStore } from "../store/types.js";
import { CLIENT_RETRY_AFTER_S, clientOf, type ClientBounds } from "./clients.js";
import { waitWhileConnected } from "./list.js";
import { authenticate, checkRegion, PERMISSION_DENIED, readableNamespaces } from "./preamble.js";
import { parseListQuery, withJitter, type ListQuery, type Query } from "./query.js";
import { sendBusy, sendJson, sendText, setMeta } from "./respond.js";

/** What the scheduler answers for a job's fields the server does not keep (the registered specification's blocks). */
const NOT_KEPT = { AllAtOnce: false, NodePool: "default", Constraints: null, Affinities: null, Update: null, Spreads: null, Reschedule: null, Migrate: null, Meta: null, Payload: null, Stable: false };

/**
 * A job as `GET /v1/job/:id` answers it (the scheduler's `structs.Job`, as its Go client decodes it),
 * from what the server holds: the list entry's fields, the version, the task groups its summary names.
 * Blocks of the registered specification the server does not keep are their zero values.
 */
export function jobAnswer(record: JobRecord, region: string): Record<string, unknown> {
  const e = record.entry;
  return {
    Region: region,
    Namespace: e.Namespace,
    ID: e.ID,
    Name: e.Name,
    Type: e.Type,
    Priority: e.Priority,
    Datacenters: e.Datacenters,
    TaskGroups: Object.keys(e.JobSummary?.Summary ?? {}).map((Name) => ({ Name })),
    Multiregion: e.Multiregion,
    Periodic: e.Periodic ? { Enabled: true } : null,
    ParameterizedJob: e.ParameterizedJob ? {} : null,
    Stop: e.Stop,
    ParentID: e.ParentID,
    Dispatched: e.ParentID !== "" && e.ID.startsWith(`${e.ParentID}/dispatch-`),
    Status: e.Status,
    StatusDescription: e.StatusDescription,
    Version: record.version,
    SubmitTime: e.SubmitTime,
    CreateIndex: e.CreateIndex,
    ModifyIndex: e.ModifyIndex,
    JobModifyIndex: e.JobModifyIndex,
    ...NOT_KEPT,
  };
}

/** A namespace as `GET /v1/namespaces` answers it; the server keeps no description, quota or metadata but the default namespace's. */
function namespaceAnswer(name: string): Record<string, unknown> {
  const Description = name === "default" ? "Default shared namespace" : "";
  return { Name: name, Description, Quota: "", Capabilities: null, NodePoolConfiguration: null, VaultConfiguration: null, ConsulConfiguration: null, Meta: null, CreateIndex: 1, ModifyIndex: 1 };
}

/**
 * A single read with the reads' conventions: the parameters (400), region (400), the token (403), then
 * `read`; with `index`, waits (holding one of its client's blocking slots) until the jobs table passes
 * it or `wait` ends, then reads again (a 404 waits as a 200 does). `read` gives the answer's status and body, and its index.
 */
async function serveRead(
  ctx: ServerContext,
  store: SchedulerStore,
  bounds: ClientBounds,
  request: FastifyRequest,
  reply: FastifyReply,
  read: (query: ListQuery, auth: NonNullable<ReturnType<typeof authenticate>>, signal: AbortSignal) => Promise<{ status: 200 | 403 | 404; body: unknown; index: number }>,
): Promise<FastifyReply> {
  let query: ListQuery;
  try {
    query = parseListQuery(request.query as Query);
    checkRegion(ctx, query.region);
  } catch (e) {
    if (e instanceof BadRequest) return sendText(reply, 400, e.message);
    throw e;
  }
  const auth = authenticate(ctx, request);
  if (auth === undefined) return sendText(reply, 403, PERMISSION_DENIED);
  let answer = await read(query, auth, request.signal);
  // As the scheduler's blocking query: a missing job waits too (it may be registered), a 403 does not.
  if (answer.status !== 403 && query.index > 0 && answer.index <= query.index) {
    const client = clientOf(request, auth.token);
    const release = bounds.waiters.take(client);
    if (release === undefined) return sendBusy(reply, CLIENT_RETRY_AFTER_S, bounds.waiters.message, 429);
    const wait = store.waitForChange("jobs", query.index, withJitter(query.waitMs));
    if (!(await waitWhileConnected(request, reply, wait, release))) return reply.send();
    answer = await read(query, auth, request.signal);
  }
  if (answer.status === 403) return sendText(reply, 403, PERMISSION_DENIED);
  if (answer.status === 404) return sendText(reply, 404, answer.body as string);
  setMeta(reply, apiHeaderNames(ctx.options.apiHeaders), answer.index);
  return sendJson(reply, answer.body, query.pretty);
}

/** `GET /v1/job/:id`: the job in `namespace` (default `default`); 403 without `job:read` there, 404 `job not found`. */
export function serveJob(ctx: ServerContext, store: SchedulerStore, bounds: ClientBounds, request: FastifyRequest<{ Params: { "*": string } }>, reply: FastifyReply): Promise<FastifyReply> {
  return serveRead(ctx, store, bounds, request, reply, async (query, auth, signal) => {
    if (query.namespace === "*" || !ctx.acl.allows(auth.token, "job:read", query.namespace)) return { status: 403, body: undefined, index: 0 };
    const { record, index } = await store.readJob(query.namespace, request.params["*"], signal);
    return record === undefined ? { status: 404, body: "job not found", index } : { status: 200, body: jobAnswer(record, ctx.options.region), index };
  });
}

/**
 * `GET /v1/namespaces`: `default` and every namespace that holds a job, by name, those the token may
 * read jobs in only (none: an empty list, not a 403); `prefix` keeps the names that start with it.
 */
export function serveNamespaces(ctx: ServerContext, store: SchedulerStore, bounds: ClientBounds, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  return serveRead(ctx, store, bounds, request, reply, async (query, auth, signal) => {
    const { names, index } = await store.namespaces(signal);
    const readable = readableNamespaces(ctx, auth.token);
    const all = [...new Set(["default", ...names])].sort(compareStrings);
    const body = all.filter((name) => name.startsWith(query.prefix) && (readable === null || readable.has(name))).map(namespaceAnswer);
    return { status: 200, body, index };
  });
}
