/**
 * Request heads that arrive piece by piece, held until they are whole and then given to Node's HTTP
 * parser in one piece, in turn with other such heads, within a budget.
 *
 * Node's parser copies what it has of a URL or header value each time more of it arrives (its
 * `StringPtr::Update`): a 1 MiB head read in n pieces costs n/2 MiB of copies, and each unfinished
 * head keeps its copy. And a whole 1 MiB head still costs the parser about a millisecond: 200 of them
 * written at once held the event loop for the whole batch. A connection is read by Node's parser
 * itself (in C++) as long as every read leaves no head unfinished, as ordinary requests do; after a
 * read that does, the gate reads the connection instead, for good. The parser has that head's first
 * piece (its headers timeout runs from it, on keep-alive connections too); the gate holds the
 * following pieces until a line end followed by an empty line arrives; then the connection stops
 * being read and the head waits for its client's turn of the event loop (`Turns`: one head per turn,
 * clients in rotation, other I/O between turns), when everything held goes to the parser in one
 * buffer (one copy, however many pieces). A later head that arrives in pieces on the connection is
 * read the same way (its first piece to the parser at once); bodies, and heads that arrive in one
 * read, go to the parser at once, unheld.
 *
 * What such heads take is counted in a `HeadBudget`, per client and in total: the bytes held until the
 * parser has them, and the CPU time parsing them took. A piece that would take the bytes past a bound,
 * or that starts a head when its client (or all of them) used up its share of the loop's time,
 * refuses its connection: it is read no more and answered `503` with `Retry-After: 1` a second later
 * (a client that waits for the answer opens no new connection meanwhile: the listener accepts one
 * connection per turn of the loop, whoever's). A head longer than `maxHeadBytes` is refused at once,
 * as the parser refuses one (`431`). Both are answered by the listener's `clientError` handler, as the
 * parser's own errors, and the connection is closed a second after the answer (time for the client to
 * read it).
 */
import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";
import { clientOfAddress, Turns } from "../turns.js";
import type { HeadBudget } from "./head-budget.js";

/** The error code of a connection refused because unfinished heads hold too much (`503`). */
export const HEADS_OVER_BUDGET = "ERR_HEADS_OVER_BUDGET";
/** The error code of a head longer than the listener reads: the parser's own (`431`). */
const HEAD_TOO_LARGE = "HPE_HEADER_OVERFLOW";
/** How long a refused connection stays open (unread) so that its client can read the answer. */
export const REFUSED_LINGER_MS = 1000;

const LF = 0x0a;
const CR = 0x0d;
/** `headEnd`'s answer when a piece ends a head. */
const ENDED = -1;

/**
 * Whether `piece` ends a head: it holds a line end followed by an empty line (`\n\n` or `\n\r\n`, which
 * every head's end holds, and only a head's end or empty lines before a request line do). `carry` is
 * how much of one the pieces before ended with (0: none, 1: `\n`, 2: `\n\r`). Returns `ENDED`, or the
 * carry for the next piece.
 */
export function headEnd(piece: Uint8Array, carry: number): number {
  let at = 0;
  for (let state = carry; state > 0 && at < piece.length; at++) {
    const byte = piece[at];
    if (byte === LF) return ENDED;
    state = state === 1 && byte === CR ? 2 : 0;
    if (state === 2 && at === piece.length - 1) return 2;
  }
  for (let lf = piece.indexOf(LF, at); lf >= 0; lf = piece.indexOf(LF, lf + 1)) {
    const next = piece[lf + 1];
    if (next === undefined) return 1;
    if (next === LF) return ENDED;
    if (next === CR) {
      const after = piece[lf + 2];
      if (after === undefined) return 2;
      if (after === LF) return ENDED;
    }
  }
  return 0;
}

/** Whether `piece` holds a byte other than CR and LF (the parser skips empty lines before a request). */
function startsRequest(piece: Uint8Array): boolean {
  for (const byte of piece) if (byte !== CR && byte !== LF) return true;
  return false;
}

/** Node's per-connection parser, as far as the gate uses it. */
interface Parser {
  /** The request whose head the parser read last (its body may still be arriving). */
  incoming?: IncomingMessage | null;
  /** Whether the message it reads has its head whole (false too before the first message starts). */
  headersCompleted(): boolean;
  /** A copy of the read it is parsing (while its after-read callback runs). */
  getCurrentBuffer(): Buffer;
}

