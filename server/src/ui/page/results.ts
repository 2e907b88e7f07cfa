/** The server's list endpoint, asked as the page's controls say, and its answer as a table. */
import { leafReading, type Explanation } from "filter-expr";
import type { Endpoint } from "./state.js";
import { apiHeaderNames, DIALECT_META_NAME, parseApiHeaderDialect, type ApiHeaderNames } from "../../api-headers.js";

/**
 * The names of the server's headers (its `--api-headers`), as the server wrote them into the page's
 * `<meta name="filter-server-api-headers">` (server/src/ui/index.ts); the seed's when it says nothing.
 */
export function pageHeaderNames(doc: Document = document): ApiHeaderNames {
  const content = doc.querySelector<HTMLMetaElement>(`meta[name="${DIALECT_META_NAME}"]`)?.content ?? "";
  return apiHeaderNames(parseApiHeaderDialect(content));
}

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

/** Asks the server, whose headers are named `names`. */
export async function fetchList(r: ListRequest, signal: AbortSignal, names: ApiHeaderNames): Promise<ListAnswer> {
  const url = listUrl(r);
  const headers: Record<string, string> = { Accept: "application/json" };
  if (r.token !== "") headers[names.token] = r.token;
  const start = performance.now();
  const response = await fetch(url, { headers, signal, cache: "no-store" });
  const body = await response.text();
  const ms = performance.now() - start;
  if (!response.ok) return { ok: false, status: response.status, message: body.trim() || response.statusText, ms, url };
  const items = JSON.parse(body) as Record<string, unknown>[];
  return { ok: true, items, nextToken: response.headers.get(names.nextToken) ?? "", ms, url };
}

