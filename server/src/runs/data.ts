import { DataFileError } from "../lists/load.js";
import type { ApplySpec } from "./build.js";
import { APPLY_ID_PATTERN, type ExecutionMode, isApplyStatus, type StatusTimestamps, APPLY_STATUSES } from "./model.js";
import { isObj, type Obj } from "../object.js";

/** A data file error (so the bin reports it like the scheduler's own) about its "applies". */
export class ApplyDataError extends DataFileError {}

const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const AGENT_FIELDS = ["agentId", "agentName", "agentPoolId", "agentPoolName"] as const;
const COUNT_FIELDS = [
  ["resourceAdditions", "additions"],
  ["resourceChanges", "changes"],
  ["resourceDestructions", "destructions"],
  ["resourceImports", "imports"],
] as const;
const TIMESTAMP_FIELDS = ["queuedAt", "startedAt", "finishedAt"] as const;

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** A field by its camelCase name or by the kebab-case name the JSON:API document uses. */
function field(obj: Obj, camel: string): unknown {
  return obj[camel] !== undefined ? obj[camel] : obj[kebab(camel)];
}

/**
 * The "applies" of the parsed `--data` file, or undefined when it has none (the demo applies are
 * used then). Each needs `id`, `status`, `mode` and `erroredState`; the JSON:API attributes may be
 * given too, in camelCase or kebab-case. Throws ApplyDataError naming the offending entry.
 */
export function parseDataApplies(data: unknown): ApplySpec[] | undefined {
  if (!isObj(data) || data["applies"] === undefined) return undefined;
  const raw = data["applies"];
  if (!Array.isArray(raw)) throw new ApplyDataError(`data file: "applies" must be an array`);
  const seen = new Set<string>();
  return raw.map((entry: unknown, i) => {
    const spec = parseEntry(entry, `data file: applies[${i}]`);
    if (seen.has(spec.id)) throw new ApplyDataError(`data file: applies[${i}]: duplicate id "${spec.id}"`);
    seen.add(spec.id);
    return spec;
  });
}

function parseEntry(entry: unknown, where: string): ApplySpec {
  if (!isObj(entry)) throw new ApplyDataError(`${where}: expected an object`);
  const fail = (msg: string): never => {
    throw new ApplyDataError(`${where}: ${msg}`);
  };

  const id = entry["id"];
  if (typeof id !== "string" || !APPLY_ID_PATTERN.test(id)) {
    fail(`id must be a string of the form apply-<id> (letters, digits, ".", "_", "~", "-"), got ${JSON.stringify(id)}`);
  }
  const status = entry["status"];
  if (!isApplyStatus(status)) fail(`status must be one of ${APPLY_STATUSES.join(", ")}, got ${JSON.stringify(status)}`);

  const details = field(entry, "executionDetails");
  if (details !== undefined && !isObj(details)) fail("execution-details must be an object");
  const detailsObj: Obj = isObj(details) ? details : {};
  const mode = entry["mode"] ?? detailsObj["mode"];
  if (mode !== "remote" && mode !== "agent") fail(`mode must be "remote" or "agent", got ${JSON.stringify(mode)}`);

  const spec: ApplySpec = {
    id: id as string,
    status: status as ApplySpec["status"],
    mode: mode as ExecutionMode,
    erroredState: parseErroredState(field(entry, "erroredState"), fail),
  };

  const agent: NonNullable<ApplySpec["agent"]> = {};
  for (const name of AGENT_FIELDS) {
    const value = field(entry, name) ?? field(detailsObj, name);
    if (value === undefined) continue;
    if (mode !== "agent") fail(`${kebab(name)} is only shown when mode is agent`);
    if (typeof value !== "string" || value === "") fail(`${kebab(name)} must be a non-empty string`);
    agent[name] = value as string;
  }
  if (Object.keys(agent).length > 0) spec.agent = agent;

  const timestamps = field(entry, "statusTimestamps");
  if (timestamps !== undefined) {
    if (!isObj(timestamps)) fail("status-timestamps must be an object");
    const parsed: StatusTimestamps = {};
    for (const name of TIMESTAMP_FIELDS) {
      const value = field(timestamps as Obj, name);
      if (value === undefined) continue;
      if (typeof value !== "string" || !TIMESTAMP_PATTERN.test(value) || Number.isNaN(Date.parse(value))) {
        fail(`status-timestamps.${kebab(name)} must be an ISO 8601 timestamp with offset, got ${JSON.stringify(value)}`);
      }
      parsed[name] = value as string;
    }
    spec.timestamps = parsed;
  }

  const resources: NonNullable<ApplySpec["resources"]> = {};
  for (const [name, key] of COUNT_FIELDS) {
    const value = field(entry, name);
    if (value === undefined) continue;
    if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
      fail(`${kebab(name)} must be a non-negative integer, got ${JSON.stringify(value)}`);
    }
    resources[key] = value as number;
  }
  if (Object.keys(resources).length > 0) spec.resources = resources;

  const versions = field(entry, "stateVersions");
  if (versions !== undefined) {
    if (!Array.isArray(versions)) fail("state-versions must be an array of ids");
    spec.stateVersionIds = (versions as unknown[]).map((v, j) => {
      const vid = isObj(v) ? v["id"] : v;
      if (typeof vid !== "string" || vid === "") fail(`state-versions[${j}] must be an id string or {"id": "..."}`);
      return vid as string;
    });
  }

  const log = entry["log"];
  if (log !== undefined) {
    if (typeof log !== "string") fail("log must be a string");
    spec.log = log as string;
  }
  return spec;
}

function parseErroredState(value: unknown, fail: (msg: string) => never): boolean | string {
  if (value === true || value === false || typeof value === "string") return value;
  // A state file is a JSON object; given as one, it is served as its JSON text.
  if (isObj(value)) return `${JSON.stringify(value, null, 2)}\n`;
  return fail(`erroredState must be true, false, or the raw state content (a string or a JSON object), got ${JSON.stringify(value)}`);
}
