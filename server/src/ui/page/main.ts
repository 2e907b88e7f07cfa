/**
 * The playground page: the editor, the controls, live results from the server's list endpoint with a
 * few near misses, the curl command and the plan; its state in the URL hash.
 */
import { compile, diagnose, lineColumn, nearMissFilters, parse, schemas, selectorsRead, type Diagnostic, type Expr, type Explanation, type NearMissFilter, type Schema } from "filter-expr";
import { refreshFilter } from "filter-expr-codemirror";
import type { EditorView } from "@codemirror/view";
import { applyFixTo, createEditor } from "./editor.js";
import { curlCommand, fetchList, listUrl, pageHeaderNames, renderTable, type ListRequest, type ReadColumn } from "./results.js";
import { loadToken, readHash, saveToken, writeHash, type Endpoint, type PageState } from "./state.js";
import "./style.css";

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

const endpointInput = $<HTMLSelectElement>("endpoint");
const namespaceInput = $<HTMLInputElement>("namespace");
const perPageInput = $<HTMLInputElement>("per-page");
const tokenInput = $<HTMLInputElement>("token");
const diagnosticsList = $<HTMLUListElement>("diagnostics");
const results = $<HTMLElement>("results");
const status = $<HTMLDivElement>("status");
const curl = $<HTMLPreElement>("curl");
const plan = $<HTMLPreElement>("plan");
const table = $<HTMLTableElement>("items");
const near = $<HTMLElement>("near");
const nearTable = $<HTMLTableElement>("near-items");
const nextButton = $<HTMLButtonElement>("next-page");
const firstButton = $<HTMLButtonElement>("first-page");
const planButton = $<HTMLButtonElement>("show-plan");
const copyButton = $<HTMLButtonElement>("copy-curl");
const examplesInput = $<HTMLSelectElement>("examples");

/** Filters to start from, per endpoint (each one valid against its schema: the browser test runs them). */
export const EXAMPLES: Readonly<Record<Endpoint, readonly (readonly [label: string, filter: string])[]>> = {
  jobs: [
    ["running in dc1", 'Status == "running" and "dc1" in Datacenters'],
    ["names like web-1", 'Name matches "^web-[0-9]+$"'],
    ["a task group named web", '"web" in JobSummary.Summary'],
    ["web running 3 allocations", '"web" in JobSummary.Summary and JobSummary.Summary["web"].Running == 3'],
    ["batch, not stopped", "Type == batch and Stop == false"],
    ["children of periodic and parameterized jobs", "ParentID is not empty"],
  ],
  deployments: [
    ["failed", 'Status == "failed"'],
    ["a group with unhealthy allocations", "any TaskGroups as _, g { g.UnhealthyAllocs != 0 }"],
    ["canaries not promoted", 'any TaskGroups as name, g { g.DesiredCanaries != 0 and g.Promoted == false }'],
  ],
  allocations: [
    ["running", 'ClientStatus == "running"'],
    ["failed or lost", 'ClientStatus == "failed" or ClientStatus == "lost"'],
    ["a task that restarted", "any TaskStates as _, task { task.Restarts != 0 }"],
    ["rescheduled", "RescheduleTracker is not nil"],
    ["healthy in its deployment", "DeploymentStatus is not nil and DeploymentStatus.Healthy == true"],
    ["on the nodes of dc1", 'NodeName matches "^client-dc1-"'],
  ],
  evaluations: [
    ["blocked", 'Status == "blocked"'],
    ["triggered by a registration", 'TriggeredBy == "job-register"'],
    ["with failed placements", "FailedTGAllocs is not empty"],
    ["allocations still queued", "any QueuedAllocations as _, n { n != 0 }"],
  ],
  nodes: [
    ["ready and eligible", 'Status == "ready" and SchedulingEligibility == "eligible"'],
    ["draining", "Drain == true"],
    ["docker healthy", '"docker" in Drivers and Drivers["docker"].Healthy == true'],
    ["linux on amd64", 'Attributes["kernel.name"] == "linux" and Attributes["cpu.arch"] == "amd64"'],
  ],
};

