import { defineConfig } from "vitest/config";

// One `npm test` for both packages of the repository: the library (this folder) and the server (server/).
export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    // Most files wait on other processes (servers, PostgreSQL, Chromium, npm): four at a time keep the
    // two cores busy (the suite took 296–309 s with three, 281 s with four), where vitest's default
    // (cores − 1) runs one file at a time.
    maxWorkers: 4,
    minWorkers: 1,
    projects: [
      {
        test: {
          name: "filter-expr",
          include: ["test/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: "forks",
        },
      },
      "server/vitest.config.ts",
    ],
  },
});
