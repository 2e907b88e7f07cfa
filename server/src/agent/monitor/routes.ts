import type { FastifyInstance } from "fastify";
import type { LogLine } from "../../context.js";
import { permit } from "../access.js";
import { conflictingTarget, handleRemote, resolveTarget } from "../forward.js";
import { parseGoBool, queryOf, sendText } from "../http.js";
import type { AgentState } from "../state.js";
import { callerLocation, formatLine, LEVELS, passes } from "./format.js";
import type { Level } from "./format.js";
import { BATCH_MS, Framer, HEARTBEAT_MS } from "./framer.js";

interface MonitorParams {
  level: Level | "off";
  json: boolean;
  plain: boolean;
  location: boolean;
}

function readParams(query: URLSearchParams): MonitorParams | string {
  const rawLevel = (query.get("log_level") ?? "info").trim().toLowerCase();
  const level = rawLevel === "" ? "info" : rawLevel === "off" ? "off" : LEVELS.find((l) => l === rawLevel);
  if (level === undefined) return `Unknown log level: ${query.get("log_level") ?? ""}`;
  const flags: [string, string][] = [
    ["log_json", "Unknown option for log json"],
    ["plain", "Unknown option for plain"],
    ["log_include_location", "Unknown option for log_include_location"],
  ];
  const values: boolean[] = [];
  for (const [name, message] of flags) {
    const raw = query.get(name);
    try {
      values.push(raw === null || raw === "" ? false : parseGoBool(raw));
    } catch (e) {
      return `${message}: ${(e as Error).message}`;
    }
  }
  return { level, json: values[0] === true, plain: values[1] === true, location: values[2] === true };
}

/**
 * GET /monitor: streams this server's log lines from now on until the client goes away: JSON frames
 * `{Data, FileEvent, Offset}` written back to back (and `{}` heartbeats every second of quiet), or
 * the bare text with plain=true. Lines are batched every 200 ms.
 */
export function monitorRoutes(app: FastifyInstance, state: AgentState): void {
  app.get("/monitor", async (request, reply) => {
    const query = queryOf(request);
    const params = readParams(query);
    if (typeof params === "string") return sendText(reply, 400, params);
    const both = conflictingTarget(query, "Cannot target node and server simultaneously");
    if (both !== undefined) return sendText(reply, both.status, both.message);
    // The token first: a caller without the right learns nothing of the target (404) and causes no forward.
    if (!permit(state.ctx, request, reply, "agent:read")) return reply;
    const target = resolveTarget(state, query, "Cannot target node and server simultaneously");
    if (await handleRemote(state, request, reply, target)) return reply;

    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { "content-type": params.plain ? "text/plain" : "application/json", "cache-control": "no-cache" });
    res.flushHeaders();

    const framer = new Framer();
    let lastWrite = Date.now();
    const onLine = (line: LogLine): void => {
      if (!passes(line.level, params.level)) return;
      framer.push(formatLine(line, params.json, params.location ? callerLocation() : undefined));
    };
    const flush = (): void => {
      if (!framer.empty) {
        const frames = framer.drain();
        res.write(params.plain ? Buffer.concat(frames.map((f) => Buffer.from(f.Data, "base64"))) : frames.map((f) => JSON.stringify(f)).join(""));
        lastWrite = Date.now();
      } else if (!params.plain && Date.now() - lastWrite >= HEARTBEAT_MS) {
        res.write("{}");
        lastWrite = Date.now();
      }
    };
    const batch = setInterval(flush, BATCH_MS);

    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      clearInterval(batch);
      state.ctx.logEvents.off("line", onLine);
      state.closers.delete(end);
      if (!res.writableEnded) {
        flush();
        res.end();
      }
    };
    state.closers.add(end);
    state.ctx.logEvents.on("line", onLine);
    request.raw.on("close", end);
    res.on("close", end);
    res.on("error", end);
    return reply;
  });
}
