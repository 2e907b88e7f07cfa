import { STATUS_CODES } from "node:http";
import type { FastifyError, FastifyPluginAsync } from "fastify";
import type { ServerContext } from "../context.js";
import { registerApplyRoutes, sendError } from "./routes.js";
import { ensureRuntime } from "./runtime.js";

export { configureRuns, generatedApplyToken, runsRuntime, type RunsOverrides, type RunsRuntime } from "./runtime.js";
export { ApplyDataError } from "./data.js";
export { STATE_URL_TTL_MS, LOG_URL_TTL_MS } from "./routes.js";

/**
 * The apply resource of the infrastructure run service, registered by the app at prefix /api/v2.
 * Builds the applies (data file or demo) and, without a tokens file, generates and prints the token
 * at once, so an invalid data file stops the server at start.
 */
export function runsRoutes(ctx: ServerContext): FastifyPluginAsync {
  const runtime = ensureRuntime(ctx);
  return async (app) => {
    // Bodies are never read here; accepting any lets a wrong method reach its 405 and a GET carry
    // Content-Type: application/vnd.api+json as the seed's clients do.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser("*", { parseAs: "buffer", bodyLimit: 1024 * 1024 }, (_request, _body, done) => done(null, undefined));

    app.setNotFoundHandler((_request, reply) => sendError(reply, 404, "not found"));
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const status = typeof error.statusCode === "number" && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, "apply resource: unexpected error");
      return sendError(reply, status, (STATUS_CODES[status] ?? "error").toLowerCase(), status === 500 ? undefined : error.message);
    });

    registerApplyRoutes(app, runtime);
  };
}