/** The key of Node's callback after each read its parser parsed itself ("bound onParserExecute"). */
function afterReadKey(parser: Parser): string | undefined {
  const fields = parser as unknown as Record<string, unknown>;
  return Object.keys(fields).find((key) => typeof fields[key] === "function" && (fields[key] as () => void).name === "bound onParserExecute");
}

/** One connection's gate: see the module's comment. */
class Gate {
  private readonly client: string;
  /** Pieces of the current head held back from the parser. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of the current head the parser or the gate holds (taken from the budget). */
  private headBytes = 0;
  /** Whether the parser has the current head's first piece. */
  private started = false;
  /** `headEnd`'s carry. */
  private carry = 0;
  /** While the whole head waits for its turn (the connection is not read meanwhile): cancels the wait. */
  private queued: AbortController | undefined;
  /** Pieces that arrived while the head was queued (the socket was resumed by another): read after it. */
  private later: Buffer[] = [];
  private refused = false;
  private linger: NodeJS.Timeout | undefined;

  constructor(
    private readonly server: Server,
    private readonly socket: Socket,
    private readonly parser: Parser,
    /** Node's `data` listener: gives a piece to the parser. */
    private readonly parse: (piece: Buffer) => void,
    private readonly budget: HeadBudget,
    private readonly turns: Turns,
    private readonly maxHeadBytes: number,
  ) {
    this.client = clientOfAddress(socket.remoteAddress);
  }

  /**
   * From now on the gate reads the connection: the parser read `bytes` (the read it just parsed, in
   * its after-read callback) and has an unfinished head, whose start it holds. Refused at once when
   * the budget says so (the connection is then never read by the gate).
   */
  takeOver(bytes: number): void {
    this.socket.on("close", this.onClose);
    if (!this.budget.take(this.client, bytes, true)) return this.refuse(HEADS_OVER_BUDGET);
    this.headBytes = bytes;
    const current = this.parser.getCurrentBuffer();
    this.started = startsRequest(current);
    this.carry = Math.max(0, headEnd(current.subarray(-2), 0));
    this.socket.removeListener("data", this.parse);
    // Node's listener wrapper stops the parser reading the socket by itself: every read comes here.
    this.socket.on("data", this.onData);
    this.socket.prependListener("end", this.onEnd);
  }

