/**
 * Answers of list requests, computed once and shared: every request (in particular every blocking
 * query woken by the same write) that asks the same page of the same state gets the same computed
 * answer, encoded once into chunks of bytes that each response streams. Computing and encoding run in
 * slices across event-loop turns, so a long list never holds the loop for long. The bytes of the answers
 * in flight (being encoded, or held by a response that sends them) are counted and bounded (`InFlight`).
 */
import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import { closeWhenStalled } from "../ops/connections.js";
import { Lru } from "../lists/filters.js";
import type { PageRegion } from "../lists/page-region.js";
import type { Table } from "../lists/records.js";

/** What a read of a page decides besides its items: the index of the state it read, its next token. */
export interface PageMeta {
  index: number;
  nextToken: string;
  /** Where the page lies in its list (a blocking query that waits for its page to change keeps it). */
  region?: PageRegion<unknown>;
}

/** A computed page: its meta and its JSON as byte chunks. */
export interface Answer extends PageMeta {
  chunks: readonly Buffer[];
  bytes: number;
}

/** Default bound of the bytes of list answers in flight across the server (`--answer-memory`). */
export const ANSWER_BYTES_IN_FLIGHT = 512 * 1024 * 1024;
/** Seconds a client refused for answers in flight is told to wait (`Retry-After`). */
export const BUSY_RETRY_AFTER_S = 1;

/** An answer that would take the answers in flight past their bound: the request is answered 503. */
export class AnswersBusy extends Error {
  constructor(limit: number) {
    super(`list answers in flight exceed ${formatBytes(limit)}; retry later`);
  }
}

/** Bytes as the options write them: `512MiB`, `64KiB`, `100B`. */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [["GiB", 2 ** 30], ["MiB", 2 ** 20], ["KiB", 2 ** 10]] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return `${bytes}B`;
}

/**
 * The bytes of list answers in flight across the server: chunks being encoded, and answers held by the
 * responses sending them (a shared answer counts once however many responses send it, from the first
 * until the last one's connection is done with it). A response whose client does not read keeps its
 * answer counted until its connection closes (`closeWhenStalled`). Answers kept only by the shared
 * cache are not counted: the cache has its own bound.
 */
export class InFlight {
  private current = 0;
  private readonly holders = new Map<Answer, number>();

  /** Bytes in flight now. */
  get bytes(): number {
    return this.current;
  }

  /** Whether the answers in flight exceed `limit`: a new list request is then refused (503). */
  over(limit: number): boolean {
    return this.current > limit;
  }

  /**
   * Counts an encoding's chunks as they are made. A chunk that takes the total past `limit` while other
   * answers are in flight throws `AnswersBusy` (an answer alone may exceed the bound, so that a list
   * larger than it can still be read). `done` gives the encoding's bytes back.
   */
  meter(limit: number): { add(bytes: number): void; done(): void } {
    let mine = 0;
    return {
      add: (bytes) => {
        mine += bytes;
        this.current += bytes;
        if (this.current > limit && mine < this.current) throw new AnswersBusy(limit);
      },
      done: () => {
        this.current -= mine;
        mine = 0;
      },
    };
  }

  /** Counts `answer` while the returned release (idempotent) has not been called. */
  hold(answer: Answer): () => void {
    const n = this.holders.get(answer) ?? 0;
    if (n === 0) this.current += answer.bytes;
    this.holders.set(answer, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.holders.get(answer) ?? 1) - 1;
      if (left > 0) this.holders.set(answer, left);
      else {
        this.holders.delete(answer);
        this.current -= answer.bytes;
      }
    };
  }
}

/** Items encoded between two yields to the event loop, and the size of one streamed chunk. */
const ENCODE_SLICE = 256;
const CHUNK_BYTES = 64 * 1024;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The JSON of a list, as `JSON.stringify(items)` (or with `pretty`, `JSON.stringify(items, null, 4)`
 * and a newline) would write it, in chunks of about 64 KiB, yielding to the event loop between slices.
 * `count` sees each chunk's size as it is made (and may throw to stop the encoding).
 */
export async function encodeList(items: readonly unknown[], pretty: boolean, count?: (bytes: number) => void): Promise<{ chunks: Buffer[]; bytes: number }> {
  if (items.length === 0) return { chunks: [Buffer.from(pretty ? "[]\n" : "[]")], bytes: pretty ? 3 : 2 };
  const chunks: Buffer[] = [];
  let bytes = 0;
  let pending: string[] = [pretty ? "[\n" : "["];
  let pendingLength = 1;
  const flush = (): void => {
    const chunk = Buffer.from(pending.join(""), "utf8");
    chunks.push(chunk);
    bytes += chunk.length;
    pending = [];
    pendingLength = 0;
    count?.(chunk.length);
  };
  for (let i = 0; i < items.length; i++) {
    if (i > 0 && i % ENCODE_SLICE === 0) await nextTurn();
    const text = pretty ? `    ${JSON.stringify(items[i], null, 4).replaceAll("\n", "\n    ")}` : JSON.stringify(items[i]);
    const separator = i === 0 ? "" : pretty ? ",\n" : ",";
    pending.push(separator, text);
    pendingLength += separator.length + text.length;
    if (pendingLength >= CHUNK_BYTES) flush();
  }
  pending.push(pretty ? "\n]\n" : "]");
  flush();
  return { chunks, bytes };
}

/**
 * A page read encoded into an answer, its chunks counted in `inFlight` while they are made; throws
 * `AnswersBusy` when they would take the answers in flight past `limit`.
 */
