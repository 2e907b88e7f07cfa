import { parseDuration } from "../ops/duration.js";
import { BadRequest } from "../lists/errors.js";
import { tokenFromRequest } from "./tokens.js";


export type Query = Record<string, string | string[] | undefined>;

// The query string itself is read as Go's url.ParseQuery reads it (go-query.ts).
export { parseGoQuery, queryUnescape } from "./go-query.js";

/** First value of a query parameter (a repeated parameter counts by its first value). */
export function param(query: Query, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

export const DEFAULT_WAIT_MS = 5 * 60_000;
export const MAX_WAIT_MS = 10 * 60_000;

/** The request conventions of the scheduler's list endpoints. */
export interface ListQuery {
  region?: string;
  stale: boolean;
  prefix: string;
  namespace: string;
  /** 0: no limit. */
  perPage: number;
  /** The token `next_token` names (`tokenFromRequest`). */
  nextToken: string;
  filter: string;
  reverse: boolean;
  /** 0: not a blocking query. */
  index: number;
  /** Maximum blocking time before jitter, already defaulted and capped. */
  waitMs: number;
  pretty: boolean;
}

const BOOLS: Record<string, boolean> = { "1": true, t: true, T: true, TRUE: true, true: true, True: true, "0": false, f: false, F: false, FALSE: false, false: false, False: false };

/** Go's strconv.ParseBool. */
export function parseBool(text: string): boolean | undefined {
  return BOOLS[text];
}

/** `?pretty`, `?pretty=1`, `?pretty=false` are pretty; `?pretty=0` and no parameter are not. */
export function isPretty(query: Query): boolean {
  const value = param(query, "pretty");
  return value !== undefined && value !== "0";
}

/** Parses the parameters in the scheduler's order; the first bad one is a 400. */
export function parseListQuery(query: Query): ListQuery {
  const region = param(query, "region");
  let stale = false;
  const staleText = param(query, "stale");
  if (staleText !== undefined) {
    const value = staleText === "" ? true : parseBool(staleText);
    if (value === undefined) throw new BadRequest("Expect `true` or `false` for `stale` query string parameter");
    stale = value;
  }
  const prefix = param(query, "prefix") ?? "";
  const namespace = param(query, "namespace") || "default";
  let perPage = 0;
  const perPageText = param(query, "per_page");
  if (perPageText !== undefined) {
    if (!/^[+-]?\d+$/.test(perPageText) || Math.abs(Number(perPageText)) > 2 ** 31 - 1) {
      throw new BadRequest("Expect a number for `per_page` query string parameter");
    }
    perPage = Number(perPageText);
    if (perPage < 0) throw new BadRequest("`per_page` must be a positive integer");
  }
  // The header's token, read back as a UTF-8 or a latin1 client read it (see tokens.ts).
  const nextToken = tokenFromRequest(param(query, "next_token") ?? "");
  const filter = param(query, "filter") ?? "";
  const reverse = param(query, "reverse") === "true";

  let waitMs = 0;
  const waitText = param(query, "wait");
  if (waitText !== undefined) {
    const ms = parseDuration(waitText);
    if (ms === undefined) throw new BadRequest("Invalid wait time");
    waitMs = ms;
  }
  let index = 0;
  const indexText = param(query, "index");
  if (indexText !== undefined) {
    if (!/^\d+$/.test(indexText) || BigInt(indexText) > 2n ** 64n - 1n) throw new BadRequest("Invalid index");
    index = Number(indexText);
  }
  if (waitMs <= 0) waitMs = DEFAULT_WAIT_MS;
  waitMs = Math.min(waitMs, MAX_WAIT_MS);
  const result: ListQuery = { stale, prefix, namespace, perPage, nextToken, filter, reverse, index, waitMs, pretty: isPretty(query) };
  if (region !== undefined && region !== "") result.region = region;
  return result;
}

/** Maximum blocking time plus the scheduler's jitter: a random extra of up to wait/16. */
export function withJitter(waitMs: number, random: () => number = Math.random): number {
  return waitMs + Math.floor(random() * (waitMs / 16));
}
