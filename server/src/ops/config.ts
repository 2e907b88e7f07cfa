import { readFile } from "node:fs/promises";
import type { ServerOptions } from "../context.js";
import { parseDuration } from "./duration.js";
import { GossipKeyError, parseGossipKey } from "../agent/gossip/auth.js";
import { isObj, type Obj } from "../object.js";
import { parseApiHeaderDialect, type ApiHeaderDialect } from "../api-headers.js";

/** A configuration file that cannot be used; the message says where and why. */
export class ConfigError extends Error {}

export interface ListenerConfig {
  type: string;
  purpose: string[];
  address?: string;
  tls_disable: boolean;
}

/** The configuration file of the session gateway seed, as this server understands it. */
export interface ServerConfig {
  controller: {
    name: string;
    description?: string;
    /** database.url after resolving env:// and file:// references. */
    databaseUrl?: string;
    gracefulShutdownWaitMs?: number;
  };
  worker?: { name?: string };
  listeners: ListenerConfig[];
  /** `server { encrypt = "…" }`: the gossip key, as the scheduler's server block gives it. */
  gossipKey?: string;
  /** `server { database = "postgres://…" }` (or env://, file://): the scheduler's state in PostgreSQL, as --database. */
  database?: string;
  /** `server { api_headers = "nomad" }`: the names of the API's headers, as --api-headers. */
  apiHeaders?: ApiHeaderDialect;
}

/** A block given once: HCL-to-JSON gives a one-element list, hand-written JSON an object. */
function singleBlock(value: unknown, name: string): Obj | undefined {
  if (value === undefined) return undefined;
  const blocks = Array.isArray(value) ? value : [value];
  if (blocks.length !== 1 || !isObj(blocks[0])) throw new ConfigError(`${name}: expected one ${name} block`);
  const block = blocks[0];
  // A labelled block (`controller "name" { ... }`) comes as { label: [ { ... } ] }.
  const keys = Object.keys(block);
  const inner = keys.length === 1 ? block[keys[0] as string] : undefined;
  if (Array.isArray(inner) && inner.length === 1 && isObj(inner[0])) return inner[0];
  return block;
}

/** Listener blocks: `listener "tcp" {...}` in every JSON shape HCL allows, or a list of objects with `type`. */
function listenerBlocks(value: unknown): ListenerConfig[] {
  if (value === undefined) return [];
  const out: ListenerConfig[] = [];
  const add = (type: string, body: unknown): void => {
    for (const b of Array.isArray(body) ? body : [body]) {
      if (!isObj(b)) throw new ConfigError(`listener "${type}": expected a block`);
      out.push(listener(type, b));
    }
  };
  for (const item of Array.isArray(value) ? value : [value]) {
    if (!isObj(item)) throw new ConfigError("listener: expected a block");
    if ("purpose" in item) add(typeof item["type"] === "string" ? item["type"] : "tcp", item);
    else for (const [type, body] of Object.entries(item)) add(type, body);
  }
  return out;
}

function listener(type: string, b: Obj): ListenerConfig {
  if (type !== "tcp") throw new ConfigError(`listener "${type}": only tcp listeners are supported`);
  const purpose = b["purpose"];
  const purposes = typeof purpose === "string" ? [purpose] : Array.isArray(purpose) && purpose.every((p) => typeof p === "string") ? (purpose as string[]) : undefined;
  if (purposes === undefined || purposes.length === 0) throw new ConfigError(`listener "${type}": purpose must be "api" or "ops"`);
  for (const p of purposes) if (p !== "api" && p !== "ops") throw new ConfigError(`listener "${type}": unsupported purpose "${p}" (api or ops)`);
  const tls = b["tls_disable"];
  if (tls !== undefined && typeof tls !== "boolean" && tls !== "true" && tls !== "false") throw new ConfigError(`listener "${type}": tls_disable must be a boolean`);
  const config: ListenerConfig = { type, purpose: purposes, tls_disable: tls === true || tls === "true" };
  if (b["address"] !== undefined) {
    if (typeof b["address"] !== "string") throw new ConfigError(`listener "${type}": address must be a string`);
    config.address = b["address"];
  }
  return config;
}

/** `env://NAME` reads the variable, `file://PATH` the file; anything else is the URL itself. */
async function resolveReference(url: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (url.startsWith("env://")) {
    const name = url.slice("env://".length);
    const value = env[name];
    if (value === undefined || value === "") throw new ConfigError(`controller.database.url: environment variable ${name} is not set`);
    return value;
  }
  if (url.startsWith("file://")) return (await readFile(url.slice("file://".length), "utf8")).trim();
  return url;
}

