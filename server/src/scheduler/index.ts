import type { FastifyPluginAsync } from "fastify";
import type { ServerContext } from "../context.js";
import { AnswerCache } from "./answers.js";
import { FilterCache } from "../lists/filters.js";
import { serveList } from "./list.js";
import { serveJob, serveNamespaces } from "./job-reads.js";
import { PERMISSION_DENIED, authenticate, checkRegion } from "./preamble.js";
import type { Query } from "./query.js";
import { isPretty, param } from "./query.js";
import { BadRequest } from "../lists/errors.js";
import { parseJobSpec } from "../lists/register.js";
import { sendJson, sendText, setMeta } from "./respond.js";
import { apiHeaderNames } from "../api-headers.js";
import { LIST_ENDPOINTS, type ListEndpoint } from "../lists/endpoints.js";
import type { SchedulerStore } from "../store/types.js";
import type { PageWaits } from "./page-waits.js";
import { clientBounds, type ClientBounds } from "./clients.js";

/**
 * GET, PUT and POST /v1/jobs, the other lists (`LIST_ENDPOINTS`), GET /v1/job/:id and GET /v1/namespaces (registered at prefix /v1), served from `store`
 * through the store interface only; with `pageWaits`, a list's blocking query waits for its page to
 * change (`--blocking-queries page`).
 */
export function schedulerRoutes(
  ctx: ServerContext,
  store: SchedulerStore,
  filters = new FilterCache(),
  answers = new AnswerCache(),
  pageWaits?: PageWaits,
  bounds: ClientBounds = clientBounds(ctx.options),
): FastifyPluginAsync {
  const services = { store, filters, answers, bounds, pageWaits };
  return async (app) => {
    for (const endpoint of LIST_ENDPOINTS) {
      app.get(endpoint.path, (request, reply) => serveList(ctx, services, endpoint as ListEndpoint<unknown>, request, reply));
    }
    // The rest of the path is the ID, slashes included (a dispatched job's "parent/dispatch-…"), as the scheduler reads it.
    app.get<{ Params: { "*": string } }>("/job/*", (request, reply) => serveJob(ctx, store, bounds, request, reply));
    app.get("/namespaces", (request, reply) => serveNamespaces(ctx, store, bounds, request, reply));

    app.route({
      method: ["PUT", "POST"],
      url: "/jobs",
      handler: async (request, reply) => {
        const query = request.query as Query;
        try {
          checkRegion(ctx, param(query, "region"));
          const auth = authenticate(ctx, request);
          if (auth === undefined) return sendText(reply, 403, PERMISSION_DENIED);
          const spec = parseJobSpec(request.body, param(query, "namespace"));
          if (!ctx.acl.allows(auth.token, "job:write", spec.Namespace)) return sendText(reply, 403, PERMISSION_DENIED);
          const result = await store.register(spec, Date.now());
          request.log.info({ job: spec.ID, namespace: spec.Namespace, index: result.Index }, "job registered");
          setMeta(reply, apiHeaderNames(ctx.options.apiHeaders), result.Index);
          return sendJson(reply, result, isPretty(query));
        } catch (e) {
          if (e instanceof BadRequest) return sendText(reply, 400, e.message);
          throw e;
        }
      },
    });
  };
}
