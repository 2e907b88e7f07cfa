import { parseArgs } from "node:util";
import { DEFAULT_OPTIONS } from "./context.js";
import type { ServerOptions } from "./context.js";
import { parseDuration } from "./ops/duration.js";
import { GossipKeyError, parseGossipKey } from "./agent/gossip/auth.js";
import { parseApiHeaderDialect } from "./api-headers.js";

export const USAGE = `Usage: filter-server [options]

Reference server for the scheduler's HTTP API (GET/PUT /v1/jobs, GET /v1/deployments, /v1/agent/*),
the apply resource (/api/v2/applies/*) and an ops listener with GET /health.

Options:
  --bind ADDR                      address of both listeners (default 127.0.0.1)
  --port PORT                      API listener port (default 4646; 0 picks a free port)
  --ops-port PORT                  ops listener port, serves GET /health (default 9203; 0 picks a free port)
  --data FILE                      load {"jobs": [...], "deployments": [...], "applies": [...]} instead of the demo set
  --acl-tokens FILE                turn ACLs on: JSON array of {"SecretID", "Name"?, "Management"?, "Capabilities": [...]}
  --enable-debug                   enable_debug: profiling endpoints without ACLs
  --data-dir DIR                   keep the state across restarts in an embedded database in DIR
  --database URL                   keep jobs and deployments in PostgreSQL (postgres://USER@HOST:PORT/DB);
                                   several servers may share one database (see docs/server.md)
  --mode server|client             agent mode (default server)
  --graceful-shutdown-wait DUR     on SIGTERM/SIGINT answer 503 on /health for DUR (e.g. 5s) before shutting down
  --config FILE                    configuration file (HCL, or JSON of the same shape; see docs/server.md)
  --region NAME                    this server's region (default global)
  --datacenter NAME                this server's datacenter (default dc1)
  --node-name NAME                 this agent's node name (default filter-server)
  --log-level LEVEL                trace, debug, info, warn or error (default info)
  --filter-budget STEPS            evaluation steps a list request's filter may spend on one item, one per
                                   match test and per element of any/all (default 1000000); past it: 400
  --request-budget STEPS           evaluation steps a list request's filter may spend over all the items it reads
                                   (default 100000000); past it: 400
  --fanout-budget STEPS            evaluation steps one event may cost across all event streams' filters (each gets
                                   STEPS / --event-streams), and one changed item across the filters of waiting
                                   blocking queries of --blocking-queries page (default 1000000)
  --filter-order acl-first|nomad   the ACL check before the filter (default: the filter never sees what the
                                   token may not read), or after it as the scheduler does (leaks through errors)
  --blocking-queries index|page    a list's blocking query answers after any write to its table (default, as the
                                   scheduler), or only once a write changes its page (filter, ACL, pagination)
  --api-headers svc|nomad          names of the API's headers: the seed's X-Svc-Index, X-Svc-Nexttoken, X-Svc-Token,
                                   … (default), or the scheduler's X-Nomad-Index, X-Nomad-Nexttoken, X-Nomad-Token, …
                                   (its Go api package and web UI read them); the other dialect's token header is a 400
  --request-timeout DUR            longest time to receive a whole request, headers and body (default 30s)
  --shutdown-timeout DUR           on shutdown, close connections still open after DUR (default 10s)
  --answer-memory SIZE             bytes of list answers being encoded or sent at once (default 512MiB; also
                                   KiB, GiB or plain bytes); past it a new list request is 503 with Retry-After
  --stall-timeout DUR              close a connection whose response makes no write progress for DUR, a client
                                   that does not read (default 30s; 0: never)
  --event-buffer N                 events GET /v1/event/stream keeps for resuming with index (default 4096)
  --event-heartbeat DUR            a quiet event stream gets a {} heartbeat every DUR (default 10s)
  --event-streams N                event streams open at once; past it a new one is 503 (default 256)
  --event-streams-per-client N     event streams one client (its ACL token, else its address) may hold open; past
                                   it a new one is 429 (default 64; 0: no bound)
  --blocking-queries-per-client N  blocking queries one client may have waiting; past it 429 (default 512; 0: none)
  --event-stream-memory SIZE       bytes an event stream's connection may hold unsent before it is cut
                                   (default 1MiB)
  --encrypt KEY                    gossip key shared by the servers (base64 of 16, 24 or 32 bytes; also
                                   FILTER_SERVER_ENCRYPT); without one a random key is made at start
  -h, --help                       print this help and exit
  -v, --version                    print the version and exit
`;

