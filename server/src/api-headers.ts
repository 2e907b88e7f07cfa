/**
 * The names of the scheduler API's own headers, in the dialect the server speaks (`--api-headers`):
 * `svc`, the seed document's (`X-Svc-Index`, …, the default), or `nomad`, the scheduler's
 * (`X-Nomad-Index`, …), which its Go `api` package and its web UI read. The semantics are the same in
 * both; only the names differ. Every reader and writer of these headers asks this module, the
 * playground's page included (it has no Node imports for that reason).
 *
 * The `nomad` names are spelled as the scheduler writes them on the wire: Go's net/http canonicalises
 * `X-Nomad-LastContact` to `X-Nomad-Lastcontact` (header names are case-insensitive; clients that
 * compare them exactly see the scheduler's bytes). The gossip headers between servers
 * (`X-Svc-Gossip-*`) are not the API's and keep their names in both dialects.
 */

export const API_HEADER_DIALECTS = ["svc", "nomad"] as const;
export type ApiHeaderDialect = (typeof API_HEADER_DIALECTS)[number];

export const DEFAULT_API_HEADERS: ApiHeaderDialect = "svc";

export interface ApiHeaderNames {
  readonly dialect: ApiHeaderDialect;
  /** Response: the index of the list's table (blocking queries), of the write, of the event stream's start. */
  readonly index: string;
  /** Response: the next page's token; absent on the last page. */
  readonly nextToken: string;
  /** Response: milliseconds since the leader was last heard from (always 0 here). */
  readonly lastContact: string;
  /** Response: whether a leader is known (always true here). */
  readonly knownLeader: string;
  /** Request: the ACL token's secret (else `Authorization: Bearer`). */
  readonly token: string;
  /** Response of the event stream (an extension of this server): the indexes a resuming stream will not see. */
  readonly eventGap: string;
}

const NAMES: Readonly<Record<ApiHeaderDialect, ApiHeaderNames>> = {
  svc: {
    dialect: "svc",
    index: "X-Svc-Index",
    nextToken: "X-Svc-Nexttoken",
    lastContact: "X-Svc-LastContact",
    knownLeader: "X-Svc-KnownLeader",
    token: "X-Svc-Token",
    eventGap: "X-Svc-Event-Gap",
  },
  nomad: {
    dialect: "nomad",
    index: "X-Nomad-Index",
    nextToken: "X-Nomad-Nexttoken",
    lastContact: "X-Nomad-Lastcontact",
    knownLeader: "X-Nomad-Knownleader",
    token: "X-Nomad-Token",
    eventGap: "X-Nomad-Event-Gap",
  },
};

/** The header names of a dialect. */
export function apiHeaderNames(dialect: ApiHeaderDialect = DEFAULT_API_HEADERS): ApiHeaderNames {
  return NAMES[dialect];
}

/** The dialect the server does not speak. */
export function otherDialect(dialect: ApiHeaderDialect): ApiHeaderDialect {
  return dialect === "svc" ? "nomad" : "svc";
}

/** `svc` or `nomad`, else undefined. */
export function parseApiHeaderDialect(text: string): ApiHeaderDialect | undefined {
  return API_HEADER_DIALECTS.find((d) => d === text);
}

/** The `<meta name>` through which the playground's page learns the server's dialect. */
export const DIALECT_META_NAME = "filter-server-api-headers";
