/**
 * The process's streams as the CLI sees them, so that `run` can be driven by the entry point with
 * the real process and reasoned about without it; plus a writer that respects back-pressure.
 */
import type { Readable, Writable } from "node:stream";

/** A writable stream that may be a terminal. */
export type OutStream = Writable & { readonly isTTY?: boolean };

/** Standard streams and environment. */
export interface Io {
  readonly stdin: Readable & { readonly isTTY?: boolean };
  readonly stdout: OutStream;
  readonly stderr: OutStream;
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * Buffers text and writes it in large pieces, waiting for `drain` when the stream asks to: printing
 * a million matching items keeps memory flat and stays fast.
 */
export class BufferedWriter {
  private parts: string[] = [];
  private size = 0;

  constructor(
    private readonly stream: Writable,
    private readonly highWater = 1 << 16,
  ) {}

  /** Queues `text`; resolves once it is safe to write more. */
  async write(text: string): Promise<void> {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= this.highWater) await this.flush();
  }

  /** Writes what is queued and waits for the stream to drain if it is full. */
  async flush(): Promise<void> {
    if (this.size === 0 && this.parts.length === 0) return;
    const text = this.parts.join("");
    this.parts = [];
    this.size = 0;
    if (!this.stream.write(text)) await waitForDrain(this.stream);
  }
}

/** Resolves on the stream's next `drain`, or when it closes or fails (nothing more can be written). */
function waitForDrain(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      stream.off("error", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
    stream.on("error", done);
  });
}

/** Writes `text` to a stream and waits until it is accepted. */
export async function writeAll(stream: Writable, text: string): Promise<void> {
  if (text === "") return;
  if (!stream.write(text)) await waitForDrain(stream);
}
