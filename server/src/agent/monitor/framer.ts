/** Size limit of one frame's data, and how often batched log bytes and heartbeats are sent. */
export const FRAME_BYTES = 1024;
export const BATCH_MS = 200;
export const HEARTBEAT_MS = 1000;

export interface StreamFrame {
  Data: string;
  FileEvent: "log";
  Offset: number;
}

/**
 * Batches log bytes into frames of at most FRAME_BYTES: `{Data: base64, FileEvent: "log", Offset}`
 * where Offset is the position of the frame's first byte in the stream.
 */
export class Framer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private offset = 0;

  push(text: string): void {
    const bytes = Buffer.from(text, "utf8");
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
  }

  get empty(): boolean {
    return this.pendingBytes === 0;
  }

  /** The pending bytes as frames, oldest first; empties the batch. */
  drain(): StreamFrame[] {
    const all = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    const frames: StreamFrame[] = [];
    for (let at = 0; at < all.length; at += FRAME_BYTES) {
      const chunk = all.subarray(at, at + FRAME_BYTES);
      frames.push({ Data: chunk.toString("base64"), FileEvent: "log", Offset: this.offset });
      this.offset += chunk.length;
    }
    return frames;
  }
}
