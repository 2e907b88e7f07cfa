/**
 * Preloaded into a benchmark's server process (`node --import ./bench/loop-delay.mjs …`, plain
 * JavaScript: it loads before tsx): how late the event loop ran a 5 ms timer (`monitorEventLoopDelay`),
 * that is, how long the loop was held, between two SIGUSR2 signals: the first starts the count, the
 * second writes `{ p50, p99, max, count }` (milliseconds) as JSON to $BENCH_LOOP_DELAY_FILE.
 */
import { writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

const histogram = monitorEventLoopDelay({ resolution: 5 });
let counting = false;
process.on("SIGUSR2", () => {
  if (!counting) {
    histogram.reset();
    histogram.enable();
    counting = true;
    return;
  }
  histogram.disable();
  counting = false;
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  const file = process.env.BENCH_LOOP_DELAY_FILE;
  if (file !== undefined) writeFileSync(file, JSON.stringify({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), count: histogram.count }));
});