export class UsageError extends Error {}

export interface ParsedCommandLine {
  help: boolean;
  version: boolean;
  /** Only the options given on the command line (they override the configuration file). */
  given: Partial<ServerOptions>;
}

function port(name: string, text: string): number {
  if (!/^\d+$/.test(text) || Number(text) > 65535) throw new UsageError(`--${name}: expected a port number 0-65535, got "${text}"`);
  return Number(text);
}

const LOG_LEVELS = ["trace", "debug", "info", "warn", "error"] as const;

export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        bind: { type: "string" },
        port: { type: "string" },
        "ops-port": { type: "string" },
        data: { type: "string" },
        "acl-tokens": { type: "string" },
        "enable-debug": { type: "boolean" },
        "data-dir": { type: "string" },
        database: { type: "string" },
        mode: { type: "string" },
        "graceful-shutdown-wait": { type: "string" },
        config: { type: "string" },
        region: { type: "string" },
        datacenter: { type: "string" },
        "node-name": { type: "string" },
        "log-level": { type: "string" },
        "filter-budget": { type: "string" },
        "request-budget": { type: "string" },
        "fanout-budget": { type: "string" },
        "event-streams-per-client": { type: "string" },
        "blocking-queries-per-client": { type: "string" },
        "request-timeout": { type: "string" },
        "shutdown-timeout": { type: "string" },
        "answer-memory": { type: "string" },
        "filter-order": { type: "string" },
        "blocking-queries": { type: "string" },
        "api-headers": { type: "string" },
        "stall-timeout": { type: "string" },
        "event-buffer": { type: "string" },
        "event-heartbeat": { type: "string" },
        "event-streams": { type: "string" },
        "event-stream-memory": { type: "string" },
        encrypt: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const v = parsed.values;
  const given: Partial<ServerOptions> = {};
  if (v.bind !== undefined) given.bind = v.bind;
  if (v.port !== undefined) given.port = port("port", v.port);
  if (v["ops-port"] !== undefined) given.opsPort = port("ops-port", v["ops-port"]);
  if (v.data !== undefined) given.dataFile = v.data;
  if (v["acl-tokens"] !== undefined) given.aclTokensFile = v["acl-tokens"];
  if (v["enable-debug"] !== undefined) given.enableDebug = v["enable-debug"];
  if (v["data-dir"] !== undefined) given.dataDir = v["data-dir"];
  if (v.database !== undefined) {
    if (!/^postgres(ql)?:\/\//.test(v.database)) throw new UsageError(`--database: expected a postgres:// URL, got "${v.database}"`);
    given.database = v.database;
  }
  if (v.mode !== undefined) {
    if (v.mode !== "server" && v.mode !== "client") throw new UsageError(`--mode: expected server or client, got "${v.mode}"`);
    given.mode = v.mode;
  }
  if (v["graceful-shutdown-wait"] !== undefined) {
    const ms = parseDuration(v["graceful-shutdown-wait"]);
    if (ms === undefined || ms < 0) {
      throw new UsageError(`--graceful-shutdown-wait: expected a duration such as 5s or 1m30s, got "${v["graceful-shutdown-wait"]}"`);
    }
    given.gracefulShutdownWaitMs = ms;
  }
  if (v.config !== undefined) given.configFile = v.config;
  if (v.region !== undefined) given.region = v.region;
  if (v.datacenter !== undefined) given.datacenter = v.datacenter;
  if (v["node-name"] !== undefined) given.nodeName = v["node-name"];
  if (v["log-level"] !== undefined) {
    const level = LOG_LEVELS.find((l) => l === v["log-level"]);
    if (level === undefined) throw new UsageError(`--log-level: expected one of ${LOG_LEVELS.join(", ")}`);
    given.logLevel = level;
  }
  if (v.encrypt !== undefined) given.gossipKey = gossipKey("--encrypt", v.encrypt);
  for (const [flag, key] of [["filter-budget", "filterBudget"], ["request-budget", "requestBudget"], ["fanout-budget", "fanoutBudget"]] as const) {
    const text = v[flag];
    if (text === undefined) continue;
    if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) throw new UsageError(`--${flag}: expected a positive number of steps, got "${text}"`);
    given[key] = Number(text);
  }
  for (const [flag, key] of [["event-streams-per-client", "eventStreamsPerClient"], ["blocking-queries-per-client", "blockingQueriesPerClient"]] as const) {
    const text = v[flag];
    if (text === undefined) continue;
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) throw new UsageError(`--${flag}: expected a number (0: no bound), got "${text}"`);
    given[key] = Number(text);
  }
  if (v["filter-order"] !== undefined) {
    const order = v["filter-order"];
    if (order !== "acl-first" && order !== "nomad") throw new UsageError(`--filter-order: expected acl-first or nomad, got "${order}"`);
    given.filterOrder = order;
  }
  if (v["blocking-queries"] !== undefined) {
    const mode = v["blocking-queries"];
    if (mode !== "index" && mode !== "page") throw new UsageError(`--blocking-queries: expected index or page, got "${mode}"`);
    given.blockingQueries = mode;
  }
  if (v["api-headers"] !== undefined) {
    const dialect = parseApiHeaderDialect(v["api-headers"]);
    if (dialect === undefined) throw new UsageError(`--api-headers: expected svc or nomad, got "${v["api-headers"]}"`);
    given.apiHeaders = dialect;
  }
  if (v["answer-memory"] !== undefined) {
    const bytes = parseSize(v["answer-memory"]);
    if (bytes === undefined || bytes < 1) throw new UsageError(`--answer-memory: expected a size such as 512MiB or 64KiB, got "${v["answer-memory"]}"`);
    given.answerBytesInFlight = bytes;
  }
  for (const [flag, key] of [["event-buffer", "eventBuffer"], ["event-streams", "eventStreams"]] as const) {
    const text = v[flag];
    if (text === undefined) continue;
    if (!/^\d+$/.test(text) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) throw new UsageError(`--${flag}: expected a positive number, got "${text}"`);
    given[key] = Number(text);
  }
  if (v["event-heartbeat"] !== undefined) {
    const ms = parseDuration(v["event-heartbeat"]);
    if (ms === undefined || ms <= 0) throw new UsageError(`--event-heartbeat: expected a positive duration such as 10s or 500ms, got "${v["event-heartbeat"]}"`);
    given.eventHeartbeatMs = ms;
  }
  if (v["event-stream-memory"] !== undefined) {
    const bytes = parseSize(v["event-stream-memory"]);
    if (bytes === undefined || bytes < 1) throw new UsageError(`--event-stream-memory: expected a size such as 1MiB or 256KiB, got "${v["event-stream-memory"]}"`);
    given.eventStreamBytes = bytes;
  }
  for (const [flag, key] of [["request-timeout", "requestTimeoutMs"], ["shutdown-timeout", "shutdownTimeoutMs"], ["stall-timeout", "stallTimeoutMs"]] as const) {
    const text = v[flag];
    if (text === undefined) continue;
    const ms = parseDuration(text);
    if (ms === undefined || ms < 0) throw new UsageError(`--${flag}: expected a duration such as 30s or 500ms, got "${text}"`);
    given[key] = ms;
  }
  return { help: v.help === true, version: v.version === true, given };
}

