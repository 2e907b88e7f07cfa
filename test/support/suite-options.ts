import { fileURLToPath } from "node:url";

/**
 * The library as both projects' tests import it: its build (made current by the run's global setup,
 * test/support/build-global.ts), loaded by Node itself and kept out of vitest's transform, so each
 * test file's worker loads one bundled file instead of transforming the library's modules (the
 * library's tests collected in 31 CPU-s instead of 56), and the tests run the code the package ships.
 */
export const LIBRARY_BUILD = {
  path: fileURLToPath(new URL("../../dist/index.js", import.meta.url)),
  // The entries (index, web), their shared chunks and the chunks the web entry loads on demand.
  external: [/\/dist\/[\w-]+\.js$/],
};

/**
 * The test options both projects share (vitest.config.ts, server/vitest.config.ts).
 *
 * - No verdict depends on the machine's speed: a test waits for readiness (a log line, a port, an
 *   answer), never for a fixed time, so the time limits are only a guard against a hang, far above
 *   what any test takes on a machine busy with other work.
 * - Each test file runs in a fresh worker process (vitest's default isolation): with workers shared
 *   between files (`isolate: false`), vitest 3.2 ended runs of many files with "Terminating worker
 *   thread" before reporting them.
 */
export const SUITE = {
  pool: "forks",
  testTimeout: 600_000,
  hookTimeout: 600_000,
} as const;
