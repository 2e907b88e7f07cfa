/**
 * The other dialect's token header (`X-Svc-Token` to a server of `--api-headers nomad`, `X-Nomad-Token`
 * to one of `svc`) is refused, never ignored: a request that carries one is answered `400` before any
 * route reads it. Ignored, it would let `Authorization: Bearer` of the same request decide instead (the
 * dialect's token header wins over Authorization, so a client that sends both means the header), or turn
 * an authenticated request into an anonymous one without a word; accepted, it would let a client that
 * speaks the wrong dialect work against this mock and fail against the scheduler, which reads only its
 * own. The answer names the header this server reads.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { apiHeaderNames, otherDialect, type ApiHeaderDialect } from "./api-headers.js";
import { sendError } from "./runs/routes.js";

/** The message of the refusal. */
export function foreignTokenMessage(dialect: ApiHeaderDialect): string {
  const own = apiHeaderNames(dialect).token;
  const foreign = apiHeaderNames(otherDialect(dialect)).token;
  return `${foreign} is not read by this server, whose headers are ${dialect === "nomad" ? "the scheduler's" : "the seed's"} (--api-headers ${dialect}): send the token as ${own} or Authorization: Bearer`;
}

/** Whether the request carries the other dialect's token header with a value. */
export function carriesForeignToken(headers: Record<string, string | string[] | undefined>, dialect: ApiHeaderDialect): boolean {
  const value = headers[apiHeaderNames(otherDialect(dialect)).token.toLowerCase()];
  return Array.isArray(value) ? value.some((v) => v !== "") : value !== undefined && value !== "";
}

function refuse(reply: FastifyReply, url: string, message: string): FastifyReply {
  // The apply resource answers in JSON:API, the scheduler's API in plain text.
  if (url.startsWith("/api/v2/") || url === "/api/v2") return sendError(reply, 400, "Bad Request", message);
  return reply.code(400).type("text/plain; charset=utf-8").send(message);
}

/** Refuses, on every route of `app`, a request carrying the other dialect's token header. */
export function refuseForeignTokens(app: FastifyInstance, dialect: ApiHeaderDialect): void {
  const message = foreignTokenMessage(dialect);
  app.addHook("onRequest", async (request, reply) => {
    if (carriesForeignToken(request.headers, dialect)) return refuse(reply, request.url, message);
  });
}
