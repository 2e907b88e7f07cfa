import type { FastifyReply, FastifyRequest } from "fastify";
import type { ServerContext } from "../context.js";
import type { Answer, AnswerCache } from "./answers.js";
import { ANSWER_BYTES_IN_FLIGHT, AnswersBusy, BUSY_RETRY_AFTER_S, encodeAnswer, sendAnswer } from "./answers.js";
import type { ListEndpoint } from "../lists/endpoints.js";
import type { FilterCache, Work } from "../lists/filters.js";
import { evaluator } from "../lists/filters.js";
import type { ListQuery } from "./query.js";
import { param, parseListQuery, withJitter, type Query } from "./query.js";
import { quote } from "filter-expr";
import { BadRequest } from "../lists/errors.js";
import { sendBusy, sendText, setMeta } from "./respond.js";
import { apiHeaderNames } from "../api-headers.js";
import { STALL_TIMEOUT_MS } from "../ops/connections.js";
import type { SchedulerStore, StorePage } from "../store/types.js";
import { PageRegion } from "../lists/page-region.js";
import type { PageWaits } from "./page-waits.js";
import { CLIENT_RETRY_AFTER_S, type ClientBounds } from "./clients.js";
import { readRequest } from "./preamble.js";
import { SLICE_MS } from "../turns.js";

/**
 * A scan's slices: it yields to the event loop after `SLICE_MS` of work, the clock read every
 * `CHECK_ITEMS` items or `CHECK_STEPS` evaluation steps (one item may cost up to a whole budget); the
 * clock restarts when the scan resumes. One slice runs per turn of the loop (`Turns`), whatever the
 * number of scans: a turn holds the loop about `SLICE_MS` (plus one item).
 */
const CHECK_ITEMS = 64;
const CHECK_STEPS = 10_000;

/** The `pause` of a scan whose filter adds its steps to `work` (see `SLICE_MS`). */
function slicer(work: Work): () => boolean {
  let items = 0;
  let steps = 0;
  let started = -1;
  return () => {
    if (started < 0) started = performance.now();
    if (++items < CHECK_ITEMS && work.steps - steps < CHECK_STEPS) return false;
    items = 0;
    steps = work.steps;
    if (performance.now() - started < SLICE_MS) return false;
    started = -1;
    return true;
  };
}

/**
 * Waits for `wait` to end; a client that leaves cancels it, and one that left before the wait began
 * (while its first read ran) does not wait at all. The wait holds one of the client's blocking-query
 * slots (`release` gives it back). False when the client has gone.
 */
export async function waitWhileConnected(request: FastifyRequest, reply: FastifyReply, wait: { done: Promise<unknown>; cancel(): void }, release: () => void): Promise<boolean> {
  const onClose = (): void => wait.cancel();
  reply.raw.once("close", onClose);
  if (request.signal.aborted || reply.raw.destroyed) wait.cancel();
  try {
    await wait.done;
  } finally {
    release();
    reply.raw.off("close", onClose);
  }
  return !(request.signal.aborted || reply.raw.destroyed);
}

/** What the list endpoints serve from: the store, the compiled filters, the shared answers, the per-client bounds and (with `--blocking-queries page`) the page waits. */
export interface ListServices {
  readonly store: SchedulerStore;
  readonly filters: FilterCache;
  readonly answers: AnswerCache;
  readonly bounds: ClientBounds;
  readonly pageWaits: PageWaits | undefined;
}

const INCOMPATIBLE_FILTERING = "Filter expression cannot be used with other filter parameters";

/** A list's parameters together: `filter` never comes with `prefix` nor with a field parameter (a 400). */
function checkListQuery(query: ListFilterQuery): void {
  if (query.fields === "with-filter") throw new BadRequest(INCOMPATIBLE_FILTERING);
  if (query.fields === undefined && query.filter !== "" && query.prefix !== "") throw new BadRequest(INCOMPATIBLE_FILTERING);
}

/** A list request's parameters; `fields`: the endpoint's field parameters were given (alone: `filter` is what they mean). */
interface ListFilterQuery extends ListQuery {
  fields?: "alone" | "with-filter";
}

/**
 * The list's parameters (`parseListQuery`); an endpoint's field parameters (`job=web`) become the
 * filter they mean (`JobID == "web"`), so that both stores read them as any filter, indexes included.
 */
function listQueryOf<T>(endpoint: ListEndpoint<T>): (raw: Query) => ListFilterQuery {
  return (raw) => {
    const query = parseListQuery(raw);
    const terms = Object.entries(endpoint.fieldParameters ?? {}).flatMap(([name, path]) => {
      const value = param(raw, name) ?? "";
      return value === "" ? [] : [`${path.join(".")} == ${quote(value)}`];
    });
    if (terms.length === 0) return query;
    return query.filter !== "" ? { ...query, fields: "with-filter" } : { ...query, filter: terms.join(" and "), fields: "alone" };
  };
}

/** Everything that decides a page besides the state: the key of a shared answer. */
function answerKey(query: ListQuery, readable: ReadonlySet<string> | null): string {
  const namespaces = readable === null ? "*" : [...readable].sort().join("\u0001");
  return JSON.stringify([query.namespace, query.prefix, query.filter, query.perPage, query.nextToken, query.reverse, query.pretty, namespaces]);
}

