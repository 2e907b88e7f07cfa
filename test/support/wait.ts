/**
 * Waiting in tests: for readiness (a condition that becomes true), never for a fixed time. A wait
 * polls until its condition holds; `HANG_MS` only turns a hang into a failure that names what was
 * awaited, before the test's own limit (test/support/suite-options.ts) ends it without a word. It is
 * far above what any wait takes on a machine busy with other work, so no verdict depends on speed.
 */
export const HANG_MS = 240_000;

/** Polls `check` (every `everyMs`, or every turn of the event loop when 0) until it holds. */
export async function until(what: string, check: () => boolean | Promise<boolean>, everyMs = 5): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still waiting, after ${HANG_MS / 1000} s, for ${what}`);
    await new Promise((resolve) => (everyMs === 0 ? setImmediate(resolve) : setTimeout(resolve, everyMs)));
  }
}

/** Waits for `promise` (an event: a close, an exit, an end); only a hang fails, naming `what`. */
export async function settled<T>(what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting, after ${HANG_MS / 1000} s, for ${what}`)), HANG_MS);
  });
  try {
    return await Promise.race([promise, hang]);
  } finally {
    clearTimeout(timer);
  }
}
