import type { FastifyBaseLogger } from "fastify";
import { formatDuration } from "./duration.js";

/** serving → (signal) draining → stopping → stopped. Without a grace period, draining is skipped. */
export type Phase = "serving" | "draining" | "stopping" | "stopped";

/**
 * The shutdown of the server. On the first SIGTERM/SIGINT the instance reports itself unhealthy for the
 * grace period (`graceful_shutdown_wait_duration`) while still serving every request, then stops
 * cleanly; a second signal during the wait cuts the wait short (the stop is still clean).
 */
export class Lifecycle {
  private current: Phase = "serving";
  private timer: NodeJS.Timeout | undefined;
  private stopping: Promise<void> | undefined;
  private resolveDone!: () => void;
  /** Resolves once the server has stopped. */
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(
    private readonly waitMs: number,
    private readonly log: FastifyBaseLogger,
    private readonly stop: () => Promise<void>,
  ) {}

  get phase(): Phase {
    return this.current;
  }

  /** True once a shutdown has begun: the health endpoint answers 503. */
  get shuttingDown(): boolean {
    return this.current !== "serving";
  }

  signal(name: string): void {
    if (this.current === "serving" && this.waitMs > 0) {
      this.current = "draining";
      this.log.info({ signal: name, waitMs: this.waitMs }, `shutdown signal received; reporting unhealthy for ${formatDuration(this.waitMs)} before shutting down`);
      this.timer = setTimeout(() => void this.shutdown(), this.waitMs);
      return;
    }
    if (this.current === "draining") this.log.info({ signal: name }, "second shutdown signal received; ending the grace period now");
    else if (this.current === "serving") this.log.info({ signal: name }, "shutdown signal received; shutting down");
    void this.shutdown();
  }

  /** Stops now (idempotent). */
  shutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.stopping ??= (async () => {
      this.current = "stopping";
      try {
        await this.stop();
        this.log.info("server stopped");
      } finally {
        this.current = "stopped";
        this.resolveDone();
      }
    })();
    return this.stopping;
  }
}
