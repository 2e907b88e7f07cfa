import type { FastifyReply, FastifyRequest } from "fastify";
import type { AclToken, ServerContext } from "../context.js";
import { TokenAcl } from "../acl.js";
import type { FilterCache, SchemaName } from "./filters.js";
import { evaluator } from "./filters.js";
import type { Page, PageSource } from "./paginate.js";
import { paginate } from "./paginate.js";
import type { ListQuery, Query } from "./query.js";
import { BadRequest, parseListQuery, withJitter } from "./query.js";
import { sendJson, sendText, setMeta } from "./respond.js";
import type { SchedulerState, Table } from "./state.js";

export const PERMISSION_DENIED = "Permission denied";

export interface ListEndpoint<T> {
  table: Table;
  schema: SchemaName;
  /** The iterated items for this request (namespace, prefix, order). */
  source(state: SchedulerState, query: ListQuery): PageSource<T>;
  namespaceOf(item: T): string;
}

/** The request's token, or a 403 when ACLs are on and the token is unknown. */
export function authenticate(ctx: ServerContext, request: FastifyRequest): { token: AclToken | undefined } | undefined {
  const token = ctx.acl.resolve(request.headers);
  if (ctx.acl.enabled && token === undefined) return undefined;
  return { token };
}

/** `region` must be this server's (there are no other regions to forward to). */
export function checkRegion(ctx: ServerContext, region: string | undefined): void {
  if (region !== undefined && region !== ctx.options.region) throw new BadRequest(`No path to region "${region}"`);
}

/** Namespaces a token may read jobs in; null: all. */
function readableNamespaces(ctx: ServerContext, token: AclToken | undefined): ReadonlySet<string> | null {
  if (ctx.acl instanceof TokenAcl) return ctx.acl.namespaces(token, "job:read");
  return ctx.acl.allows(token, "job:read") ? null : new Set();
}

/**
 * GET of a list endpoint with every convention: parameters (400 on a bad one), region, ACL (403),
 * `filter` with `prefix` (400), the cached compiled filter (400 on a syntax or type error), pagination,
 * blocking on `index`/`wait`, `pretty` and the meta headers.
 */
export async function serveList<T>(
  ctx: ServerContext,
  state: SchedulerState,
  filters: FilterCache,
  endpoint: ListEndpoint<T>,
  request: FastifyRequest,
  reply: FastifyReply,
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
  const readable = readableNamespaces(ctx, auth.token);
  if (readable !== null && (query.namespace === "*" ? readable.size === 0 : !readable.has(query.namespace))) {
    return sendText(reply, 403, PERMISSION_DENIED);
  }

  let run: () => Page<T>;
  try {
    if (query.filter !== "" && query.prefix !== "") {
      throw new BadRequest("Filter expression cannot be used with other filter parameters");
    }
    const matches = evaluator<T>(query.filter === "" ? undefined : filters.get(endpoint.schema, query.filter));
    const allowed = readable === null ? undefined : (item: T) => readable.has(endpoint.namespaceOf(item));
    run = () => paginate(endpoint.source(state, query), { nextToken: query.nextToken, perPage: query.perPage, matches, allowed });
    let page = run();
    if (query.index > 0 && state.indexOf(endpoint.table) <= query.index) {
      // Errors are answered at once; a successful read waits for a change or the timeout, then reads again.
      const wait = state.waitForChange(endpoint.table, query.index, withJitter(query.waitMs));
      const onClose = (): void => wait.cancel();
      reply.raw.once("close", onClose);
      await wait.done;
      reply.raw.off("close", onClose);
      if (reply.raw.destroyed) return reply.send();
      page = run();
    }
    setMeta(reply, state.indexOf(endpoint.table), page.nextToken);
    return sendJson(reply, page.items, query.pretty);
  } catch (e) {
    if (e instanceof BadRequest) return sendText(reply, 400, e.message);
    throw e;
  }
}
