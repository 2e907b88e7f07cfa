import type { FastifyReply } from "fastify";
import type { ApiHeaderNames } from "../api-headers.js";
import { tokenHeader } from "./tokens.js";

/** Minimized JSON, or with `pretty` 4-space indented JSON ending in a newline. */
export function encodeJson(value: unknown, pretty: boolean): string {
  return pretty ? `${JSON.stringify(value, null, 4)}\n` : JSON.stringify(value);
}

/**
 * The scheduler's query meta headers, under the names of the server's dialect (`names`: X-Svc-Index or
 * X-Nomad-Index, …). This single server is always its own leader. The next token is written as its
 * UTF-8 bytes, or escaped when no header can carry it (`tokenHeader`); the body must then be a buffer or
 * a stream of buffers, with which Node writes the header a byte per character.
 */
export function setMeta(reply: FastifyReply, names: ApiHeaderNames, index: number, nextToken = ""): void {
  void reply.header(names.index, String(index));
  void reply.header(names.lastContact, "0");
  void reply.header(names.knownLeader, "true");
  if (nextToken !== "") void reply.header(names.nextToken, tokenHeader(nextToken));
}

export function sendJson(reply: FastifyReply, value: unknown, pretty: boolean): FastifyReply {
  return reply.type("application/json").send(encodeJson(value, pretty));
}

export function sendText(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type("text/plain; charset=utf-8").send(message);
}

/**
 * 503 with `Retry-After` (seconds) and a plain-text message: the server is too busy for the request now
 * (or `429`: its client holds as much as a client may).
 */
export function sendBusy(reply: FastifyReply, retryAfterSeconds: number, message: string, status: 503 | 429 = 503): FastifyReply {
  void reply.header("Retry-After", String(retryAfterSeconds));
  return sendText(reply, status, message);
}
