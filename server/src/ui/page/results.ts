/** The server's list endpoint, asked as the page's controls say, and its answer as a table. */
import type { Endpoint } from "./state.js";

export interface ListRequest {
  readonly endpoint: Endpoint;
  readonly namespace: string;
  readonly perPage: number;
  readonly filter: string;
  readonly pageToken: string;
  readonly token: string;
}

export type ListAnswer =
  | { readonly ok: true; readonly items: readonly Record<string, unknown>[]; readonly nextToken: string; readonly ms: number; readonly url: string }
  | { readonly ok: false; readonly status: number; readonly message: string; readonly ms: number; readonly url: string };

/** The URL (path and query) of a request. */
export function listUrl(r: ListRequest): string {
  const q = new URLSearchParams();
  if (r.namespace !== "" && r.namespace !== "default") q.set("namespace", r.namespace);
  if (r.filter.trim() !== "") q.set("filter", r.filter);
  if (r.perPage > 0) q.set("per_page", String(r.perPage));
  if (r.pageToken !== "") q.set("next_token", r.pageToken);
  const query = q.toString().replace(/\+/g, "%20");
  return `/v1/${r.endpoint}${query ? `?${query}` : ""}`;
}

/** Asks the server. */
export async function fetchList(r: ListRequest, signal: AbortSignal): Promise<ListAnswer> {
  const url = listUrl(r);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (r.token !== "") headers["X-Svc-Token"] = r.token;
  const start = performance.now();
  const response = await fetch(url, { headers, signal, cache: "no-store" });
  const body = await response.text();
  const ms = performance.now() - start;
  if (!response.ok) return { ok: false, status: response.status, message: body.trim() || response.statusText, ms, url };
  const items = JSON.parse(body) as Record<string, unknown>[];
  return { ok: true, items, nextToken: response.headers.get("X-Svc-Nexttoken") ?? "", ms, url };
}

/** Single-quoted for a POSIX shell. */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The same request with curl (the token as a variable, never its value). */
export function curlCommand(origin: string, r: ListRequest): string {
  const parts = ["curl -sG", shellQuote(`${origin}/v1/${r.endpoint}`)];
  if (r.namespace !== "" && r.namespace !== "default") parts.push("--data-urlencode", shellQuote(`namespace=${r.namespace}`));
  if (r.filter.trim() !== "") parts.push("--data-urlencode", shellQuote(`filter=${r.filter}`));
  if (r.perPage > 0) parts.push("--data-urlencode", shellQuote(`per_page=${r.perPage}`));
  if (r.pageToken !== "") parts.push("--data-urlencode", shellQuote(`next_token=${r.pageToken}`));
  if (r.token !== "") parts.push("-H", '"X-Svc-Token: $SVC_TOKEN"');
  return parts.join(" ");
}

const COLUMNS: Readonly<Record<Endpoint, readonly string[]>> = {
  jobs: ["ID", "Name", "Namespace", "Type", "Status", "Priority", "Datacenters"],
  deployments: ["ID", "JobID", "Namespace", "Status", "JobVersion", "StatusDescription"],
};

function cellText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (Array.isArray(v)) return v.map(cellText).join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** Fills the table with the items. */
export function renderTable(table: HTMLTableElement, endpoint: Endpoint, items: readonly Record<string, unknown>[]): void {
  const columns = COLUMNS[endpoint];
  const head = document.createElement("tr");
  for (const c of columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = c;
    head.append(th);
  }
  table.tHead!.replaceChildren(head);
  const rows = items.map((item) => {
    const tr = document.createElement("tr");
    tr.dataset.id = String(item.ID ?? "");
    tr.dataset.namespace = String(item.Namespace ?? "");
    for (const c of columns) {
      const td = document.createElement("td");
      td.textContent = cellText(item[c]);
      tr.append(td);
    }
    return tr;
  });
  table.tBodies[0]!.replaceChildren(...rows);
}
