/**
 * The benchmarks' one timing method: cases interleaved in rounds in one process, the order rotating
 * each round, so that a slow moment of the machine (another process, a GC, the CPU's clock) falls on
 * every case alike. Each sample runs a case enough times to take about `sampleMs` of CPU time, and is
 * timed in the process's CPU time (user + system: on a busy machine the time others take is not
 * counted) beside its wall time. Reported: the median per call and the spread (lowest and highest
 * sample).
 */

/** One case: a name and what to run (its answer is kept, so nothing is optimised away). */
export interface Case {
  readonly name: string;
  readonly run: () => unknown;
}

/** A case's timings, per call. */
export interface Timing {
  readonly name: string;
  /** The median CPU time per call, in nanoseconds. */
  readonly ns: number;
  readonly minNs: number;
  readonly maxNs: number;
  /** The median wall time per call, in nanoseconds. */
  readonly wallNs: number;
  readonly samples: number;
}

export interface RoundsOptions {
  /** How many rounds (samples per case). */
  readonly rounds?: number;
  /** CPU time a sample aims at, in milliseconds. */
  readonly sampleMs?: number;
}

/** Whatever the cases answer, kept here so that the engine cannot drop a call. */
export let sink: unknown;

const cpuNs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** How many calls of `run` take about `ms` of wall time (after a warm-up). */
function calibrate(run: () => unknown, ms: number): number {
  let reps = 1;
  for (;;) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) sink = run();
    const took = performance.now() - t;
    if (took >= ms / 4 || reps >= 1 << 24) return Math.max(1, Math.round((reps * ms) / Math.max(took, 1e-3)));
    reps *= 4;
  }
}

/** Times `cases` interleaved in rounds whose order rotates. */
export function interleave(cases: readonly Case[], options: RoundsOptions = {}): Timing[] {
  const rounds = options.rounds ?? 15;
  const sampleMs = options.sampleMs ?? 20;
  const reps = cases.map((c) => calibrate(c.run, sampleMs));
  const cpu = cases.map(() => [] as number[]);
  const wall = cases.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const c = (k + round) % cases.length;
      const run = cases[c]!.run;
      const n = reps[c]!;
      const w = performance.now();
      const t = cpuNs();
      for (let i = 0; i < n; i++) sink = run();
      cpu[c]!.push((cpuNs() - t) / n);
      wall[c]!.push(((performance.now() - w) * 1e6) / n);
    }
  }
  return cases.map((c, i) => ({
    name: c.name,
    ns: median(cpu[i]!),
    minNs: Math.min(...cpu[i]!),
    maxNs: Math.max(...cpu[i]!),
    wallNs: median(wall[i]!),
    samples: rounds,
  }));
}

/** The timing of `name` among `timings`. */
export function timing(timings: readonly Timing[], name: string): Timing {
  const t = timings.find((x) => x.name === name);
  if (t === undefined) throw new Error(`no case named ${name}`);
  return t;
}

export const geomean = (xs: readonly number[]): number => Math.exp(xs.reduce((a, x) => a + Math.log(x), 0) / xs.length);

/** A duration for a table: ns, µs or ms with three significant digits. */
export function duration(ns: number): string {
  if (ns < 1_000) return `${ns.toPrecision(3)} ns`;
  if (ns < 1_000_000) return `${(ns / 1_000).toPrecision(3)} µs`;
  return `${(ns / 1_000_000).toPrecision(3)} ms`;
}

/** The load average and the machine, for the head of a report. */
export async function machine(): Promise<string> {
  const os = await import("node:os");
  const [l1, l5, l15] = os.loadavg().map((x) => x.toFixed(2));
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}; load average ${l1}, ${l5}, ${l15}`;
}
