/**
 * The preamble of the scheduler API's reads, one for the list endpoints and the event stream, in the
 * scheduler's order: the parameters (400 on the first bad one), `region` (400), the token and the
 * namespaces it may read (403), the route's own checks of its parameters (400), then the filter,
 * compiled through the cache (400 on a syntax or type error). Registration checks the region and the
 * token with the same functions.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Schema } from "filter-expr";
import { TokenAcl } from "../acl.js";
import type { AclToken, ServerContext } from "../context.js";
import { BadRequest } from "../lists/errors.js";
import type { FilterCache, ItemFilter, SchemaName } from "../lists/filters.js";
import type { ClientKey } from "../turns.js";
import { clientOf } from "./clients.js";
import type { Query } from "./query.js";
import { sendText } from "./respond.js";

export const PERMISSION_DENIED = "Permission denied";

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
export function readableNamespaces(ctx: ServerContext, token: AclToken | undefined): ReadonlySet<string> | null {
  if (ctx.acl instanceof TokenAcl) return ctx.acl.namespaces(token, "job:read");
  return ctx.acl.allows(token, "job:read") ? null : new Set();
}

/**
 * The namespaces the request's token may read jobs in (null: all) and who its client is (`clientOf`),
 * or undefined (a 403) when the token is unknown or may read none of `namespace` (`*`: any namespace).
 * A list without namespaces (`node:read`) is read whole or not at all.
 */
function readAccess(ctx: ServerContext, request: FastifyRequest, namespace: string, capability: ReadCapability): { readable: ReadonlySet<string> | null; client: ClientKey } | undefined {
  const auth = authenticate(ctx, request);
  if (auth === undefined) return undefined;
  if (capability === "node:read") return ctx.acl.allows(auth.token, capability) ? { readable: null, client: clientOf(request, auth.token) } : undefined;
  const readable = readableNamespaces(ctx, auth.token);
  if (readable !== null && (namespace === "*" ? readable.size === 0 : !readable.has(namespace))) return undefined;
  return { readable, client: clientOf(request, auth.token) };
}

/** The parameters the preamble reads, which every read route has. */
export interface ReadParams {
  region?: string;
  /** `default` when absent; `*`: every namespace the token may read. */
  namespace: string;
  /** The filter expression; "" for none. */
  filter: string;
}

/** How a route's requests are read: its parameters, the schema of its filters, and its own checks. */
export interface ReadRoute<Q extends ReadParams> {
  /** The parameters; throws `BadRequest` (a 400) at the first bad one. */
  parse(query: Query): Q;
  /** The schema its filters are compiled with. */
  readonly schema: SchemaName | Schema;
  /** Checks of the parameters together, after the token's and before the filter's; throws `BadRequest`. */
  check?(query: Q): void;
  /** What the token must hold: `job:read` in the namespace (the default), or `node:read` (a list without namespaces). */
  readonly capability?: ReadCapability;
}

/** The capabilities a read route asks of a token. */
export type ReadCapability = "job:read" | "node:read";

/** A read request past its preamble. */
export interface ReadRequest<Q extends ReadParams> {
  readonly query: Q;
  /** Namespaces the token may read; null: all. */
  readonly readable: ReadonlySet<string> | null;
  /** Who the request comes from (`clientOf`). */
  readonly client: ClientKey;
  /** The compiled filter; undefined without `filter`. */
  readonly filter: ItemFilter | undefined;
}

/** Answers a `BadRequest` with its 400, or throws what is not one. */
function badRequest(reply: FastifyReply, e: unknown): undefined {
  if (!(e instanceof BadRequest)) throw e;
  sendText(reply, 400, e.message);
  return undefined;
}

/** The request past the preamble, or undefined when the preamble answered it (400 or 403). */
export function readRequest<Q extends ReadParams>(ctx: ServerContext, filters: FilterCache, route: ReadRoute<Q>, request: FastifyRequest, reply: FastifyReply): ReadRequest<Q> | undefined {
  let query: Q;
  try {
    query = route.parse(request.query as Query);
    checkRegion(ctx, query.region);
  } catch (e) {
    return badRequest(reply, e);
  }
  // The token after the parameters and before the filter, as the scheduler checks them.
  const access = readAccess(ctx, request, query.namespace, route.capability ?? "job:read");
  if (access === undefined) {
    sendText(reply, 403, PERMISSION_DENIED);
    return undefined;
  }
  try {
    route.check?.(query);
    const filter = query.filter === "" ? undefined : filters.get(route.schema, query.filter);
    return { query, readable: access.readable, client: access.client, filter };
  } catch (e) {
    return badRequest(reply, e);
  }
}
