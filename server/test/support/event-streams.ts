/**
 * Event streams over real HTTP, for the tests of `GET /v1/event/stream`: one request on a connection of
 * its own, a stream read line by line as it arrives (frames and heartbeats, waited on), the stream's
 * URL, a metric, and the event record schema server/docs/events.md documents (built from the docs,
 * not imported from the server).
 */
import { request, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { schemas, t } from "filter-expr";
import { expect } from "vitest";
import { HANG_MS } from "../../../test/support/wait.js";

export type Json = Record<string, unknown>;

/** An event as the stream sends it. */
export interface Ev {
  Topic: string;
  Type: string;
  Key: string;
  Namespace: string;
  Index: number;
  Payload: { Job?: Json; Deployment?: Json };
}
export interface Frame {
  Index: number;
  Events: Ev[];
}

/** The record schema server/docs/events.md documents, built here from the docs (not imported from the server). */
export const EVENT_SCHEMA = t.record("Event", {
  Topic: t.string,
  Type: t.string,
  Key: t.string,
  Namespace: t.string,
  Index: t.uint,
  Payload: t.record("EventPayload", { Job: t.pointer(schemas.job), Deployment: t.pointer(schemas.deployment) }),
});

/** One request on a connection of its own (no keep-alive pool), from loopback address `from` when given: status, headers, body. */
export function send(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}, from?: string): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, agent: false, headers: { Connection: "close", ...headers }, ...(from === undefined ? {} : { localAddress: from }) }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.setTimeout(HANG_MS, () => req.destroy(new Error(`${method} ${path}: still no answer after ${HANG_MS / 1000} s`)));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A counter or gauge of GET /v1/metrics (JSON), by name and labels. */
export async function metric(base: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const res = await send(base, "GET", "/v1/metrics");
  const m = JSON.parse(res.text) as { Gauges: { Name: string; Value: number; Labels: Json }[]; Counters: { Name: string; Count: number; Labels: Json }[] };
  const fits = (l: Json): boolean => Object.entries(labels).every(([k, v]) => l[k] === v);
  const g = m.Gauges.find((x) => x.Name === name && fits(x.Labels));
  if (g !== undefined) return g.Value;
  return m.Counters.find((x) => x.Name === name && fits(x.Labels))?.Count ?? 0;
}

/** An open event stream: its lines as they arrive (frames, heartbeats, and the error frame that ends a stream the server ends). */
export class Stream {
  readonly frames: Frame[] = [];
  heartbeats = 0;
  /** The `Error` of `{"Error": …}` frames. */
  readonly errors: string[] = [];
  /** Every line, in order ("{}" for heartbeats). */
  readonly lines: string[] = [];
  /** Resolves when the response ends ("end") or breaks ("error"). */
  readonly ended: Promise<"end" | "error">;
  #rest = "";
  #waiters: (() => void)[] = [];
  #done = false;

  private constructor(
    readonly res: IncomingMessage,
    private readonly close: () => void,
  ) {
    res.setEncoding("utf8");
    this.ended = new Promise((resolve) => {
      res.on("data", (chunk: string) => this.#take(chunk));
      res.on("end", () => this.#finish(resolve, "end"));
      res.on("error", () => this.#finish(resolve, "error"));
      res.on("aborted", () => this.#finish(resolve, "error"));
    });
  }

  /** Opens `path` (from loopback address `from` when given); resolves with the response head (any status). */
  static open(base: string, path: string, headers: Record<string, string> = {}, from?: string): Promise<Stream> {
    return new Promise((resolve, reject) => {
      const req = request(`${base}${path}`, { agent: false, headers, ...(from === undefined ? {} : { localAddress: from }) }, (res) => resolve(new Stream(res, () => req.destroy())));
      req.on("error", reject);
      req.end();
    });
  }

  get events(): Ev[] {
    return this.frames.flatMap((f) => f.Events);
  }

  /**
   * Resolves once `check` holds (checked after every line); fails if the stream ends first, or (a hang,
   * test/support/wait.ts) naming `what` after `HANG_MS`.
   */
  async waitFor(check: () => boolean, what: string): Promise<void> {
    const deadline = Date.now() + HANG_MS;
    while (!check()) {
      if (this.#done) throw new Error(`stream ended before ${what}; lines: ${this.lines.join(" | ").slice(0, 2000)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`still waiting, after ${HANG_MS / 1000} s, for ${what}; lines: ${this.lines.join(" | ").slice(0, 2000)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for a frame of index `index` or above (every earlier frame has arrived then). */
  reached(index: number): Promise<void> {
    return this.waitFor(() => this.frames.some((f) => f.Index >= index), `a frame at index ${index} or later`);
  }

  destroy(): void {
    this.close();
  }

  #take(chunk: string): void {
    const parts = (this.#rest + chunk).split("\n");
    this.#rest = parts.pop()!;
    for (const line of parts) {
      this.lines.push(line);
      const value = JSON.parse(line) as Partial<Frame> & { Error?: string };
      if (value.Error !== undefined) {
        expect(Object.keys(value)).toEqual(["Error"]);
        this.errors.push(value.Error);
      } else if (value.Index === undefined) {
        expect(value).toEqual({});
        this.heartbeats++;
      } else this.frames.push(value as Frame);
    }
    this.#wake();
  }

  #finish(resolve: (how: "end" | "error") => void, how: "end" | "error"): void {
    this.#done = true;
    resolve(how);
    this.#wake();
  }

  #wake(): void {
    for (const w of this.#waiters.splice(0)) w();
  }
}

/** The stream's path with these parameters (a list repeats the parameter). */
export const q = (params: Record<string, string | string[]>): string => {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of Array.isArray(v) ? v : [v]) search.append(k, one);
  return `/v1/event/stream?${search.toString()}`;
};
