import { readFile, statfs } from "node:fs/promises";
import { hostname, machine, release, type, version } from "node:os";
import { REDACTED } from "../self/redact.js";
import { hostNetwork } from "./network.js";
import type { NetworkEntry } from "./network.js";

export interface DiskUsage {
  DiskMB: number;
  UsedMB: number;
}

export interface HostData {
  Disk: Record<string, DiskUsage>;
  Environment: Record<string, string>;
  Hosts: string;
  Network: NetworkEntry[];
  OS: string;
  ResolvConf: string;
}


const SENSITIVE_EXACT = new Set(["AWS_ACCESS_KEY_ID", "GOOGLE_APPLICATION_CREDENTIALS", "DATABASE_URL", "NPM_CONFIG__AUTH"]);
const SENSITIVE_PART = ["TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "PRIVATE_KEY", "API_KEY", "ACCESS_KEY", "_AUTH"];

/** Known sensitive variables: a deny list, plus any name containing TOKEN, SECRET, PASSWORD and the like. */
export function isSensitive(name: string): boolean {
  const upper = name.toUpperCase();
  return SENSITIVE_EXACT.has(upper) || SENSITIVE_PART.some((part) => upper.includes(part));
}

export function environment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) out[name] = isSensitive(name) ? REDACTED : value;
  }
  return out;
}

/** `uname -a`-like: machine, node name, release, system name, version. */
export function uname(): string {
  return [machine(), hostname(), release(), type(), version()].join(" ");
}

async function slurp(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return "";
  }
}

/** Mount points listed in /proc/mounts (octal escapes such as \040 decoded). */
export function parseMounts(text: string): string[] {
  const paths: string[] = [];
  for (const line of text.split("\n")) {
    const field = line.split(" ")[1];
    if (field === undefined || field === "") continue;
    paths.push(field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))));
  }
  return [...new Set(paths)];
}

const MB = 1024 * 1024;

async function usage(path: string, timeoutMs: number): Promise<DiskUsage | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutMs);
  });
  try {
    const stats = await Promise.race([statfs(path, { bigint: true }), timeout]);
    if (stats === undefined) return undefined;
    const total = stats.blocks * stats.bsize;
    const available = stats.bavail * stats.bsize;
    return { DiskMB: Number(total / BigInt(MB)), UsedMB: Number((total - available) / BigInt(MB)) };
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** Size and use of every mounted file system that can be measured (others are skipped). */
export async function diskUsage(mountsFile = "/proc/mounts"): Promise<Record<string, DiskUsage>> {
  const paths = parseMounts(await slurp(mountsFile));
  const results = await Promise.all(paths.map(async (path) => [path, await usage(path, 1000)] as const));
  const out: Record<string, DiskUsage> = {};
  for (const [path, u] of results) if (u !== undefined) out[path] = u;
  return out;
}

export async function makeHostData(): Promise<HostData> {
  const [disk, hosts, resolv] = await Promise.all([diskUsage(), slurp("/etc/hosts"), slurp("/etc/resolv.conf")]);
  return {
    Disk: disk,
    Environment: environment(),
    Hosts: hosts,
    Network: hostNetwork(),
    OS: uname(),
    ResolvConf: resolv,
  };
}
