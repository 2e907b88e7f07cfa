import Fastify, { LogController } from "fastify";
import type { FastifyError, FastifyInstance } from "fastify";
import compress from "@fastify/compress";
import type { ServerContext } from "./context.js";
import { connectionOptions, limitHeaders, loggedUrl } from "./ops/connections.js";
import { logStream, monitorAwareLevel } from "./ops/logging.js";
import { methodGuard } from "./ops/methods.js";
import { agentRoutes } from "./agent/index.js";
import { runsRoutes } from "./runs/index.js";
import { AnswerCache } from "./scheduler/answers.js";
import { FilterCache } from "./lists/filters.js";
import { metricsRoutes, ServerMetrics } from "./ops/metrics.js";
import { schedulerRoutes } from "./scheduler/index.js";
import { statusRoutes } from "./scheduler/status.js";
import { PageWaits, registerPageWaitMetrics } from "./scheduler/page-waits.js";
import { clientBounds, registerClientMetrics } from "./scheduler/clients.js";
import { eventRoutes } from "./events/routes.js";
import { uiRoutes } from "./ui/index.js";
import type { SchedulerStore } from "./store/types.js";
import { parseJson } from "./lists/json-literals.js";
import { refuseForeignTokens } from "./foreign-token.js";
import { DEFAULT_API_HEADERS } from "./api-headers.js";

export interface AppServices {
  /** The scheduler's store: the routes see it through the store interface only. */
  scheduler: SchedulerStore;
  /** The compiled-filter cache and the shared list answers (created by the routes when absent). */
  filters?: FilterCache;
  answers?: AnswerCache;
}

/** Plain-text error body, as the scheduler writes it: no newline, text/plain; charset=utf-8. */
function sendText(reply: import("fastify").FastifyReply, status: number, message: string): void {
  void reply.code(status).type("text/plain; charset=utf-8").send(message);
}

/**
 * The main (API) listener: scheduler list endpoints, agent endpoints under /v1/agent, the apply
 * resource under /api/v2. Every route answers 405 to a method it does not have and unknown paths 404.
 */
export async function buildApp(ctx: ServerContext, services: AppServices): Promise<FastifyInstance> {
  const level = ctx.options.logLevel ?? "info";
  const app = Fastify({
    logger: { level, stream: logStream(ctx, level) },
    logController: new LogController({ disableRequestLogging: true }),
    exposeHeadRoutes: false,
    // Close keep-alive connections when shutting down, after in-flight requests finished.
    forceCloseConnections: "idle",
    return503OnClosing: true,
    bodyLimit: 8 * 1024 * 1024,
    ...connectionOptions(ctx.options.requestTimeoutMs ?? 30_000, false),
  });
  limitHeaders(app, ctx.options.requestTimeoutMs ?? 30_000);
  monitorAwareLevel(app, ctx, level);

  // Bodies are JSON whatever the Content-Type says (their text kept for registration's integers: json-literals.ts); an empty body is `undefined`.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, undefined);
    try {
      done(null, parseJson(text));
    } catch (e) {
      const err = new Error(`Invalid request: ${(e as Error).message}`) as FastifyError;
      err.statusCode = 400;
      done(err, undefined);
    }
  });

  methodGuard(app, (reply, status, message) => sendText(reply, status, message));
  // The other dialect's token header is a 400, never ignored (foreign-token.ts).
  refuseForeignTokens(app, ctx.options.apiHeaders ?? DEFAULT_API_HEADERS);

  // A 5xx carries the request id, never the error's own text (a database's address, a file, an index
  // name): that goes to the log line with the same id. Errors written for clients (`expose`: the
  // PostgreSQL store's 503; the data directory's "state not saved") and every 4xx keep their message.
  app.setErrorHandler((error: FastifyError & { expose?: boolean; headers?: Record<string, string> }, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (error.headers !== undefined) void reply.headers(error.headers);
    if (status < 500 || error.expose === true) {
      if (status >= 500) request.log.warn({ err: error }, "request failed");
      return sendText(reply, status, error.message);
    }
    request.log.error({ err: error }, "request failed");
    sendText(reply, status, `internal error (request ${request.id})`);
  });

  const filters = services.filters ?? new FilterCache();
  const answers = services.answers ?? new AnswerCache();
  const scheduler = services.scheduler;
  // Blocking queries that wake only when their page changes follow the store's writes.
  // The loop's turns for long work and the per-client bounds, shared by the list endpoints, the page waits and the event stream.
  const bounds = clientBounds(ctx.options);
  const pageWaits = ctx.options.blockingQueries === "page" ? PageWaits.follow(scheduler, bounds.turns, ctx.options.fanoutBudget) : undefined;
  app.addHook("preClose", async () => pageWaits?.releaseAll());
  app.addHook("onClose", async () => pageWaits?.stop());
  const metrics = new ServerMetrics({ filters, answers, waiting: () => scheduler.waiting + (pageWaits?.size ?? 0), storeHealth: () => ctx.storeHealth?.() });
  if (pageWaits !== undefined) registerPageWaitMetrics(metrics.registry, pageWaits);
  registerClientMetrics(metrics.registry, bounds);

  app.addHook("onResponse", async (request, reply) => {
    // The route's pattern, never the URL: the label values stay bounded.
    metrics.request(request.routeOptions.url ?? "unmatched", request.method, reply.statusCode, reply.elapsedTime / 1000);
    request.log.debug(
      { method: request.method, url: loggedUrl(request.url), status: reply.statusCode, durationMs: Math.round(reply.elapsedTime * 1000) / 1000 },
      "request complete",
    );
  });

  await app.register(compress, { global: true, threshold: 0, encodings: ["gzip", "deflate"] });

  await app.register(schedulerRoutes(ctx, scheduler, filters, answers, pageWaits, bounds), { prefix: "/v1" });
  await app.register(statusRoutes(ctx), { prefix: "/v1" });
  await app.register(metricsRoutes(metrics), { prefix: "/v1" });
  // GET /v1/event/stream: the store's committed writes as events (server/docs/events.md).
  await app.register(eventRoutes(ctx, scheduler, filters, bounds, metrics.registry), { prefix: "/v1" });
  await app.register(agentRoutes(ctx), { prefix: "/v1/agent" });
  await app.register(runsRoutes(ctx), { prefix: "/api/v2" });
  // The filter playground: a page that checks filters as they are typed and runs them here.
  await app.register(uiRoutes(undefined, ctx.options.apiHeaders ?? DEFAULT_API_HEADERS), { prefix: "/ui" });
  return app;
}
