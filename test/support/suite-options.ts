/**
 * The test options both projects share (vitest.config.ts, server/vitest.config.ts).
 *
 * - No verdict depends on the machine's speed: a test waits for readiness (a log line, a port, an
 *   answer), never for a fixed time, so the time limits are only a guard against a hang, far above
 *   what any test takes on a machine busy with other work.
 * - One worker process runs many test files (`isolate: false`): each file's modules are loaded once
 *   per worker, not once per file, which was most of the suite's CPU time (the library, Chevrotain's
 *   grammar, fastify, PGlite). Test files therefore keep no state in shared modules between them:
 *   servers, clusters and databases are per file (or per run, for the one PostgreSQL cluster).
 */
export const SUITE = {
  pool: "forks",
  isolate: false,
  testTimeout: 600_000,
  hookTimeout: 600_000,
} as const;