/** Single-quoted for a POSIX shell. */
function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The same request with curl (the token as a variable, never its value: $SVC_TOKEN, or $NOMAD_TOKEN as the scheduler's CLI names it). */
export function curlCommand(origin: string, r: ListRequest, names: ApiHeaderNames): string {
  const parts = ["curl -sG", shellQuote(`${origin}/v1/${r.endpoint}`)];
  if (r.namespace !== "" && r.namespace !== "default") parts.push("--data-urlencode", shellQuote(`namespace=${r.namespace}`));
  if (r.filter.trim() !== "") parts.push("--data-urlencode", shellQuote(`filter=${r.filter}`));
  if (r.perPage > 0) parts.push("--data-urlencode", shellQuote(`per_page=${r.perPage}`));
  if (r.pageToken !== "") parts.push("--data-urlencode", shellQuote(`next_token=${r.pageToken}`));
  if (r.token !== "") parts.push("-H", `"${names.token}: $${names.dialect === "nomad" ? "NOMAD_TOKEN" : "SVC_TOKEN"}"`);
  return parts.join(" ");
}

const COLUMNS: Readonly<Record<Endpoint, readonly string[]>> = {
  jobs: ["ID", "Name", "Namespace", "Type", "Status", "Priority", "Datacenters"],
  deployments: ["ID", "JobID", "Namespace", "Status", "JobVersion", "StatusDescription"],
  allocations: ["ID", "Name", "Namespace", "NodeName", "ClientStatus", "DesiredStatus"],
  evaluations: ["ID", "JobID", "Namespace", "Type", "TriggeredBy", "Status"],
  nodes: ["ID", "Name", "Datacenter", "NodeClass", "Status", "SchedulingEligibility", "Drain"],
};

function cellText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (Array.isArray(v)) return v.map(cellText).join(", ");
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** A column the filter reads: its selector as written, and the keys that reach its value. */
export interface ReadColumn {
  readonly label: string;
  readonly keys: readonly string[];
}

/** The value at `keys` in `item` (own properties only), or undefined. */
function valueAt(item: unknown, keys: readonly string[]): unknown {
  let v = item;
  for (const k of keys) {
    if (v === null || typeof v !== "object" || !Object.prototype.hasOwnProperty.call(v, k)) return undefined;
    v = (v as Record<string, unknown>)[k];
  }
  return v;
}

/** Why an item matched or not: a caption, then each deciding part of the filter, its outcome and the value it read. */
function whyList(x: Explanation, filter: string): HTMLElement[] {
  const caption = document.createElement("p");
  caption.className = "why-caption";
  caption.textContent = x.result === true ? "Why it matched:" : x.result === false ? "Why it did not match:" : `The filter fails on it: ${x.result.message}`;
  const list = document.createElement("ul");
  list.className = "why";
  for (const leaf of x.witness) {
    const li = document.createElement("li");
    const code = document.createElement("code");
    code.textContent = filter.slice(leaf.span.start, leaf.span.end);
    const outcome = document.createElement("span");
    outcome.className = `outcome ${String(leaf.outcome)}`;
    outcome.textContent = String(leaf.outcome);
    const read = leafReading(leaf);
    li.append(code, " ", outcome, read === "" ? "" : `: ${read}`);
    list.append(li);
  }
  return [caption, list];
}

/** A column of its own before the item's (the part of the filter a near miss fails). */
export interface NoteColumn {
  readonly label: string;
  readonly text: (row: number) => string;
}

/**
 * Fills the table with the items: the note's column if any, the endpoint's columns, then one for each
 * selector the filter reads that is not one of them (`JobSummary.Summary["web"].Running`). A row opens
 * (click, Enter or Space) to why it matched or not (`explain`: the parts of the filter that decided it
 * and what they read) and the item's JSON, in a row below it.
 */
export function renderTable(
  table: HTMLTableElement,
  endpoint: Endpoint,
  items: readonly Record<string, unknown>[],
  read: readonly ReadColumn[] = [],
  why?: { readonly filter: string; readonly explain: (item: unknown) => Explanation },
  note?: NoteColumn,
): void {
  const fixed = COLUMNS[endpoint];
  const columns: ReadColumn[] = [...fixed.map((c) => ({ label: c, keys: [c] })), ...read.filter((r) => !(r.keys.length === 1 && fixed.includes(r.keys[0]!)))];
  const head = document.createElement("tr");
  if (note !== undefined) {
    const th = document.createElement("th");
    th.scope = "col";
    th.className = "note";
    th.textContent = note.label;
    head.append(th);
  }
  for (const c of columns) {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = c.label;
    if (!fixed.includes(c.label)) th.className = "read";
    head.append(th);
  }
  table.tHead!.replaceChildren(head);
  const rows = items.map((item, row) => {
    const tr = document.createElement("tr");
    tr.className = "item";
    tr.tabIndex = 0;
    tr.setAttribute("aria-expanded", "false");
    tr.dataset.id = String(item.ID ?? "");
    tr.dataset.namespace = String(item.Namespace ?? "");
    if (note !== undefined) {
      const td = document.createElement("td");
      td.className = "note";
      const code = document.createElement("code");
      code.textContent = note.text(row);
      td.append(code);
      tr.append(td);
    }
    for (const c of columns) {
      const td = document.createElement("td");
      td.textContent = cellText(valueAt(item, c.keys));
      tr.append(td);
    }
    const toggle = () => {
      const open = tr.nextElementSibling?.classList.contains("item-json") === true;
      tr.setAttribute("aria-expanded", String(!open));
      if (open) {
        tr.nextElementSibling!.remove();
        return;
      }
      const detail = document.createElement("tr");
      detail.className = "item-json";
      const td = document.createElement("td");
      td.colSpan = columns.length + (note === undefined ? 0 : 1);
      const pre = document.createElement("pre");
      pre.textContent = JSON.stringify(item, null, 2);
      if (why !== undefined) td.append(...whyList(why.explain(item), why.filter));
      td.append(pre);
      detail.append(td);
      tr.after(detail);
    };
    tr.addEventListener("click", toggle);
    tr.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        toggle();
      }
    });
    return tr;
  });
  table.tBodies[0]!.replaceChildren(...rows);
}
