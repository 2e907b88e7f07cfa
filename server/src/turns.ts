/**
 * Turns of the event loop for long work (list scans, event stream replays, page waits' deferred
 * checks, request heads in pieces), shared fairly by the clients that ask for them. A piece of long work
 * runs in slices of a few milliseconds (plus the item it is on, which may take a whole per-item
 * budget); between two slices it waits for its turn. One slice runs per turn of the event loop, so I/O
 * (a `/health` request, a cheap list request) is served between any two slices whatever number of
 * scans run, and after a slice that took longer than `SLICE_MS` the loop turns that many more times
 * (without work) before the next one: a request that needs several round trips (to PostgreSQL, say)
 * makes one per `SLICE_MS` of long work, not one per slice. The clients waiting take turns in rotation
 * (within a client, its pieces of work in rotation): a client with a hundred scans gets the same share
 * of the loop as a client with one.
 */
import { isIPv4 } from "node:net";
import { ClientGone } from "./lists/errors.js";

/** Who a piece of work is for (`clientOf`): a token, or a remote address (`clientOfAddress`). */
export type ClientKey = object | string;

/**
 * The client a remote address stands for: an IPv4 address (an IPv4-mapped IPv6 address is its IPv4
 * address), or the /64 prefix of an IPv6 address (one host's usual share, which a host can fill with
 * addresses of its own) as four hex groups, `2001:db8:0:0/64`.
 */
export function clientOfAddress(address: string | undefined): string {
  if (address === undefined || address === "") return "unknown";
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return mapped[1] as string;
  if (isIPv4(address)) return address;
  const [front = "", back] = address.replace(/%.*$/, "").toLowerCase().split("::");
  const groups = (text: string): string[] => (text === "" ? [] : text.split(":"));
  // `::` stands for the zero groups between the front and the back.
  const all = back === undefined ? groups(front) : [...groups(front), ...Array<string>(Math.max(0, 8 - groups(front).length - groups(back).length)).fill("0"), ...groups(back)];
  return `${all
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}/64`;
}

interface Waiting {
  resume(): void;
}

/** The slice a piece of work runs before it yields its turn (its own clock: `slicer` in scheduler/list.ts). */
export const SLICE_MS = 4;
/** Loop turns without work after a long slice, at most. */
const MAX_IDLE_TURNS = 16;

export class Turns {
  /** The clients waiting for a turn, in the order of the rotation, each with its queue. */
  readonly #queues = new Map<ClientKey, Waiting[]>();
  #scheduled = false;
  /** When the slice being run began (`performance.now()`), until it yields (asks for its next turn). */
  #sliceStarted: number | undefined;
  /** Loop turns left without work before the next slice. */
  #idleTurns = 0;
  /** Slices run (for the metrics). */
  slices = 0;

  /** Pieces of work waiting for a turn. */
  get waiting(): number {
    let n = 0;
    for (const queue of this.#queues.values()) n += queue.length;
    return n;
  }

  /**
   * Resolves when it is `client`'s turn for its next slice; rejects with `ClientGone` when `signal`
   * aborts first (the work stops where it stands).
   */
  next(client: ClientKey, signal?: AbortSignal): Promise<void> {
    if (this.#sliceStarted !== undefined) {
      // The slice just run yields (its work runs in the microtasks right after its turn): as many turns
      // as it took `SLICE_MS`, without work, before the next slice. (Not the rest of the loop's turn:
      // heavy I/O then would delay the next slice, a cheap request's included, for nothing.)
      this.#idleTurns = Math.min(MAX_IDLE_TURNS, Math.floor((performance.now() - this.#sliceStarted) / SLICE_MS) - 1);
      this.#sliceStarted = undefined;
    }
    if (signal?.aborted) return Promise.reject(new ClientGone());
    return new Promise<void>((resolve, reject) => {
      const entry: Waiting = { resume: resolve };
      if (signal !== undefined) {
        const onAbort = (): void => {
          const queue = this.#queues.get(client);
          const at = queue?.indexOf(entry) ?? -1;
          if (at >= 0) {
            queue!.splice(at, 1);
            if (queue!.length === 0) this.#queues.delete(client);
          }
          reject(new ClientGone());
        };
        signal.addEventListener("abort", onAbort, { once: true });
        entry.resume = () => {
          signal.removeEventListener("abort", onAbort);
          resolve();
        };
      }
      const queue = this.#queues.get(client);
      if (queue === undefined) this.#queues.set(client, [entry]);
      else queue.push(entry);
      this.#schedule();
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#queues.size === 0) return;
    this.#scheduled = true;
    // A turn asked for while a slice runs (in a check phase) comes in the next loop iteration, after I/O.
    setImmediate(() => this.#turn());
  }

  /**
   * One slice: the first client of the rotation resumes its oldest waiting work and goes to the end;
   * or, after a long slice, one loop turn without work.
   */
  #turn(): void {
    this.#scheduled = false;
    // A slice that ended without asking for another (its work is done) counts as short.
    this.#sliceStarted = undefined;
    if (this.#idleTurns > 0) {
      this.#idleTurns--;
      return this.#schedule();
    }
    const first = this.#queues.entries().next();
    if (first.done === true) return;
    const [client, queue] = first.value;
    const entry = queue.shift()!;
    this.#queues.delete(client);
    if (queue.length > 0) this.#queues.set(client, queue);
    this.slices++;
    this.#sliceStarted = performance.now();
    entry.resume();
    this.#schedule();
  }
}
