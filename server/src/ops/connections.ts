/**
 * Limits of the HTTP connections of both listeners: how long a client may take to send a request,
 * how errors the HTTP parser raises before any route runs are answered (plain text, as every other
 * error), and how shutdown ends connections that do not end by themselves.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { MAX_WAIT_MS, parseGoQuery } from "../scheduler/query.js";

/** Longest time to receive a request's headers. */
export const HEADERS_TIMEOUT_MS = 10_000;
/**
 * A socket with no traffic at all for this long is closed: longer than the longest blocking query
 * (10 minutes and a sixteenth of jitter), so that only a dead or stalled peer hits it.
 */
export const IDLE_SOCKET_TIMEOUT_MS = MAX_WAIT_MS + MAX_WAIT_MS / 16 + 60_000;

/**
 * A response whose connection makes no write progress for this long (its client reads nothing) has its
 * connection closed (`--stall-timeout`): a client reading a list answer must take some of it every
 * period. Blocking queries are not affected (the limit runs only while an answer is being sent).
 */
export const STALL_TIMEOUT_MS = 30_000;

/**
 * Closes the connection of `response` when it makes no write progress for `ms` (0: never), with the
 * socket's inactivity timer, set while this response is written (Node sets the keep-alive timeout once
 * it is finished). Any write the kernel takes, or any byte read, restarts the period; when it ends Node
 * lets it run once more if the pending write shrank meanwhile, so a connection that stopped making
 * progress is closed between `ms` and twice `ms` later.
 */
export function closeWhenStalled(response: ServerResponse, ms: number): void {
  if (ms > 0) response.setTimeout(ms, () => response.destroy());
}

const REASONS: Record<number, string> = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" };

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
    // A response already under way on this connection (pipelining) cannot be followed by another.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === "ECONNRESET" || err.code === "EPIPE" || !socket.writable || inFlight?.headersSent === true) {
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

/** The headers timeout for a request timeout (Node wants it no longer than the request timeout). */
function headersTimeout(requestTimeoutMs: number): number {
  return requestTimeoutMs > 0 ? Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs) : HEADERS_TIMEOUT_MS;
}

/**
 * The connection options of a listener: request, headers and idle timeouts (expired requests are
 * looked for every second, or twice per request timeout when it is shorter), plain-text parser errors,
 * and the query string read as the scheduler's Go server reads it (`parseGoQuery`).
 */
export function connectionOptions(requestTimeoutMs: number, emptyBody: boolean): {
  requestTimeout: number;
  connectionTimeout: number;
  http: { headersTimeout: number; connectionsCheckingInterval: number };
  clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => void;
  routerOptions: { querystringParser: (text: string) => Record<string, string | string[]> };
} {
  const every = requestTimeoutMs > 0 ? Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 2))) : 1000;
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: IDLE_SOCKET_TIMEOUT_MS,
    http: { headersTimeout: headersTimeout(requestTimeoutMs), connectionsCheckingInterval: every },
    clientErrorHandler: plainClientError(emptyBody),
    routerOptions: { querystringParser: parseGoQuery },
  };
}

/** Sets the headers timeout on a listener's server again (Fastify leaves it, but be explicit). */
export function limitHeaders(app: FastifyInstance, requestTimeoutMs: number): void {
  app.server.headersTimeout = headersTimeout(requestTimeoutMs);
}

/**
 * On shutdown, how long keep-alive connections may stay idle before they are closed: a client that
 * sends its next request within it gets an answer (503, `Connection: close`) rather than a reset.
 */
export const DRAIN_IDLE_MS = 1000;

/**
 * Closes a listener: no new connections; in-flight requests end, and every request that arrives on an
 * open connection is answered (fastify's 503 with `Connection: close`), so that its client closes the
 * connection after reading it. Idle connections are closed only after `drainMs`: Node's `close()` would
 * destroy them at once, and a request a client had just sent on one would meet a reset. Whatever is
 * still open after `boundMs` (a body trickled byte by byte, a reader that never reads) is destroyed, so
 * shutdown always completes.
 */
export async function closeWithin(app: FastifyInstance, boundMs: number, drainMs = DRAIN_IDLE_MS): Promise<void> {
  const server = app.server;
  const closeIdle = server.closeIdleConnections.bind(server);
  // Node's http.Server#close() calls closeIdleConnections() first: deferred to the end of the drain.
  server.closeIdleConnections = (): void => undefined;
  const drained = setTimeout(closeIdle, Math.min(drainMs, boundMs));
  const timer = setTimeout(() => server.closeAllConnections(), boundMs);
  try {
    await app.close();
  } finally {
    clearTimeout(drained);
    clearTimeout(timer);
    server.closeIdleConnections = closeIdle;
  }
}