let state: PageState = readHash(location.hash);
let diagnostics: readonly Diagnostic[] = [];
let nextToken = "";
/** The server's header names (its --api-headers), as it told the page. */
const headerNames = pageHeaderNames();
let writtenHash = "";
let inflight: AbortController | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

/** The schema of each list's records (the server compiles its filters with the same). */
const SCHEMAS: Readonly<Record<Endpoint, Schema>> = { jobs: schemas.job, deployments: schemas.deployment, allocations: schemas.allocation, evaluations: schemas.evaluation, nodes: schemas.node };
const schemaOf = (endpoint: Endpoint): Schema => SCHEMAS[endpoint];

function setControls(s: PageState): void {
  endpointInput.value = s.endpoint;
  namespaceInput.value = s.namespace;
  perPageInput.value = String(s.perPage);
}

setControls(state);
renderExamples();
tokenInput.value = loadToken();

const view: EditorView = createEditor({
  parent: $("editor"),
  doc: state.filter,
  schema: () => schemaOf(state.endpoint),
  onChange: (text, found) => {
    diagnostics = found;
    update({ filter: text, pageToken: "" });
  },
  onRun: () => run(),
});

/** Changes the state: the hash, the diagnostics, the plan, and a new request shortly. */
function update(change: Partial<PageState>, delay = 200): void {
  state = { ...state, ...change };
  writtenHash = writeHash(state);
  if (location.hash !== writtenHash) history.replaceState(null, "", writtenHash);
  renderDiagnostics();
  renderPlan();
  schedule(delay);
}

function schedule(delay: number): void {
  clearTimeout(timer);
  results.dataset.state = "pending";
  timer = setTimeout(run, delay);
}

function request(): ListRequest {
  return { endpoint: state.endpoint, namespace: state.namespace, perPage: state.perPage, filter: state.filter, pageToken: state.pageToken, token: tokenInput.value };
}

function errors(): readonly Diagnostic[] {
  return diagnostics.filter((d) => d.severity === "error");
}

/** Asks the server for the page the state names (unless the filter has errors). */
async function run(): Promise<void> {
  clearTimeout(timer);
  inflight?.abort();
  const r = request();
  curl.textContent = curlCommand(location.origin, r, headerNames);
  curl.dataset.url = listUrl(r);
  if (errors().length > 0) {
    // The rows on the page answered another filter: they go.
    results.dataset.state = "invalid";
    status.textContent = "The filter has errors: fix them to run it (Ctrl+. applies the first fix, as the Fix buttons do).";
    renderTable(table, r.endpoint, []);
    clearNearMisses();
    nextButton.disabled = true;
    return;
  }
  const controller = new AbortController();
  inflight = controller;
  results.dataset.state = "loading";
  try {
    const answer = await fetchList(r, controller.signal, headerNames);
    if (controller.signal.aborted) return;
    status.replaceChildren();
    if (!answer.ok) {
      results.dataset.state = "error";
      status.append(span("error", `${answer.status}: ${answer.message}`), ` · ${answer.ms.toFixed(1)} ms`);
      renderTable(table, r.endpoint, []);
      clearNearMisses();
      nextToken = "";
    } else {
      results.dataset.state = "done";
      nextToken = answer.nextToken;
      // The columns and the explanations serve the near misses too.
      const read = readColumns(r.filter);
      const why = whyOf(r.filter, r.endpoint);
      renderTable(table, r.endpoint, answer.items, read, why);
      const count = span("", String(answer.items.length), "count");
      const time = span("", `${answer.ms.toFixed(1)} ms`, "elapsed");
      const token = document.createElement("code");
      token.id = "next-token";
      token.textContent = nextToken;
      status.append(count, ` matching item${answer.items.length === 1 ? "" : "s"} on this page${r.pageToken ? " (not the first)" : ""} · `, time, " · ");
      if (nextToken) status.append("next token ", token);
      else status.append("last page");
      if (why === undefined) clearNearMisses();
      else void renderNearMisses(r, read, why, controller.signal);
    }
    nextButton.disabled = nextToken === "";
    firstButton.disabled = state.pageToken === "";
  } catch (e) {
    if ((e as Error).name === "AbortError") return;
    results.dataset.state = "error";
    status.replaceChildren(span("error", `request failed: ${(e as Error).message}`));
  }
}

