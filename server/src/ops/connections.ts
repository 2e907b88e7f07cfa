/**
 * Limits of the HTTP connections of both listeners: how long a client may take to send a request,
 * what its head may hold (and what heads still arriving may hold, `head-gate.ts`), how errors the HTTP
 * parser raises before any route runs are answered (plain text, as every other error), and how
 * shutdown ends connections that do not end by themselves.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { MAX_WAIT_MS, parseGoQuery } from "../scheduler/query.js";
import { HEADS_IN_PROGRESS } from "./head-budget.js";
import { gateHeads, HEADS_OVER_BUDGET, PIECED_HEAD_TURNS } from "./head-gate.js";

/** Longest time to receive a request's headers. */
export const HEADERS_TIMEOUT_MS = 10_000;

/** Go's `http.DefaultMaxHeaderBytes` (1 MiB): the scheduler's server bounds requests' headers by it. */
export const MAX_HEADER_BYTES = 1 << 20;
/**
 * The longest request head the scheduler's Go server reads (its `initialReadLimitSize`: the header
 * bytes and 4096 of "bufio slop"): the request line, the header lines and the empty line that ends
 * them, line ends included. A longer head is `431 Request Header Fields Too Large`.
 */
export const MAX_HEAD_BYTES = MAX_HEADER_BYTES + 4096;
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

const REASONS: Record<number, string> = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large", 503: "Service Unavailable" };

/**
 * The headers and body of a plain-text error answered before any route runs (`emptyBody`: none); a
 * `503` (heads in pieces over their budget, for now) says when to try again.
 */
function plainError(status: number, emptyBody: boolean): { headers: Record<string, string>; body: string } {
  const body = emptyBody ? "" : `${status} ${REASONS[status]}`;
  const headers: Record<string, string> = { Connection: "close", "Content-Length": String(Buffer.byteLength(body)) };
  if (!emptyBody) headers["Content-Type"] = "text/plain; charset=utf-8";
  if (status === 503) headers["Retry-After"] = "1";
  return { headers, body };
}

/** The status of an error of the HTTP parser (Node's codes) or of the head gate. */
function statusOf(err: NodeJS.ErrnoException): number {
  if (err.code === "HPE_HEADER_OVERFLOW") return 431;
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") return 408;
  if (err.code === HEADS_OVER_BUDGET) return 503;
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
    const { headers, body } = plainError(status, emptyBody);
    const head = [`HTTP/1.1 ${status} ${REASONS[status]}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
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
 * the query string read as the scheduler's Go server reads it (`parseGoQuery`), and path parameters of
 * any length a head may hold (as Go's router). Node's parser refuses a head once the URL, header names
 * and values it holds reach `MAX_HEAD_BYTES` (`maxHeaderSize`): a head the scheduler reads whole always
 * holds fewer (its method, separators and line ends count too), and `limitHeaders` counts the rest.
 */
export function connectionOptions(requestTimeoutMs: number, emptyBody: boolean): {
  requestTimeout: number;
  connectionTimeout: number;
  http: { headersTimeout: number; connectionsCheckingInterval: number; maxHeaderSize: number };
  clientErrorHandler: (err: NodeJS.ErrnoException, socket: Socket) => void;
  routerOptions: { querystringParser: (text: string) => Record<string, string | string[]>; maxParamLength: number };
} {
  const every = requestTimeoutMs > 0 ? Math.max(50, Math.min(1000, Math.floor(requestTimeoutMs / 2))) : 1000;
  return {
    requestTimeout: requestTimeoutMs,
    connectionTimeout: IDLE_SOCKET_TIMEOUT_MS,
    http: { headersTimeout: headersTimeout(requestTimeoutMs), connectionsCheckingInterval: every, maxHeaderSize: MAX_HEAD_BYTES },
    clientErrorHandler: plainClientError(emptyBody),
    // A path parameter as long as a head may be is routed (find-my-way's default, 100, answers 414 in JSON).
    routerOptions: { querystringParser: parseGoQuery, maxParamLength: MAX_HEAD_BYTES },
  };
}

/**
 * The bytes of a request's head as clients write it: `METHOD URL HTTP/1.1`, one `Name: value` line per
 * header (Node keeps the first 2,000: its `maxHeadersCount`), the empty line, each ending in CRLF. Node
 * reads the URL and header values one character per byte, so lengths are bytes.
 */
export function headBytes(request: IncomingMessage): number {
  // "METHOD URL HTTP/1.1\r\n" and the closing "\r\n".
  let bytes = (request.method ?? "").length + (request.url ?? "").length + `  HTTP/${request.httpVersion}\r\n\r\n`.length;
  // "Name: " and "value\r\n".
  for (const part of request.rawHeaders) bytes += part.length + 2;
  return bytes;
}

/**
 * Sets the headers timeout on a listener's server again (Fastify leaves it, but be explicit), gates
 * its request heads (`gateHeads`: a head that arrives in pieces reaches the parser whole, in its
 * client's turn of the loop, `PIECED_HEAD_TURNS`, within the process's `HEADS_IN_PROGRESS`), and
 * answers a request whose head (`headBytes`) is longer than the scheduler reads (`MAX_HEAD_BYTES`) as
 * the parser's errors are answered: `431 Request Header Fields Too Large`, in plain text
 * (`emptyBody`: no body), the connection closed, before anything else runs.
 */
export function limitHeaders(app: FastifyInstance, requestTimeoutMs: number, emptyBody = false): void {
  app.server.headersTimeout = headersTimeout(requestTimeoutMs);
  gateHeads(app.server, HEADS_IN_PROGRESS, PIECED_HEAD_TURNS, MAX_HEAD_BYTES);
  app.addHook("onRequest", async (request, reply) => {
    if (headBytes(request.raw) <= MAX_HEAD_BYTES) return;
    const { headers, body } = plainError(431, emptyBody);
    reply.hijack();
    reply.raw.writeHead(431, REASONS[431], headers).end(body);
  });
}

/** The longest URL a log line holds: past it, the start and the URL's length. */
export const LOGGED_URL_CHARS = 2048;

/** A URL as log lines write it: at most `LOGGED_URL_CHARS` of it, then `… (N bytes)`. */
export function loggedUrl(url: string): string {
  return url.length <= LOGGED_URL_CHARS ? url : `${url.slice(0, LOGGED_URL_CHARS)}… (${url.length} bytes)`;
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
