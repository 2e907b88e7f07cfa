import Router from "find-my-way";
import type { FastifyInstance, FastifyReply } from "fastify";

const METHODS = ["GET", "PUT", "POST", "DELETE", "PATCH", "HEAD", "OPTIONS"] as const;

/**
 * Unknown paths are 404 with an empty body; a known path asked with a method it does not answer is
 * 405 `Invalid method`. A shadow router of every registered route (from any plugin) tells the two apart.
 * Call before registering routes.
 */
export function methodGuard(app: FastifyInstance, send: (reply: FastifyReply, status: number, message: string) => void): void {
  const shadow = Router();
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      try {
        shadow.on(method as Router.HTTPMethod, route.url, () => undefined);
      } catch {
        // Same path and method registered twice with different constraints: one entry is enough.
      }
    }
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?", 1)[0] ?? "/";
    const known = METHODS.some((m) => m !== request.method && shadow.find(m, path) !== null);
    if (known) return send(reply, 405, "Invalid method");
    void reply.code(404).send();
  });
}
