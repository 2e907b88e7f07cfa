/**
 * HTTP clients of the attack benchmark, on node:http so that each client has its own source address
 * on loopback (`localAddress`; fetch cannot bind one): one request, a request loop paced at an
 * interval, a fixed number of request loops, and event streams held open.
 */
import { Agent, request, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import type { Tally } from "./stats.js";

/** What one request got: an answer (status, headers, the start of its body), or none (`error`). */
export interface Outcome {
  /** 0 when there was no answer. */
  status: number;
  headers: IncomingHttpHeaders;
  /** The body's first `maxBody` characters. */
  body: string;
  /** Milliseconds from sending to the end of the answer (or to the failure). */
  ms: number;
  /** Why there was no answer: `aborted` (the signal), or the socket error's code. */
  error?: string;
}

export interface SendOptions {
  /** The client's source address (127.0.0.x). */
  from: string;
  method?: string;
  /** A keep-alive agent; default: a connection of its own, closed after the answer. */
  agent?: Agent;
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Characters of the body kept (default 4096); the rest is read and dropped. */
  maxBody?: number;
}

/** One request; never rejects (a failure is an outcome with `error`). */
export function send(url: string, o: SendOptions): Promise<Outcome> {
  const started = performance.now();
  const keep = o.maxBody ?? 4096;
  return new Promise((resolve) => {
    let done = false;
    const finish = (out: Omit<Outcome, "ms">): void => {
      if (done) return;
      done = true;
      resolve({ ...out, ms: performance.now() - started });
    };
    const fail = (e: unknown): void => finish({ status: 0, headers: {}, body: "", error: o.signal?.aborted === true ? "aborted" : ((e as NodeJS.ErrnoException).code ?? String(e)) });
    if (o.signal?.aborted === true) return fail(undefined);
    const headers = { ...(o.body === undefined ? {} : { "Content-Type": "application/json" }), ...o.headers };
    const req = request(url, { method: o.method ?? "GET", localAddress: o.from, agent: o.agent ?? false, headers, signal: o.signal }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        if (body.length < keep) body += chunk.slice(0, keep - body.length);
      });
      res.on("end", () => finish({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", fail);
      res.on("aborted", () => fail(Object.assign(new Error("aborted"), { code: "ECONNRESET" })));
    });
    req.on("error", fail);
    req.end(o.body);
  });
}

/** Records `out` in `tally`: its status and time, or its failure. */
export function record(tally: Tally, out: Outcome): void {
  if (out.status === 0) tally.add(out.error === "aborted" ? "aborted" : `error:${out.error}`);
  else tally.answered(out.status, out.ms, out.body);
}

/**
 * Requests one after another, each started `intervalMs` after the previous one started or, when that
 * took longer, once it was answered (never two at once): a prober, or a writer. `stop` aborts the one
 * still waiting and gives its time so far.
 */
export class PacedLoop {
  readonly outcomes: Outcome[] = [];
  readonly #stopping = new AbortController();
  readonly #done: Promise<void>;
  #pendingSince: number | undefined;

  /** `onOutcome` is told of each answer or failure as it comes. */
  constructor(
    intervalMs: number,
    step: (i: number, signal: AbortSignal) => Promise<Outcome>,
    onOutcome?: (out: Outcome) => void,
  ) {
    this.#done = (async () => {
      const signal = this.#stopping.signal;
      for (let i = 0; !signal.aborted; i++) {
        const started = performance.now();
        this.#pendingSince = started;
        const out = await step(i, signal);
        this.#pendingSince = undefined;
        if (signal.aborted) break;
        this.outcomes.push(out);
        onOutcome?.(out);
        const rest = started + intervalMs - performance.now();
        if (rest > 0) await sleep(rest, signal);
      }
    })();
  }

  /** Ends the loop: the milliseconds the request still waiting had waited (undefined: none was). */
  async stop(): Promise<number | undefined> {
    const pending = this.#pendingSince === undefined ? undefined : performance.now() - this.#pendingSince;
    this.#stopping.abort();
    await this.#done;
    return pending;
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * `concurrency` loops, each sending `next(k)` (k counts every request of all loops) as soon as its
 * previous one ended, until `signal` aborts; every outcome goes to `onOutcome`.
 */
export async function keepBusy(concurrency: number, signal: AbortSignal, next: (k: number) => Promise<Outcome>, onOutcome: (out: Outcome, k: number) => void): Promise<void> {
  let k = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (!signal.aborted) {
        const mine = k++;
        const out = await next(mine);
        onOutcome(out, mine);
      }
    }),
  );
}

/** How an event stream held open ended: still `open`, `end` (the server ended it cleanly) or `error:CODE` (cut). */
export class HeldStream {
  frames = 0;
  heartbeats = 0;
  bytes = 0;
  state = "open";
  /** The start of the last line received (what a stream the server ended said last). */
  last = "";
  /** Resolves once the stream has ended, either way. */
  readonly done: Promise<void>;
  #rest = "";
  #done!: () => void;

  constructor(private readonly res: IncomingMessage) {
    this.done = new Promise((resolve) => (this.#done = resolve));
    res.once("close", () => this.#done());
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      this.bytes += chunk.length;
      const lines = (this.#rest + chunk).split("\n");
      this.#rest = lines.pop()!;
      for (const line of lines) {
        if (line === "{}") this.heartbeats++;
        else if (line !== "") this.frames++;
        if (line !== "") this.last = line.slice(0, 160);
      }
    });
    res.on("end", () => this.#ended("end"));
    res.on("error", (e: NodeJS.ErrnoException) => this.#ended(`error:${e.code ?? e.message}`));
    res.on("aborted", () => this.#ended("error:ECONNRESET"));
  }

  #ended(state: string): void {
    if (this.state === "open") this.state = state;
    this.#done();
  }

  /** Closes the client's side (at the window's end). */
  close(): void {
    this.res.destroy();
  }
}

/**
 * Opens an event stream from `from`: a 200 is held open (`stream`); any other answer is read whole.
 * `signal` aborts it while it waits for its answer.
 */
export function openStream(url: string, from: string, signal?: AbortSignal): Promise<{ outcome: Outcome; stream?: HeldStream }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let done = false;
    const finish = (outcome: Omit<Outcome, "ms">, stream?: HeldStream): void => {
      if (done) return;
      done = true;
      resolve({ outcome: { ...outcome, ms: performance.now() - started }, ...(stream === undefined ? {} : { stream }) });
    };
    if (signal?.aborted === true) return finish({ status: 0, headers: {}, body: "", error: "aborted" });
    const req = request(url, { localAddress: from, agent: false, signal }, (res) => {
      if (res.statusCode === 200) return finish({ status: 200, headers: res.headers, body: "" }, new HeldStream(res));
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => finish({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on("error", () => finish({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", (e: NodeJS.ErrnoException) => finish({ status: 0, headers: {}, body: "", error: signal?.aborted === true ? "aborted" : (e.code ?? e.message) }));
    req.end();
  });
}

/** Streams held open by how they ended, and the last line one of each had received (ended ones only). */
export function streamStates(streams: readonly HeldStream[]): { states: Record<string, number>; lastLines: Record<string, string> } {
  const states: Record<string, number> = {};
  const lastLines: Record<string, string> = {};
  for (const s of streams) {
    states[s.state] = (states[s.state] ?? 0) + 1;
    if (s.state !== "open" && lastLines[s.state] === undefined) lastLines[s.state] = s.last;
  }
  return { states, lastLines };
}
