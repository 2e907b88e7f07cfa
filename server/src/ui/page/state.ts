/**
 * The page's state, kept in the URL hash so that a link restores it: the filter, the endpoint, the
 * namespace, the page size, the page (its next-token) and whether the plan is shown. The ACL token is
 * never in the URL: it lives in session storage.
 */

/** The lists the page queries, in its menu's order. */
export const ENDPOINTS = ["jobs", "deployments", "allocations", "evaluations", "nodes"] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

export interface PageState {
  readonly filter: string;
  readonly endpoint: Endpoint;
  readonly namespace: string;
  readonly perPage: number;
  /** The token of the page shown ("" for the first page). */
  readonly pageToken: string;
  readonly plan: boolean;
}

export const DEFAULT_STATE: PageState = {
  filter: 'Status == "running" and "dc1" in Datacenters',
  endpoint: "jobs",
  namespace: "default",
  perPage: 10,
  pageToken: "",
  plan: false,
};

/** The state a hash (`#filter=...&endpoint=jobs...`) describes, defaults for what it leaves out. */
export function readHash(hash: string): PageState {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const perPage = Number(p.get("per_page"));
  const endpoint = p.get("endpoint");
  return {
    filter: p.get("filter") ?? DEFAULT_STATE.filter,
    endpoint: ENDPOINTS.includes(endpoint as Endpoint) ? (endpoint as Endpoint) : DEFAULT_STATE.endpoint,
    namespace: p.get("namespace") ?? DEFAULT_STATE.namespace,
    perPage: p.has("per_page") && Number.isInteger(perPage) && perPage >= 0 ? perPage : DEFAULT_STATE.perPage,
    pageToken: p.get("next_token") ?? "",
    plan: p.get("plan") === "1",
  };
}

/** The hash of a state. */
export function writeHash(s: PageState): string {
  const p = new URLSearchParams();
  p.set("filter", s.filter);
  p.set("endpoint", s.endpoint);
  p.set("namespace", s.namespace);
  p.set("per_page", String(s.perPage));
  if (s.pageToken !== "") p.set("next_token", s.pageToken);
  if (s.plan) p.set("plan", "1");
  return `#${p.toString()}`;
}

const TOKEN_KEY = "filter-playground.token";

/** The ACL token of this tab (session storage), or "". */
export function loadToken(): string {
  try {
    return sessionStorage.getItem(TOKEN_KEY) ?? "";
  } catch {
    return "";
  }
}

export function saveToken(token: string): void {
  try {
    if (token === "") sessionStorage.removeItem(TOKEN_KEY);
    else sessionStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Storage may be unavailable (private mode): the token then lasts as long as the page.
  }
}
