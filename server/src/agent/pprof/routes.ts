import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { permitPprof } from "../access.js";
import { conflictingTarget, handleRemote, resolveTarget } from "../forward.js";
import { parseGoInt, queryOf, sendText } from "../http.js";
import type { AgentState } from "../state.js";
import { activeResources, allocationProfile, cpuProfile, executionTrace, heapSnapshot } from "./collect.js";
import { allocationProfileText, cpuProfileText, goroutineText, heapText } from "./text.js";

export const DEFAULT_SECONDS = 3;
export const MAX_SECONDS = 300;

interface PprofParams {
  seconds: number;
  debug: number;
}

function readParams(query: URLSearchParams): PprofParams | string {
  const rawSeconds = query.get("seconds");
  let seconds = DEFAULT_SECONDS;
  if (rawSeconds !== null && rawSeconds !== "") {
    const value = parseGoInt(rawSeconds);
    if (value === undefined) return `Error parsing seconds: strconv.Atoi: parsing ${JSON.stringify(rawSeconds)}: invalid syntax`;
    if (value < 1 || value > MAX_SECONDS) return `seconds must be between 1 and ${MAX_SECONDS}`;
    seconds = value;
  }
  const rawDebug = query.get("debug");
  let debug = 0;
  if (rawDebug !== null && rawDebug !== "") {
    const value = parseGoInt(rawDebug);
    if (value === undefined || value < 0) return `Error parsing debug: strconv.Atoi: parsing ${JSON.stringify(rawDebug)}: invalid syntax`;
    debug = value;
  }
  return { seconds, debug };
}

function sendPlain(reply: FastifyReply, body: string): FastifyReply {
  return reply.code(200).header("x-content-type-options", "nosniff").type("text/plain; charset=utf-8").send(body);
}

function sendBinary(reply: FastifyReply, filename: string, body: string | NodeJS.ReadableStream): FastifyReply {
  return reply
    .code(200)
    .header("x-content-type-options", "nosniff")
    .header("content-disposition", `attachment; filename="${filename}"`)
    .type("application/octet-stream")
    .send(body);
}

/** An AbortSignal that fires when the client goes away (a long profile then stops early). */
function clientGone(request: FastifyRequest): AbortSignal {
  const controller = new AbortController();
  request.raw.once("close", () => controller.abort());
  return controller.signal;
}

/**
 * GET /pprof/:name: profiles of this running server. cmdline (text); profile: a V8 CPU profile over
 * `seconds`; trace: trace events over `seconds`; heap: a V8 heap snapshot; allocs: sampled
 * allocations over `seconds`; goroutine: the active resources of the event loop. `debug=1` gives text.
 */
export function pprofRoutes(app: FastifyInstance, state: AgentState): void {
  app.get<{ Params: { name: string } }>("/pprof/:name", async (request, reply) => {
    const query = queryOf(request);
    const params = readParams(query);
    if (typeof params === "string") return sendText(reply, 400, params);
    const both = conflictingTarget(query, "Can only forward to either client node or server");
    if (both !== undefined) return sendText(reply, both.status, both.message);
    // The token first: a caller without the right learns nothing of the target (404) and causes no forward.
    if (!permitPprof(state.ctx, request, reply)) return reply;
    const target = resolveTarget(state, query, "Can only forward to either client node or server");
    if (await handleRemote(state, request, reply, target)) return reply;

    const { seconds, debug } = params;
    switch (request.params.name) {
      case "cmdline":
        return sendPlain(reply, [process.execPath, ...process.execArgv, ...process.argv.slice(1)].join("\u0000"));
      case "profile": {
        const profile = await cpuProfile(seconds, clientGone(request));
        return debug > 0 ? sendPlain(reply, cpuProfileText(profile, seconds)) : sendBinary(reply, "profile", JSON.stringify(profile));
      }
      case "trace": {
        const trace = await executionTrace(seconds, clientGone(request));
        return sendBinary(reply, "trace", JSON.stringify(trace));
      }
      case "heap":
        return debug > 0 ? sendPlain(reply, heapText()) : sendBinary(reply, "heap", heapSnapshot());
      case "allocs": {
        const profile = await allocationProfile(seconds, clientGone(request));
        return debug > 0 ? sendPlain(reply, allocationProfileText(profile, seconds)) : sendBinary(reply, "allocs", JSON.stringify(profile));
      }
      case "goroutine": {
        const resources = activeResources();
        return debug > 0 ? sendPlain(reply, goroutineText(resources, debug)) : sendBinary(reply, "goroutine", JSON.stringify(resources));
      }
      default:
        return sendText(reply, 404, `Pprof profile not found profile: ${request.params.name}`);
    }
  });
}
