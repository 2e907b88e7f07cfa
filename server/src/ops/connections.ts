/**
 * Limits of the HTTP connections of both listeners: how long a client may take to send a request,
 * how errors the HTTP parser raises before any route runs are answered (plain text, as every other
 * error), and how shutdown ends connections that do not end by themselves.
 */
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { MAX_WAIT_MS } from "../scheduler/query.js";

/** Longest time to receive a request's headers. */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * A socket with no traffic at all for this long is closed: longer than the longest blocking query
 * (10 minutes and a sixteenth of jitter), so that only a dead or stalled peer hits it.
 */
export const IDLE_SOCKET_TIMEOUT_MS = MAX_WAIT_MS + MAX_WAIT_MS / 16 + 60_000;

const REASONS: Record<number, string> = { 400: "Bad Request", 408: "Request Timeout", 413: "Payload Too Large", 431: "Request Header Fields Too Large" };

/** The status of an error of the HTTP parser (Node's codes). */
function statusOf(err: NodeJS.ErrnoException): number {
  if (err.code === "HPE_HEADER_OVERFLOW") return 431;
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  return 400;
}

/**
 * Fastify's `clientErrorHandler`: the parser's errors (header too large, request timeout, malformed
 * request) answered as the scheduler answers them, `431 Request Header Fields Too Large` in plain text,
 * and the connection closed. With `emptyBody` (the ops listener: its errors carry empty bodies) no body.
 */
export function plainClientError(emptyBody: boolean): (err: NodeJS.ErrnoException, socket: Socket) => void {
  return (err, socket) => {
    if (err.code === "ECONNRESET" || err.code === "EPIPE" || !socket.writable) {
      socket.destroy();
      return;
    }
    const status = statusOf(err);
    const body = emptyBody ? "" : `${status} ${REASONS[status]}`;
    const head = [`HTTP/1.1 ${status} ${REASONS[status]}`, "Connection: close", `Content-Length: ${Buffer.byteLength(body)}`];
    if (!emptyBody) head.push("Content-Type: text/plain; charset=utf-8");
    socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  };
}

/** The connection options of a listener: request and idle timeouts, plain-text parser errors. */
export function connectionOptions(requestTimeoutMs: number, emptyBody: boolean): {
  requestTimeout: number;
  connectionTimeout: number;
  clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => void;
} {
  return { requestTimeout: requestTimeoutMs, connectionTimeout: IDLE_SOCKET_TIMEOUT_MS, clientErrorHandler: plainClientError(emptyBody) };
}

/** Sets the headers timeout (not a Fastify option) on a listener's server. */
export function limitHeaders(app: FastifyInstance, requestTimeoutMs: number): void {
  // Node requires headersTimeout <= requestTimeout when both are set.
  app.server.headersTimeout = requestTimeoutMs > 0 ? Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs) : HEADERS_TIMEOUT_MS;
}

/**
 * Closes a listener: no new connections, idle ones closed at once, in-flight requests allowed to end;
 * whatever is still open after `boundMs` (a body trickled byte by byte, a reader that never reads) is
 * destroyed, so shutdown always completes.
 */
export async function closeWithin(app: FastifyInstance, boundMs: number): Promise<void> {
  const timer = setTimeout(() => app.server.closeAllConnections(), boundMs);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
  }
}
