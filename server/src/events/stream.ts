/** One open event stream: its connection, what it writes, and how it ends. */
import type { ServerResponse } from "node:http";
import type { GuardedFilter, Admission } from "./selection.js";
import { errorFrame, frameOf, HEARTBEAT, type RecordedEvent } from "./records.js";
import type { ClientKey } from "../turns.js";

/** The bounds of one stream. */
export interface StreamLimits {
  /** A `{}` heartbeat after this long without a write. */
  readonly heartbeatMs: number;
  /** Bytes the connection may hold unsent (Node's buffer over the kernel's); past it the stream is cut. */
  readonly maxBytes: number;
}

/**
 * Why a stream ended: its client went away (or its connection was closed for making no progress),
 * it fell past `maxBytes` behind (`slow`), the buffer dropped events it had not sent yet while it
 * replayed or the store's feed lost writes (`lagged`), its filter ran out of its share of the fan-out
 * budget on an event (`expensive`: ended with an error frame), or the server shut down.
 */
export type EndReason = "closed" | "slow" | "lagged" | "expensive" | "shutdown";

/**
 * A stream's response: frames (`{"Index": N, "Events": [...]}`) and heartbeats (`{}`), one per line.
 * A write that leaves more than `maxBytes` unsent on the connection cuts it (a reset: neither Node
 * nor the kernel keeps the backlog), so that a client that does not read never costs more memory.
 */
export class EventStream {
  /** Writes up to this index were given to the stream (sent, or nothing in them was for it). */
  cursor: number;
  /** True once the stream receives live writes (its replay is over). */
  live = false;
  #ended = false;
  readonly #heartbeat: NodeJS.Timeout;

  constructor(
    private readonly res: ServerResponse,
    /** Who opened it (its share of the loop's turns while it replays). */
    readonly client: ClientKey,
    /** The ACL, namespace and topic checks. */
    readonly admission: Admission,
    /** The filter behind the admission, when the request has one. */
    readonly filter: GuardedFilter | undefined,
    fromIndex: number,
    private readonly limits: StreamLimits,
    private readonly onEnd: (stream: EventStream, reason: EndReason) => void,
  ) {
    this.cursor = fromIndex;
    this.#heartbeat = setTimeout(() => this.#beat(), limits.heartbeatMs);
    res.once("close", () => this.#finish("closed"));
    res.on("error", () => this.#finish("closed"));
    // A client that left before its stream began (its "close" came already): ended once it is opened.
    if (res.socket === null || res.socket.destroyed) queueMicrotask(() => this.#finish("closed"));
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Writes a frame; false when the connection's buffer is past its high-water mark (wait for `onDrain`). */
  send(index: number, events: readonly RecordedEvent[]): boolean {
    return this.#write(frameOf(index, events));
  }

  /** Calls `resume` once the connection's buffer has drained (not if the stream ends first). */
  onDrain(resume: () => void): void {
    this.res.once("drain", () => {
      if (!this.#ended) resume();
    });
  }

  /** Ends the response cleanly (shutdown): every frame written so far reaches the client. */
  end(): void {
    if (this.#finish("shutdown")) this.res.end();
  }

  /**
   * Ends the stream with a last frame `{"Error": message}` (after every frame written so far) and a
   * clean end of the response: the client reads why its stream ended.
   */
  fail(message: string): void {
    if (!this.#finish("expensive")) return;
    this.res.end(errorFrame(message));
  }

  /** Cuts the connection at once (a reset). */
  cut(reason: "slow" | "lagged"): void {
    if (!this.#finish(reason)) return;
    const socket = this.res.socket;
    if (socket !== null && !socket.destroyed) socket.resetAndDestroy();
    else this.res.destroy();
  }

  #beat(): void {
    this.#write(HEARTBEAT);
  }

  #write(text: string): boolean {
    if (this.#ended) return true;
    const below = this.res.write(text);
    this.#heartbeat.refresh();
    if (this.res.writableLength > this.limits.maxBytes) {
      this.cut("slow");
      return true;
    }
    return below;
  }

  /** Marks the stream ended (once): false when it already was. */
  #finish(reason: EndReason): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    clearTimeout(this.#heartbeat);
    this.onEnd(this, reason);
    return true;
  }
}
