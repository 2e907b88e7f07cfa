import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { APPLY_READ, STATE_READ } from "./access.js";
import { applyDocument, errorDocument, JSONAPI_MEDIA_TYPE } from "./jsonapi.js";
import type { Apply } from "./model.js";
import type { RunsRuntime } from "./runtime.js";
import type { SignedObject } from "./signing.js";
import { origin, withSignature } from "./urls.js";

/** How long a URL from errored-state may be followed (the seed's limit). */
export const STATE_URL_TTL_MS = 60_000;
/** How long a log read URL from the apply document may be followed. */
export const LOG_URL_TTL_MS = 60 * 60_000;

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

/**
 * A JSON:API document. Sent as bytes: fastify would add `; charset=utf-8` to a string, and JSON:API
 * forbids parameters on its media type.
 */
export function sendDocument(reply: FastifyReply, status: number, document: unknown): FastifyReply {
  return reply.code(status).header("content-type", JSONAPI_MEDIA_TYPE).send(Buffer.from(JSON.stringify(document)));
}

export function sendError(reply: FastifyReply, status: number, title: string, detail?: string): FastifyReply {
  return sendDocument(reply, status, errorDocument(status, title, detail));
}

function notFound(reply: FastifyReply): FastifyReply {
  return sendError(reply, 404, "not found");
}

/** The apply routes and the storage routes that serve the URLs they hand out; `app` is scoped to /api/v2. */
export function registerApplyRoutes(app: FastifyInstance, rt: RunsRuntime): void {
  const prefix = app.prefix;
  const storagePath = (object: SignedObject, id: string) => `${prefix}/storage/applies/${id}/${object}`;
  const signedUrl = (object: SignedObject, id: string, ttlMs: number) => origin(app) + withSignature(storagePath(object, id), rt.signer.sign(object, id, ttlMs));

  app.get("/applies/:id", { exposeHeadRoute: true }, async (request: IdRequest, reply) => {
    const apply = rt.access.allows(request.headers, APPLY_READ) ? rt.store.get(request.params.id) : undefined;
    if (apply === undefined) return notFound(reply);
    const document = applyDocument(apply, {
      self: `${prefix}/applies/${apply.id}`,
      logReadUrl: signedUrl("log", apply.id, LOG_URL_TTL_MS),
    });
    return sendDocument(reply.header("cache-control", "no-store"), 200, document);
  });

  app.get("/applies/:id/errored-state", { exposeHeadRoute: true }, async (request: IdRequest, reply) => {
    const allowed = rt.access.allows(request.headers, APPLY_READ, STATE_READ);
    const apply = allowed ? rt.store.get(request.params.id) : undefined;
    if (apply === undefined || apply.erroredState === null) return notFound(reply);
    return reply
      .code(307)
      .header("location", signedUrl("errored-state", apply.id, STATE_URL_TTL_MS))
      .header("cache-control", "no-store")
      .send();
  });

  // The storage the signed URLs point at: the signature is the authorization, no token needed.
  const serveSigned = (object: SignedObject, body: (apply: Apply) => string | null, type: (content: string) => string) =>
    async (request: FastifyRequest<{ Params: { id: string }; Querystring: Record<string, unknown> }>, reply: FastifyReply) => {
      const verdict = rt.signer.verify(object, request.params.id, request.query);
      if (verdict === "expired") return sendError(reply, 403, "forbidden", "the signed URL has expired");
      if (verdict === "invalid") return sendError(reply, 403, "forbidden", "the URL signature is not valid");
      const apply = rt.store.get(request.params.id);
      const content = apply === undefined ? null : body(apply);
      if (content === null) return notFound(reply);
      return reply.header("content-type", type(content)).header("cache-control", "no-store").send(content);
    };

  app.get(
    "/storage/applies/:id/errored-state",
    { exposeHeadRoute: true },
    serveSigned("errored-state", (a) => a.erroredState, (content) => (isJson(content) ? "application/json" : "application/octet-stream")),
  );
  app.get("/storage/applies/:id/log", { exposeHeadRoute: true }, serveSigned("log", (a) => a.log, () => "text/plain; charset=utf-8"));

  // Everything here is read-only: any other method on these paths is 405.
  const methodNotAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    sendError(reply.header("allow", "GET, HEAD"), 405, "method not allowed", "this resource is read-only: use GET");
  for (const url of ["/applies/:id", "/applies/:id/errored-state", "/storage/applies/:id/errored-state", "/storage/applies/:id/log"]) {
    app.route({ method: ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"], url, handler: methodNotAllowed });
  }
}

function isJson(content: string): boolean {
  try {
    JSON.parse(content);
    return true;
  } catch {
    return false;
  }
}
