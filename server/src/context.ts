import { EventEmitter } from "node:events";
import type { CheckOrder } from "./lists/paginate.js";
import type { ApiHeaderDialect } from "./api-headers.js";

/** Everything the command line (and the configuration file) can set. */
export interface ServerOptions {
  bind: string;
  port: number;
  opsPort: number;
  dataFile?: string;
  aclTokensFile?: string;
  enableDebug: boolean;
  dataDir?: string;
  /** `--database postgres://…`: the scheduler's state lives in PostgreSQL (else in memory / dataDir). */
  database?: string;
  mode: "server" | "client";
  /** 0 means off (the default). */
  gracefulShutdownWaitMs: number;
  configFile?: string;
  region: string;
  datacenter: string;
  nodeName: string;
  /** Address of the ops listener when it differs from `bind` (set by the configuration file). */
  opsBind?: string;
  /** Worker role of the ops listener: /health?worker_info=1 answers worker information. */
  worker?: boolean;
  /** pino log level of the server's own logger. */
  logLevel?: "trace" | "debug" | "info" | "warn" | "error";
  /** Shared gossip key (base64 of 16, 24 or 32 bytes) authenticating server-to-server traffic; a random one per start when absent. */
  gossipKey?: string;
  /** Evaluation steps a list request's filter may spend on one item. */
  filterBudget?: number;
  /** Evaluation steps a list request's filter may spend over every item it reads. */
  requestBudget?: number;
  /**
   * Evaluation steps one event may cost across every event stream's filter (each stream gets this
   * divided by `eventStreams`), and one changed item across the filters of waiting blocking queries of
   * `--blocking-queries page` (each gets this divided by their number).
   */
  fanoutBudget?: number;
  /** Event streams one client (token, else address) may hold open; 0: no bound. */
  eventStreamsPerClient?: number;
  /** Blocking queries one client (token, else address) may have waiting; 0: no bound. */
  blockingQueriesPerClient?: number;
  /** The ACL check before the filter (`acl-first`, the default) or after it, as the scheduler orders them (`nomad`). */
  filterOrder?: CheckOrder;
  /**
   * When a blocking query of a list answers: on any write to the list's table (`index`, the default,
   * as the scheduler), or only once a write changes its page (`page`, server/docs/server.md).
   */
  blockingQueries?: "index" | "page";
  /** Longest time a client may take to send a whole request (headers and body); 0: no limit. */
  requestTimeoutMs?: number;
  /** On shutdown, connections still open after this long (a slow reader, a trickled body) are closed. */
  shutdownTimeoutMs?: number;
  /** Bytes of list answers being encoded or sent at once across the server; past it a new list request is 503. */
  answerBytesInFlight?: number;
  /** A response whose connection makes no write progress for this long is closed; 0: never. */
  stallTimeoutMs?: number;
  /**
   * The names of the API's headers: the seed document's `X-Svc-*` (`svc`, the default) or the
   * scheduler's `X-Nomad-*` (`nomad`), server/src/api-headers.ts.
   */
  apiHeaders?: ApiHeaderDialect;
  /** Events `GET /v1/event/stream` keeps for resumption with `index` (default 4,096). */
  eventBuffer?: number;
  /** An event stream quiet for this long gets a `{}` heartbeat (default 10 s). */
  eventHeartbeatMs?: number;
  /** Event streams open at once; past it a new one is 503 (default 256). */
  eventStreams?: number;
  /** Bytes an event stream's connection may hold unsent; past it the stream is cut (default 1 MiB). */
  eventStreamBytes?: number;
}

export interface AclToken {
  SecretID: string;
  AccessorID?: string;
  Name?: string;
  Management?: boolean;
  Capabilities: string[];
}

export interface Acl {
  readonly enabled: boolean;
  readonly tokens: readonly AclToken[];
  /** The token's secret the request sends: the dialect's token header (X-Svc-Token, X-Nomad-Token), else Authorization: Bearer. */
  secret(headers: Record<string, string | string[] | undefined>): string | undefined;
  /** The token the request's secret names (`secret`), if any. */
  resolve(headers: Record<string, string | string[] | undefined>): AclToken | undefined;
  /** capability like "agent:read", optional namespace for job:read@NS */
  allows(token: AclToken | undefined, capability: string, namespace?: string): boolean;
}

export interface LogLine {
  level: "trace" | "debug" | "info" | "warn" | "error";
  time: number;
  msg: string;
  /** the raw pino JSON line */
  json: string;
}

export interface ServerContext {
  options: ServerOptions;
  acl: Acl;
  version: { Version: string; VersionPrerelease: string };
  startedAt: Date;
  /** every log line the server writes, for /v1/agent/monitor */
  logEvents: EventEmitter /* emits "line" (LogLine) */;
  /** parsed --data file, other services read their own keys from it, e.g. "applies" ("jobs" and "deployments" are taken out: the scheduler state holds them) */
  data?: unknown;
  /** parsed configuration file (--config), when one was given */
  config?: unknown;
  /** Whether the durable store (--data-dir) accepts writes; absent without a data directory. */
  storeHealth?: () => StoreHealth;
}

/** The state of the durable store: not ok from a failed write until a write succeeds again. */
export interface StoreHealth {
  ok: boolean;
  /** "ok", or why the store does not accept writes (with the data directory's path) */
  message: string;
}

export const DEFAULT_OPTIONS: ServerOptions = {
  bind: "127.0.0.1",
  port: 4646,
  opsPort: 9203,
  enableDebug: false,
  mode: "server",
  gracefulShutdownWaitMs: 0,
  region: "global",
  datacenter: "dc1",
  nodeName: "filter-server",
  filterBudget: 1_000_000,
  requestBudget: 100_000_000,
  fanoutBudget: 1_000_000,
  requestTimeoutMs: 30_000,
  shutdownTimeoutMs: 10_000,
  answerBytesInFlight: 512 * 1024 * 1024,
  stallTimeoutMs: 30_000,
  apiHeaders: "svc",
};

export function newLogEvents(): EventEmitter {
  const events = new EventEmitter();
  // Any number of monitor streams may listen.
  events.setMaxListeners(0);
  return events;
}
