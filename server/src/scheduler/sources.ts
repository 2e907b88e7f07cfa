import type { ListEndpoint } from "./list.js";
import type { PageSource } from "./paginate.js";
import { compareStrings, createIndexTokenComparator } from "./paginate.js";
import type { ListQuery } from "./query.js";
import { BadRequest } from "./query.js";
import type { SchedulerState } from "./state.js";
import type { Deployment, JobListEntry } from "./types.js";

const jobToken = (job: JobListEntry): string => `${job.Namespace}.${job.ID}`;

/**
 * Jobs in (Namespace, ID) order; a namespace's jobs (optionally with an ID prefix) are a contiguous
 * range. Tokens are "Namespace.ID".
 */
export const jobsEndpoint: ListEndpoint<JobListEntry> = {
  table: "jobs",
  schema: "job",
  namespaceOf: (job) => job.Namespace,
  source(state: SchedulerState, query: ListQuery): PageSource<JobListEntry> {
    const items = state.jobs;
    if (query.namespace !== "*") {
      const [lo, hi] = state.jobRange(query.namespace, query.prefix);
      return { items, lo, hi, reverse: query.reverse, token: jobToken, compare: compareStrings, monotonic: true };
    }
    const prefix = query.prefix;
    const source: PageSource<JobListEntry> = {
      items,
      lo: 0,
      hi: items.length,
      reverse: query.reverse,
      token: jobToken,
      compare: compareStrings,
      monotonic: state.jobTokensMonotonic,
    };
    if (prefix !== "") source.member = (job) => job.ID.startsWith(prefix);
    return source;
  },
};

/** The UUID index's rules for a partial ID: hex digits in pairs, at most 36 characters and 4 hyphens. */
export function checkUuidPrefix(prefix: string): void {
  const hex = prefix.replaceAll("-", "");
  if (prefix.length > 36 || prefix.length - hex.length > 4) throw new BadRequest("index error: Invalid UUID length");
  if (hex.length % 2 !== 0) throw new BadRequest("index error: Input (without hyphens) must be even length");
  const bad = /[^0-9a-fA-F]/.exec(hex);
  if (bad !== null) {
    const code = (bad[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0");
    throw new BadRequest(`index error: Invalid UUID: encoding/hex: invalid byte: U+${code} '${bad[0]}'`);
  }
}

let byIdCache: { state: SchedulerState; index: number; items: Deployment[] } | undefined;

function deploymentsById(state: SchedulerState): Deployment[] {
  const index = state.indexOf("deployments");
  if (byIdCache?.state !== state || byIdCache.index !== index) {
    const items = [...state.deployments].sort((a, b) => compareStrings(a.ID.toLowerCase(), b.ID.toLowerCase()));
    byIdCache = { state, index, items };
  }
  return byIdCache.items;
}

/**
 * Deployments in (CreateIndex, ID) order with tokens "CreateIndex.ID"; with `prefix`, in ID order with
 * the ID as token. A namespace other than `*` keeps only that namespace's deployments.
 */
export const deploymentsEndpoint: ListEndpoint<Deployment> = {
  table: "deployments",
  schema: "deployment",
  namespaceOf: (d) => d.Namespace,
  source(state: SchedulerState, query: ListQuery): PageSource<Deployment> {
    const namespace = query.namespace;
    const member = namespace === "*" ? undefined : (d: Deployment) => d.Namespace === namespace;
    let source: PageSource<Deployment>;
    if (query.prefix !== "") {
      checkUuidPrefix(query.prefix);
      const all = deploymentsById(state);
      const prefix = query.prefix.toLowerCase();
      const lo = all.findIndex((d) => d.ID.toLowerCase() >= prefix);
      let hi = lo < 0 ? 0 : lo;
      while (hi < all.length && (all[hi] as Deployment).ID.toLowerCase().startsWith(prefix)) hi++;
      source = { items: all, lo: lo < 0 ? 0 : lo, hi, reverse: query.reverse, token: (d) => d.ID, compare: compareStrings, monotonic: true };
    } else {
      const { compare, numeric } = createIndexTokenComparator(query.nextToken);
      source = {
        items: state.deployments,
        lo: 0,
        hi: state.deployments.length,
        reverse: query.reverse,
        token: (d) => `${d.CreateIndex}.${d.ID}`,
        compare,
        monotonic: numeric,
      };
    }
    if (member !== undefined) source.member = member;
    return source;
  },
};