/**
 * The selectors the filter reads from the item (not those of names bound by any/all), as columns:
 * each labelled as written, read by its keys.
 */
function readColumns(filter: string): ReadColumn[] {
  if (filter.trim() === "") return [];
  let ast: Expr;
  try {
    ast = parse(filter);
  } catch {
    return [];
  }
  const out = new Map<string, ReadColumn>();
  for (const { selector } of selectorsRead(ast)) {
    const keys = selector.segments.map((s) => s.name);
    const id = keys.join("\u0000");
    if (keys.length > 0 && !out.has(id)) out.set(id, { label: filter.slice(selector.span.start, selector.span.end), keys });
  }
  return [...out.values()];
}

/** Near misses shown at most; asked of the server for each part of the filter, for its first parts. */
const NEAR_MISSES = 5;
const NEAR_MISSES_PER_PART = 2;
const NEAR_MISS_PARTS = 8;

/**
 * A few items that fail one part of the filter and pass the others (`nearMissFilters`), asked of the
 * server as the page's request is (namespace, token), each row opening to why it did not match.
 * A part whose request fails (a later part erring on an item the filter stops before) shows none.
 */
async function renderNearMisses(r: ListRequest, read: readonly ReadColumn[], why: Why, signal: AbortSignal): Promise<void> {
  near.dataset.state = "loading";
  let misses: NearMissFilter[] = [];
  try {
    misses = nearMissFilters(r.filter).slice(0, NEAR_MISS_PARTS);
  } catch {
    // A filter the server took but the page's parser does not: no near misses.
  }
  const answers = await Promise.all(
    misses.map((m) => fetchList({ ...r, filter: m.filter, perPage: NEAR_MISSES_PER_PART, pageToken: "" }, signal, headerNames).then((a) => ({ m, a }), () => undefined)),
  );
  if (signal.aborted) return;
  const items: Record<string, unknown>[] = [];
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const answer of answers) {
    if (answer === undefined || !answer.a.ok) continue;
    for (const item of answer.a.items) {
      const id = `${String(item.Namespace)}\u0000${String(item.ID)}`;
      if (items.length === NEAR_MISSES || seen.has(id)) continue;
      seen.add(id);
      items.push(item);
      parts.push(r.filter.slice(answer.m.part.start, answer.m.part.end));
    }
  }
  renderTable(nearTable, r.endpoint, items, read, why, { label: "Fails", text: (row) => parts[row]! });
  near.hidden = items.length === 0;
  near.dataset.state = "done";
}

/** No near misses (an invalid filter, an error, no filter). */
function clearNearMisses(): void {
  renderTable(nearTable, state.endpoint, []);
  near.hidden = true;
  near.dataset.state = "done";
}

/** How a row explains itself. */
type Why = { readonly filter: string; readonly explain: (item: unknown) => Explanation };

/** The filter compiled once for the page's rows and near misses (none without a filter). */
function whyOf(filter: string, endpoint: Endpoint): Why | undefined {
  if (filter.trim() === "") return undefined;
  let compiled: ReturnType<typeof compile> | undefined;
  return { filter, explain: (item) => (compiled ??= compile(filter, { schema: schemaOf(endpoint) })).explain(item) };
}

/** The example filters of the endpoint, in the examples menu. */
function renderExamples(): void {
  const first = document.createElement("option");
  first.value = "";
  first.textContent = "Examples…";
  const options = EXAMPLES[state.endpoint].map(([label, filter]) => {
    const o = document.createElement("option");
    o.value = filter;
    o.textContent = label;
    return o;
  });
  examplesInput.replaceChildren(first, ...options);
}

function span(className: string, text: string, id?: string): HTMLSpanElement {
  const s = document.createElement("span");
  if (className) s.className = className;
  if (id) s.id = id;
  s.textContent = text;
  return s;
}