  readonly onData = (piece: Buffer): void => {
    if (this.refused) return;
    if (this.queued !== undefined) {
      this.socket.pause();
      this.later.push(piece);
      return;
    }
    const request = this.parser.incoming;
    // A body (the parser read this request's head and waits for the rest): the parser's.
    if (request != null && !request.complete) return this.forward(piece);
    const carry = headEnd(piece, this.carry);
    if (carry === ENDED) {
      if (this.pending.length === 0) {
        // In one piece (nothing held), or in two: the first is with the parser already.
        const pieced = this.headBytes > 0;
        this.endHead();
        return pieced ? this.forwardCharged(piece) : this.forward(piece);
      }
      // The head's last piece (and whatever followed it): the head waits for its turn, whole.
      if (!this.budget.take(this.client, piece.length, false)) return this.refuse(HEADS_OVER_BUDGET);
      this.headBytes += piece.length;
      this.pending.push(piece);
      this.pendingBytes += piece.length;
      this.wait();
      return;
    }
    this.carry = carry;
    // What the gate holds is part of the head: past the bound, so is the head (the parser counts the rest).
    if (this.pendingBytes + piece.length > this.maxHeadBytes) return this.refuse(HEAD_TOO_LARGE);
    if (!this.budget.take(this.client, piece.length, this.headBytes === 0)) return this.refuse(HEADS_OVER_BUDGET);
    this.headBytes += piece.length;
    if (!this.started) {
      // The head's first piece: the parser starts its headers timeout (empty lines start nothing).
      this.started = startsRequest(piece);
      return this.forward(piece);
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
  };

  /** The client ended its side: the parser gets what was held first (it answers an unfinished head). */
  readonly onEnd = (): void => {
    if (this.refused || this.pending.length === 0) return;
    const rest = Buffer.concat(this.pending, this.pendingBytes);
    this.endHead();
    this.forwardCharged(rest);
  };

  readonly onClose = (): void => {
    clearTimeout(this.linger);
    this.queued?.abort();
    this.later = [];
    this.endHead();
  };

  /** The whole head waits for its client's turn, the connection unread meanwhile. */
  private wait(): void {
    const queued = new AbortController();
    this.queued = queued;
    this.socket.pause();
    this.turns.next(this.client, queued.signal).then(
      () => this.parseQueued(),
      () => undefined, // the connection closed meanwhile
    );
  }

  /** The head's turn: the parser gets it whole, and the connection is read again. */
  private parseQueued(): void {
    this.queued = undefined;
    if (this.socket.destroyed || this.refused) return;
    const whole = Buffer.concat(this.pending, this.pendingBytes);
    this.endHead();
    this.forwardCharged(whole);
    // Unless the parser paused the connection itself (answers piling up), or let go of it.
    if (!this.socket.destroyed && (this.socket as Socket & { _paused?: boolean })._paused !== true) this.socket.resume();
    for (const piece of this.later.splice(0)) this.onData(piece);
  }

  /**
   * `forward`, the time it takes counted against the client's share of the loop (a head in pieces):
   * the process's CPU time, so that other processes on a busy machine do not make it dearer.
   */
  private forwardCharged(piece: Buffer): void {
    const started = process.cpuUsage();
    try {
      this.forward(piece);
    } finally {
      const used = process.cpuUsage(started);
      this.budget.charge(this.client, (used.user + used.system) / 1000);
    }
  }

  /** Gives `piece` to the parser; a connection the parser let go of (an upgrade) is no longer gated. */
  private forward(piece: Buffer): void {
    this.parse(piece);
    if ((this.socket as Socket & { parser?: unknown }).parser !== this.parser) this.detach();
  }

  /** The current head is over: given to the parser, or refused, or its connection closed. */
  private endHead(): void {
    this.budget.give(this.client, this.headBytes);
    this.pending = [];
    this.pendingBytes = 0;
    this.headBytes = 0;
    this.started = false;
    this.carry = 0;
  }

  /** Answers the head with the listener's `clientError` handler, reads no more, closes soon after. */
  private refuse(code: string): void {
    this.refused = true;
    this.endHead();
    this.socket.pause();
    const error = Object.assign(new Error(code === HEADS_OVER_BUDGET ? "unfinished request heads hold too much" : "request head too large"), { code });
    const answer = (): void => {
      this.server.emit("clientError", error, this.socket);
      this.linger = setTimeout(() => this.socket.destroy(), REFUSED_LINGER_MS);
      this.linger.unref();
    };
    // Over the budget, the answer waits a second (see the module's comment).
    if (code === HEADS_OVER_BUDGET) {
      this.linger = setTimeout(answer, REFUSED_LINGER_MS);
      this.linger.unref();
    } else answer();
  }

  private detach(): void {
    this.endHead();
    this.later = [];
    this.socket.removeListener("data", this.onData);
    this.socket.removeListener("end", this.onEnd);
  }
}

/**
 * Gates the request heads of every connection `server` accepts from now on (see the module's
 * comment): once a read leaves a head unfinished, the gate reads the connection, holding what heads
 * in pieces take in `budget` and parsing them in their clients' turns (`turns`); a head that holds
 * more than `maxHeadBytes` is refused (`431`). Call it once the server exists: its HTTP connection
 * listener must run first. A connection whose parser is not Node's as this expects (its `data`
 * listener, its after-read callback) is left as Node made it.
 */
export function gateHeads(server: Server, budget: HeadBudget, turns: Turns, maxHeadBytes: number): void {
  server.on("connection", (socket: Socket & { parser?: Parser | null; _paused?: boolean }) => {
    const parser = socket.parser;
    const listeners = socket.listeners("data") as ((piece: Buffer) => void)[];
    const parse = listeners[0];
    if (parser == null || listeners.length !== 1 || parse?.name !== "bound socketOnData") return;
    const key = afterReadKey(parser);
    if (key === undefined) return;
    const fields = parser as unknown as Record<string, (result: unknown) => void>;
    const afterRead = fields[key] as (result: unknown) => void;
    fields[key] = (result: unknown): void => {
      afterRead(result);
      // Still Node's, whole so far, or being closed (an error, a pause for answers piling up): as it is.
      if (typeof result !== "number" || socket.parser !== parser || socket.destroyed || !socket.writable || socket._paused === true || parser.headersCompleted()) return;
      fields[key] = afterRead;
      new Gate(server, socket, parser, parse, budget, turns, maxHeadBytes).takeOver(result);
    };
  });
}

/** The process's turns for heads that arrived in pieces: both listeners of every server in the process. */
export const PIECED_HEAD_TURNS = new Turns();