const SIZE_UNITS = new Map([["", 1], ["b", 1], ["kib", 2 ** 10], ["mib", 2 ** 20], ["gib", 2 ** 30]]);

/** A size in bytes: `512MiB`, `64KiB`, `1GiB`, `1048576` or `100B` (units in any case); undefined when it is not one. */
export function parseSize(text: string): number | undefined {
  const m = /^(\d+)\s*([a-zA-Z]*)$/.exec(text.trim());
  const unit = m === null ? undefined : SIZE_UNITS.get((m[2] as string).toLowerCase());
  if (m === null || unit === undefined) return undefined;
  const bytes = Number(m[1]) * unit;
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

function gossipKey(where: string, text: string): string {
  try {
    parseGossipKey(text);
  } catch (e) {
    if (e instanceof GossipKeyError) throw new UsageError(`${where}: ${e.message}`);
    throw e;
  }
  return text.trim();
}

/** Defaults, then the environment (FILTER_SERVER_ENCRYPT), then the configuration file, then the command line. */
export function resolveOptions(given: Partial<ServerOptions>, fromConfig: Partial<ServerOptions> = {}, env: NodeJS.ProcessEnv = process.env): ServerOptions {
  const fromEnv: Partial<ServerOptions> = {};
  const envKey = env["FILTER_SERVER_ENCRYPT"];
  if (envKey !== undefined && envKey !== "") fromEnv.gossipKey = gossipKey("FILTER_SERVER_ENCRYPT", envKey);
  return { ...DEFAULT_OPTIONS, ...fromEnv, ...fromConfig, ...given };
}
