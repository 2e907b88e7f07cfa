/**
 * The one knob for property-test sizes: `runs(n)` is the `numRuns` of a property whose default is
 * `n`, scaled by FILTER_EXPR_RUNS (a positive number, default 1). The defaults keep every law strong
 * enough to catch the mutations its test names; `npm run test:deep` runs ten times as many cases.
 */
const scale = (() => {
  const raw = process.env.FILTER_EXPR_RUNS;
  if (raw === undefined || raw === "") return 1;
  const x = Number(raw);
  if (!(x > 0) || !Number.isFinite(x)) throw new Error(`FILTER_EXPR_RUNS must be a positive number, not ${JSON.stringify(raw)}`);
  return x;
})();

/** The number of runs of a property whose default is `n`. */
export function runs(n: number): number {
  return Math.max(1, Math.round(n * scale));
}
