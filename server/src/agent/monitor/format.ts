import { relative } from "node:path";
import type { LogLine } from "../../context.js";

export type Level = LogLine["level"];
export const LEVELS: readonly Level[] = ["trace", "debug", "info", "warn", "error"];
const RANK: Record<Level, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };

/** Whether a line at `level` passes a monitor filtered at `threshold` (`off` passes nothing). */
export function passes(level: Level, threshold: Level | "off"): boolean {
  return threshold !== "off" && RANK[level] >= RANK[threshold];
}

/** pino's own keys, not shown as fields. */
const RESERVED = new Set(["level", "time", "pid", "hostname", "msg", "module", "v"]);

function parse(json: string): Record<string, unknown> {
  try {
    const value = JSON.parse(json) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function fieldText(value: unknown): string {
  if (typeof value !== "string") return JSON.stringify(value);
  return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
}

const LABEL: Record<Level, string> = { trace: "[TRACE]", debug: "[DEBUG]", info: "[INFO] ", warn: "[WARN] ", error: "[ERROR]" };

/**
 * One log line in the scheduler's text format
 * (`2026-01-02T03:04:05.678Z [INFO]  file.ts:12: module: message: key=value`), or in its JSON format
 * (`{"@level":"info","@message":…,"@module":…,"@timestamp":…,"@caller":…,key:value}`), newline-terminated.
 */
export function formatLine(line: LogLine, json: boolean, location: string | undefined): string {
  const raw = parse(line.json);
  const timestamp = new Date(line.time).toISOString();
  const module = typeof raw["module"] === "string" ? raw["module"] : undefined;
  const fields = Object.entries(raw).filter(([key]) => !RESERVED.has(key));
  if (json) {
    const out: Record<string, unknown> = {};
    if (location !== undefined) out["@caller"] = location;
    out["@level"] = line.level;
    out["@message"] = line.msg;
    if (module !== undefined) out["@module"] = module;
    out["@timestamp"] = timestamp;
    for (const [key, value] of fields) out[key] = value;
    return `${JSON.stringify(out)}\n`;
  }
  let text = `${timestamp} ${LABEL[line.level]} `;
  if (location !== undefined) text += `${location}: `;
  if (module !== undefined) text += `${module}: `;
  text += line.msg;
  if (fields.length > 0) text += `: ${fields.map(([key, value]) => `${key}=${fieldText(value)}`).join(" ")}`;
  return `${text}\n`;
}

const SKIPPED = [/[\\/]node_modules[\\/]pino[\\/]/, /[\\/]ops[\\/]logging\.[cm]?[jt]s/, /[\\/]agent[\\/]monitor[\\/]/, /\(node:/, /^\s*at node:/];

/**
 * The file and line that wrote the log line being emitted right now. Log lines are emitted
 * synchronously from the logger call, so the caller's frame is on the current stack: the first
 * frame outside the logger, the log stream and this module, preferring the project's own code.
 */
export function callerLocation(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 50;
  const stack = new Error().stack ?? "";
  Error.stackTraceLimit = limit;
  const frames = stack
    .split("\n")
    .slice(1)
    .filter((frame) => !SKIPPED.some((pattern) => pattern.test(frame)));
  const frame = frames.find((f) => !/[\\/]node_modules[\\/]/.test(f)) ?? frames[0];
  if (frame === undefined) return undefined;
  const m = /\(?((?:file:\/\/)?[^\s()]+):(\d+):\d+\)?\s*$/.exec(frame);
  if (m === null) return undefined;
  const file = (m[1] ?? "").replace(/^file:\/\//, "");
  const shown = file.startsWith("/") ? relative(process.cwd(), file) : file;
  return `${shown}:${m[2]}`;
}
