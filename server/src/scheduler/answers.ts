/**
 * Answers of list requests, computed once and shared: every request (in particular every blocking
 * query woken by the same write) that asks the same page of the same state gets the same computed
 * answer, encoded once into chunks of bytes that each response streams. Computing and encoding run in
 * slices across event-loop turns, so a long list never holds the loop for long.
 */
import { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import { Lru } from "./filters.js";
import type { Table } from "./state.js";

/** A computed page: the index of the state it was read at, its next token, its JSON as byte chunks, its cost. */
export interface Answer {
  index: number;
  nextToken: string;
  chunks: readonly Buffer[];
  bytes: number;
  /** Evaluation steps the filter took to read the page. */
  steps: number;
}

/** Items encoded between two yields to the event loop, and the size of one streamed chunk. */
const ENCODE_SLICE = 256;
const CHUNK_BYTES = 64 * 1024;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * The JSON of a list, as `JSON.stringify(items)` (or with `pretty`, `JSON.stringify(items, null, 4)`
 * and a newline) would write it, in chunks of about 64 KiB, yielding to the event loop between slices.
 */
export async function encodeList(items: readonly unknown[], pretty: boolean): Promise<{ chunks: Buffer[]; bytes: number }> {
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

/** Sends an answer's JSON: small ones as one buffer, large ones streamed (with backpressure). */
export function sendAnswer(reply: FastifyReply, answer: Answer): FastifyReply {
  void reply.type("application/json");
  if (answer.chunks.length === 1) return reply.send(answer.chunks[0]);
  return reply.send(Readable.from(answer.chunks, { objectMode: false }));
}

/**
 * Answers being computed or computed at the current index of their table, keyed by everything that
 * decides the page. An entry is dropped when its table's index moves; at most `entries` answers and
 * `maxBytes` bytes of them are kept (the newest always, while requests use it).
 */
export class AnswerCache {
  private readonly caches: Record<Table, { index: number; answers: Lru<string, Promise<Answer>> }>;
  /** Answers computed (not shared). */
  computed = 0;

  constructor(entries = 32, maxBytes = 128 * 1024 * 1024) {
    this.caches = {
      jobs: { index: -1, answers: new Lru(entries, maxBytes) },
      deployments: { index: -1, answers: new Lru(entries, maxBytes) },
    };
  }

  /** The shared answer of `key` on `table` at `index`, computing it with `compute` when there is none. */
  get(table: Table, index: number, key: string, compute: () => Promise<Answer>): Promise<Answer> {
    const cache = this.caches[table];
    if (cache.index !== index) {
      cache.index = index;
      cache.answers.clear();
    }
    const answers = cache.answers;
    const hit = answers.get(key);
    if (hit !== undefined) return hit;
    this.computed++;
    const answer = compute();
    answers.set(key, answer, 0);
    answer.then(
      (a) => {
        // Weigh the entry once its size is known (re-inserting keeps it the newest).
        if (answers.get(key) === answer) answers.set(key, answer, a.bytes);
      },
      () => {
        if (answers.get(key) === answer) answers.delete(key);
      },
    );
    return answer;
  }
}