/**
 * GET of a list endpoint with every convention: the reads' preamble (`readRequest`: parameters, 400
 * on a bad one; region; ACL, 403; `filter` with `prefix`, 400; the cached compiled filter, 400 on a
 * syntax or type error), pagination, blocking on `index`/`wait`, `pretty` and the meta headers. The
 * filter's evaluation budget (`--filter-budget`) is one per item, and the request's
 * (`--request-budget`) bounds them all: a list's length is never refused for a filter of ordinary
 * cost, a filter that explodes on one item, or whose items cost far more than an ordinary filter's,
 * is. Pages are computed in slices, in the turns of the
 * loop their client's share gives them (`Turns`), and shared by requests that ask the same page of the
 * same state (`answers`); large ones are streamed. A blocking query holds one of its client's
 * `--blocking-queries-per-client` slots while it waits (past them: 429).
 */
export async function serveList<T>(ctx: ServerContext, services: ListServices, endpoint: ListEndpoint<T>, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const { store, filters, answers, bounds, pageWaits } = services;
  const route = { parse: listQueryOf(endpoint), schema: endpoint.schema, check: checkListQuery, capability: endpoint.namespaceOf === undefined ? "node:read" : "job:read" } as const;
  const read = readRequest(ctx, filters, route, request, reply);
  if (read === undefined) return reply;
  const { query, readable, client, filter } = read;

  try {
    const budgets = { item: ctx.options.filterBudget ?? 1_000_000, request: ctx.options.requestBudget ?? 100_000_000 };
    const namespaceOf = endpoint.namespaceOf;
    const allowed = readable === null || namespaceOf === undefined ? undefined : (item: T) => readable.has(namespaceOf(item));
    const order = ctx.options.filterOrder ?? "acl-first";
    // Past the bound of the answers in flight a new list request is refused rather than growing memory.
    const bound = ctx.options.answerBytesInFlight ?? ANSWER_BYTES_IN_FLIGHT;
    if (answers.inFlight.over(bound)) return sendBusy(reply, BUSY_RETRY_AFTER_S, new AnswersBusy(bound).message);
    const key = answerKey(query, readable);
    /** Reads the page of the current state; the filter has its budgets, the scan its client's turns. */
    const look = async (signal: AbortSignal): Promise<StorePage<T>> => {
      const work: Work = { steps: 0, items: 0 };
      const matches = evaluator<T>(filter, budgets, work, filters.failed);
      const pause = slicer(work);
      const turn = (): Promise<void> => bounds.turns.next(client, signal);
      answers.reading++;
      try {
        // Even the first slice waits for its turn: many reads started at once (blocking queries woken
        // by one write) take turns with everything else rather than each running a slice now.
        await turn();
        return await store.readPage({ endpoint, query, filter, matches, failed: filters.failed, allowed, readable, order, pause, turn, signal });
      } finally {
        answers.reading--;
      }
    };
    // Reads are shared by the requests that ask the same page of the same state; a shared read runs
    // under its own signal (aborted once every request sharing it has gone).
    const at = (): number => store.indexOf(endpoint.table);
    if (query.index > 0 && (pageWaits !== undefined || at() <= query.index)) {
      const release = bounds.waiters.take(client);
      if (release === undefined) return sendBusy(reply, CLIENT_RETRY_AFTER_S, bounds.waiters.message, 429);
      let wait: { done: Promise<unknown>; cancel(): void } | undefined;
      try {
        if (pageWaits !== undefined) {
          // Waits until a write changes this page (`--blocking-queries page`): errors are answered at once.
          const seen = await answers.probe(endpoint.table, at(), key, request.signal, async (signal) => {
            const page = await look(signal);
            return { index: page.index, nextToken: page.nextToken, region: new PageRegion(page.walk, page) as PageRegion<unknown> };
          });
          const watch = { table: endpoint.table, region: seen.region!, filter, allowed: allowed as ((item: unknown) => boolean) | undefined, order, steps: budgets.item, client };
          wait = pageWaits.wait(watch, seen.index, query.index, withJitter(query.waitMs));
        } else {
          // Errors are answered at once; a successful read waits for a change or the timeout, then reads
          // again. While it waits the request keeps only the index it saw, never the page.
          const seen = await answers.probe(endpoint.table, at(), key, request.signal, async (signal) => {
            const { index, nextToken } = await look(signal);
            return { index, nextToken };
          });
          if (seen.index <= query.index) wait = store.waitForChange(endpoint.table, query.index, withJitter(query.waitMs));
        }
      } finally {
        if (wait === undefined) release();
      }
      if (wait !== undefined && !(await waitWhileConnected(request, reply, wait, release))) return reply.send();
    }
    const answer = await answers.get(endpoint.table, at(), key, request.signal, async (signal) => encodeAnswer(await look(signal), query.pretty, answers.inFlight, bound));
    setMeta(reply, apiHeaderNames(ctx.options.apiHeaders), answer.index, answer.nextToken);
    return sendAnswer(reply, answer, answers.inFlight, ctx.options.stallTimeoutMs ?? STALL_TIMEOUT_MS);
  } catch (e) {
    if (e instanceof BadRequest) return sendText(reply, 400, e.message);
    if (e instanceof AnswersBusy) return sendBusy(reply, BUSY_RETRY_AFTER_S, e.message);
    throw e;
  }
}
