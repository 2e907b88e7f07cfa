/**
 * Ends the run with one plain line, `N passed, N failed` (and `, N skipped`), which CI reads.
 */
import type { Reporter } from "vitest/reporters";

interface TaskLike {
  readonly type: string;
  readonly mode?: string;
  readonly result?: { readonly state?: string };
  readonly tasks?: readonly TaskLike[];
}

export default class SummaryReporter implements Reporter {
  onFinished(files: readonly TaskLike[] = [], errors: readonly unknown[] = []): void {
    const count = { passed: 0, failed: errors.length, skipped: 0 };
    const visit = (t: TaskLike): void => {
      if (t.type === "test") {
        const state = t.result?.state;
        if (state === "pass") count.passed++;
        else if (state === "fail") count.failed++;
        else count.skipped++;
      }
      t.tasks?.forEach(visit);
      // A file that failed to load has no tests but counts as a failure.
      if (t.type === "suite" && t.result?.state === "fail" && !t.tasks?.length) count.failed++;
    };
    files.forEach(visit);
    process.stdout.write(`\n${count.passed} passed, ${count.failed} failed${count.skipped ? `, ${count.skipped} skipped` : ""}\n`);
  }
}