function renderDiagnostics(): void {
  const items = diagnostics.map((d) => {
    const li = document.createElement("li");
    li.className = `diagnostic ${d.severity}`;
    li.dataset.code = d.code;
    const { line, column } = lineColumn(state.filter, d.span.start);
    // The code links to what the documentation says of it (codes.html, made from docs/ at build time).
    const code = document.createElement("a");
    code.className = "code";
    code.href = `codes.html#${encodeURIComponent(d.code)}`;
    code.target = "_blank";
    code.rel = "noopener";
    code.textContent = `${d.severity}[${d.code}]`;
    li.append(code, " ", span("where", `${line}:${column}`), " ", span("message", d.message));
    for (const fix of d.fixes) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "fix";
      b.textContent = `Fix: ${fix.title}`;
      b.addEventListener("click", () => applyFixTo(view, fix));
      li.append(" ", b);
    }
    return li;
  });
  diagnosticsList.replaceChildren(...items);
  diagnosticsList.dataset.count = String(diagnostics.length);
}

function renderPlan(): void {
  plan.hidden = !state.plan;
  planButton.setAttribute("aria-expanded", String(state.plan));
  planButton.textContent = state.plan ? "Hide plan" : "Show plan";
  if (!state.plan) return;
  if (state.filter.trim() === "") plan.textContent = "(no filter: every item)";
  else if (errors().length > 0) plan.textContent = "(the filter has errors)";
  else plan.textContent = String(compile(state.filter, { schema: schemaOf(state.endpoint) }).plan);
}

$<HTMLFormElement>("controls").addEventListener("submit", (e) => {
  e.preventDefault();
  void run();
});
endpointInput.addEventListener("change", () => {
  state = { ...state, endpoint: endpointInput.value as Endpoint };
  // The diagnostics depend on the endpoint's schema.
  diagnostics = diagnosticsOf(state);
  renderExamples();
  refreshFilter(view);
  update({ pageToken: "" }, 0);
});
namespaceInput.addEventListener("input", () => update({ namespace: namespaceInput.value.trim() || "default", pageToken: "" }));
perPageInput.addEventListener("input", () => {
  const n = Number(perPageInput.value);
  if (Number.isInteger(n) && n >= 0) update({ perPage: n, pageToken: "" });
});
tokenInput.addEventListener("input", () => {
  saveToken(tokenInput.value);
  schedule(200);
});
examplesInput.addEventListener("change", () => {
  const filter = examplesInput.value;
  examplesInput.value = "";
  if (filter === "") return;
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: filter } });
  view.focus();
});
nextButton.addEventListener("click", () => {
  if (nextToken !== "") update({ pageToken: nextToken }, 0);
});
firstButton.addEventListener("click", () => update({ pageToken: "" }, 0));
planButton.addEventListener("click", () => {
  state = { ...state, plan: !state.plan };
  writtenHash = writeHash(state);
  history.replaceState(null, "", writtenHash);
  renderPlan();
});
copyButton.addEventListener("click", () => {
  void navigator.clipboard?.writeText(curl.textContent ?? "").then(
    () => (copyButton.textContent = "Copied"),
    () => (copyButton.textContent = "Copy failed: select the text"),
  );
});
document.addEventListener("keydown", (e) => {
  if (e.altKey && !e.ctrlKey && !e.metaKey && e.key.toLowerCase() === "n" && !nextButton.disabled) {
    e.preventDefault();
    nextButton.click();
  }
});
// A link pasted into this tab: take its state.
window.addEventListener("hashchange", () => {
  if (location.hash === writtenHash) return;
  const linked = readHash(location.hash);
  setControls(linked);
  state = { ...linked, filter: view.state.doc.toString() };
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: linked.filter } });
  diagnostics = diagnosticsOf(linked);
  update(linked, 0);
});

function diagnosticsOf(s: PageState): readonly Diagnostic[] {
  return s.filter.trim() === "" ? [] : diagnose(s.filter, { schema: schemaOf(s.endpoint) });
}

// The first diagnostics and results.
diagnostics = diagnosticsOf(state);
update({}, 0);