/** Checks and resolves the parsed file (HCL turned to JSON, or JSON of the same shape). */
export async function interpretConfig(raw: unknown, env: NodeJS.ProcessEnv = process.env): Promise<ServerConfig> {
  if (!isObj(raw)) throw new ConfigError("expected controller and listener blocks");
  const controller = singleBlock(raw["controller"], "controller");
  if (controller === undefined) throw new ConfigError("a controller block is required");
  const name = controller["name"];
  if (typeof name !== "string" || name === "") throw new ConfigError("controller.name: expected a non-empty string");
  const config: ServerConfig = { controller: { name }, listeners: listenerBlocks(raw["listener"]) };
  if (typeof controller["description"] === "string") config.controller.description = controller["description"];
  const database = singleBlock(controller["database"], "database");
  if (database !== undefined) {
    if (typeof database["url"] !== "string") throw new ConfigError("controller.database.url: expected a string");
    config.controller.databaseUrl = await resolveReference(database["url"], env);
  }
  const wait = controller["graceful_shutdown_wait_duration"];
  if (wait !== undefined) {
    const ms = typeof wait === "string" ? parseDuration(wait) : undefined;
    if (ms === undefined || ms < 0) throw new ConfigError(`controller.graceful_shutdown_wait_duration: expected a duration such as "5s", got ${JSON.stringify(wait)}`);
    config.controller.gracefulShutdownWaitMs = ms;
  }
  const server = singleBlock(raw["server"], "server");
  if (server !== undefined && server["encrypt"] !== undefined) {
    const key = server["encrypt"];
    if (typeof key !== "string") throw new ConfigError("server.encrypt: expected a base64 string");
    try {
      parseGossipKey(key);
    } catch (e) {
      if (e instanceof GossipKeyError) throw new ConfigError(`server.encrypt: ${e.message}`);
      throw e;
    }
    config.gossipKey = key.trim();
  }
  if (server !== undefined && server["database"] !== undefined) {
    const url = server["database"];
    if (typeof url !== "string" || url === "") throw new ConfigError("server.database: expected a postgres:// URL");
    const resolved = await resolveReference(url, env);
    if (!/^postgres(ql)?:\/\//.test(resolved)) throw new ConfigError("server.database: expected a postgres:// URL");
    config.database = resolved;
  }
  if (server !== undefined && server["api_headers"] !== undefined) {
    const text = server["api_headers"];
    const dialect = typeof text === "string" ? parseApiHeaderDialect(text) : undefined;
    if (dialect === undefined) throw new ConfigError(`server.api_headers: expected "svc" or "nomad", got ${JSON.stringify(text)}`);
    config.apiHeaders = dialect;
  }
  const worker = singleBlock(raw["worker"], "worker");
  if (worker !== undefined) config.worker = typeof worker["name"] === "string" ? { name: worker["name"] } : {};
  for (const purpose of ["api", "ops"]) {
    const found = config.listeners.filter((l) => l.purpose.includes(purpose));
    if (found.length === 0) throw new ConfigError(`a listener with purpose "${purpose}" is required`);
    if (found.length > 1) throw new ConfigError(`only one listener with purpose "${purpose}" is supported`);
  }
  for (const l of config.listeners) {
    if (!l.tls_disable) throw new ConfigError(`listener with purpose ${l.purpose.join(",")}: TLS is not supported here, set tls_disable = true`);
  }
  return config;
}

function splitAddress(address: string, where: string): { host?: string; port?: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]*))(?::(\d+))?$/.exec(address);
  if (m === null) throw new ConfigError(`${where}: bad address "${address}"`);
  const host = m[1] ?? m[2];
  const port = m[3] === undefined ? undefined : Number(m[3]);
  if (port !== undefined && port > 65535) throw new ConfigError(`${where}: bad port in "${address}"`);
  const out: { host?: string; port?: number } = {};
  if (host !== undefined && host !== "") out.host = host;
  if (port !== undefined) out.port = port;
  return out;
}

/** The server options a configuration sets (the command line still overrides them). */
export function configOptions(config: ServerConfig): Partial<ServerOptions> {
  const options: Partial<ServerOptions> = { nodeName: config.controller.name };
  if (config.controller.gracefulShutdownWaitMs !== undefined) options.gracefulShutdownWaitMs = config.controller.gracefulShutdownWaitMs;
  if (config.worker !== undefined) options.worker = true;
  if (config.database !== undefined) options.database = config.database;
  if (config.gossipKey !== undefined) options.gossipKey = config.gossipKey;
  if (config.apiHeaders !== undefined) options.apiHeaders = config.apiHeaders;
  for (const l of config.listeners) {
    if (l.address === undefined) continue;
    const { host, port } = splitAddress(l.address, `listener ${l.purpose.join(",")}`);
    if (l.purpose.includes("api")) {
      if (host !== undefined) options.bind = host;
      if (port !== undefined) options.port = port;
    }
    if (l.purpose.includes("ops")) {
      if (host !== undefined) options.opsBind = host;
      if (port !== undefined) options.opsPort = port;
    }
  }
  return options;
}

/** Reads a configuration file: JSON when it ends in .json, HCL otherwise. */
export async function loadConfigFile(file: string, env: NodeJS.ProcessEnv = process.env): Promise<ServerConfig> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    throw new ConfigError(`${file}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    if (file.endsWith(".json")) raw = JSON.parse(text);
    else {
      // The HashiCorp HCL parser, compiled to WebAssembly; loaded only when a file needs it.
      const { parse } = await import("@cdktn/hcl2json");
      raw = await parse(file, text);
    }
  } catch (e) {
    throw new ConfigError(`${file}: ${(e as Error).message}`);
  }
  try {
    return await interpretConfig(raw, env);
  } catch (e) {
    if (e instanceof ConfigError) throw new ConfigError(`${file}: ${e.message}`);
    throw e;
  }
}