export async function encodeAnswer(read: PageMeta & { items: readonly unknown[] }, pretty: boolean, inFlight: InFlight, limit: number): Promise<Answer> {
  const meter = inFlight.meter(limit);
  try {
    const { chunks, bytes } = await encodeList(read.items, pretty, meter.add);
    return { index: read.index, nextToken: read.nextToken, chunks, bytes };
  } finally {
    meter.done();
  }
}

/**
 * Sends an answer's JSON: small ones as one buffer, large ones streamed (with backpressure). The answer
 * counts in `inFlight` until the response is done with it, and a connection whose client reads nothing
 * for `stallMs` is closed (`closeWhenStalled`).
 */
export function sendAnswer(reply: FastifyReply, answer: Answer, inFlight: InFlight, stallMs: number): FastifyReply {
  const response = reply.raw;
  if (!response.destroyed) {
    response.once("close", inFlight.hold(answer));
    closeWhenStalled(response, stallMs);
  }
  void reply.type("application/json");
  if (answer.chunks.length === 1) return reply.send(answer.chunks[0]);
  return reply.send(Readable.from(answer.chunks, { objectMode: false }));
}

interface Shared<V> {
  index: number;
  values: Lru<string, Promise<V>>;
}

/**
 * Answers being computed or computed at the current index of their table, keyed by everything that
 * decides the page. An entry is dropped when its table's index moves; at most `entries` answers and
 * `maxBytes` bytes of them (their keys, which hold the filter, included) are kept (the newest always,
 * while requests use it). Blocking queries share
 * their first read the same way, keeping only its meta (`probe`).
 */
export class AnswerCache {
  private readonly answers = new Map<Table, Shared<Answer>>();
  private readonly probes = new Map<Table, Shared<PageMeta>>();
  /** The bytes of answers in flight across the server. */
  readonly inFlight = new InFlight();
  /** Answers computed (not shared). */
  computed = 0;
  /** Probes read (not shared). */
  probed = 0;
  /** Requests that joined an answer or a probe already being read (shared). */
  joined = 0;
  /** Reads of pages running now (a read all of whose requests left stops at its next turn). */
  reading = 0;

  constructor(
    private readonly entries = 32,
    private readonly maxBytes = 128 * 1024 * 1024,
  ) {}

  /** A table's cache in `caches`, made on first use with these bounds. */
  private static of<V>(caches: Map<Table, Shared<V>>, table: Table, entries: number, maxBytes: number): Shared<V> {
    let cache = caches.get(table);
    if (cache === undefined) caches.set(table, (cache = { index: -1, values: new Lru(entries, maxBytes) }));
    return cache;
  }

  /**
   * The shared answer of `key` on `table` at `index`, computing it with `compute` when there is none.
   * `signal` is the asking request's: the computation's own signal aborts once every request waiting
   * for it has gone.
   */
  get(table: Table, index: number, key: string, signal: AbortSignal, compute: (signal: AbortSignal) => Promise<Answer>): Promise<Answer> {
    return shared(AnswerCache.of(this.answers, table, this.entries, this.maxBytes), index, key, signal, compute, (a) => a.bytes + key.length * 2 + 64, (hit) => (hit ? this.joined++ : this.computed++));
  }

  /**
   * The shared meta of the page of `key` on `table` at `index` (what a blocking query needs to decide
   * whether to wait), reading it with `read` when there is none; nothing of the page's items is kept.
   */
  probe(table: Table, index: number, key: string, signal: AbortSignal, read: (signal: AbortSignal) => Promise<PageMeta>): Promise<PageMeta> {
    // A probe weighs its key (which holds the filter); 1,024 of them or 16 MiB of keys per table.
    return shared(AnswerCache.of(this.probes, table, 1024, 16 * 1024 * 1024), index, key, signal, read, () => key.length * 2 + 64, (hit) => (hit ? this.joined++ : this.probed++));
  }
}

/** The requests waiting for one shared read: its signal aborts when the last of them has gone. */
class Sharers {
  private waiting = 0;
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;

  /** Counts the request of `signal` until it aborts. */
  join(signal: AbortSignal): void {
    this.waiting++;
    const leave = (): void => {
      if (--this.waiting === 0) this.controller.abort();
    };
    if (signal.aborted) leave();
    else signal.addEventListener("abort", leave, { once: true });
  }
}

const sharers = new WeakMap<Promise<unknown>, Sharers>();

function shared<V>(
  cache: Shared<V>,
  index: number,
  key: string,
  signal: AbortSignal,
  compute: (signal: AbortSignal) => Promise<V>,
  weigh: (value: V) => number,
  counted: (shared: boolean) => void,
): Promise<V> {
  if (cache.index !== index) {
    cache.index = index;
    cache.values.clear();
  }
  const values = cache.values;
  const hit = values.get(key);
  // A read everyone has left is being cancelled: a new request reads again.
  const waiting = hit === undefined ? undefined : sharers.get(hit);
  if (hit !== undefined && waiting !== undefined && !waiting.signal.aborted) {
    waiting.join(signal);
    counted(true);
    return hit;
  }
  counted(false);
  const them = new Sharers();
  const value = compute(them.signal);
  sharers.set(value, them);
  them.join(signal);
  values.set(key, value, 0);
  value.then(
    (v) => {
      // Weigh the entry once its size is known (re-inserting keeps it the newest).
      if (values.get(key) === value) values.set(key, value, weigh(v));
    },
    () => {
      if (values.get(key) === value) values.delete(key);
    },
  );
  return value;
}
