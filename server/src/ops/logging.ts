import type { FastifyInstance } from "fastify";
import type { LogLine, ServerContext } from "../context.js";
import { redactSecrets } from "./secrets.js";

type Level = LogLine["level"];
const LEVEL_NAMES: Record<number, Level> = { 10: "trace", 20: "debug", 30: "info", 40: "warn", 50: "error", 60: "error" };
const LEVEL_VALUES: Record<Level, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50 };

/**
 * pino destination: writes lines at or above the configured level to stdout and emits every line
 * (whatever its level) on ctx.logEvents as a LogLine, for /v1/agent/monitor; secrets redacted first.
 */
export function logStream(ctx: ServerContext, level: Level): { write(line: string): void } {
  const threshold = LEVEL_VALUES[level];
  return {
    write(raw: string): void {
      // Secrets (signed URLs, tokens) never reach the output or the monitor streams.
      const line = redactSecrets(ctx, raw);
      let parsed: { level?: number; time?: number; msg?: string } = {};
      try {
        parsed = JSON.parse(line) as typeof parsed;
      } catch {
        // pino always writes JSON; keep the raw line regardless.
      }
      const value = parsed.level ?? 30;
      if (value >= threshold) process.stdout.write(line);
      if (ctx.logEvents.listenerCount("line") > 0) {
        const event: LogLine = {
          level: LEVEL_NAMES[value] ?? "info",
          time: parsed.time ?? Date.now(),
          msg: parsed.msg ?? "",
          json: line.endsWith("\n") ? line.slice(0, -1) : line,
        };
        ctx.logEvents.emit("line", event);
      }
    },
  };
}

/** While anyone listens to ctx.logEvents, the logger produces every level; otherwise only the configured one. */
export function monitorAwareLevel(app: FastifyInstance, ctx: ServerContext, level: Level): void {
  const update = (): void => {
    // "newListener" fires before the listener is added, "removeListener" after it is removed.
    setImmediate(() => {
      app.log.level = ctx.logEvents.listenerCount("line") > 0 ? "trace" : level;
    });
  };
  ctx.logEvents.on("newListener", (event: string) => event === "line" && update());
  ctx.logEvents.on("removeListener", (event: string) => event === "line" && update());
}
