/** Latency figures and status tallies of the attack benchmark (bench/attacks.ts). */

/** p50 / p99 / max of a set of latencies (ms), and how many there were. */
export interface Latency {
  n: number;
  p50: number;
  p99: number;
  max: number;
}

/** The `p`-th percentile (nearest rank) of `xs`; 0 for none. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function latency(xs: readonly number[]): Latency {
  return { n: xs.length, p50: percentile(xs, 50), p99: percentile(xs, 99), max: xs.length === 0 ? 0 : Math.max(...xs) };
}

/** `12.3`, `456`: milliseconds to print. */
export function ms(x: number): string {
  return x < 10 ? x.toFixed(1) : x.toFixed(0);
}

/** `p50 / p99 / max` in milliseconds, `–` when there is none. */
export function formatLatency(l: Latency | undefined): string {
  return l === undefined || l.n === 0 ? "–" : `${ms(l.p50)} / ${ms(l.p99)} / ${ms(l.max)}`;
}

/**
 * The outcomes of a kind of request: counts by outcome (`200`, `503`, `error:ECONNRESET`, `abandoned`,
 * `unanswered`…), the 5xx among them, the times of the answered ones, and the first body of each status.
 */
export class Tally {
  readonly counts: Record<string, number> = {};
  readonly times: number[] = [];
  readonly samples: Record<string, string> = {};
  fiveXX = 0;

  /** An answer with `status` after `ms` (its body's start kept for the first of its status). */
  answered(status: number, ms: number, body: string): void {
    this.add(String(status));
    this.times.push(ms);
    if (status >= 500) this.fiveXX++;
    if (this.samples[String(status)] === undefined && body !== "") this.samples[String(status)] = body.slice(0, 160).replace(/\s+/g, " ");
  }

  /** Another outcome: no answer (`error:CODE`, `abandoned`, `unanswered`…). */
  add(outcome: string, n = 1): void {
    this.counts[outcome] = (this.counts[outcome] ?? 0) + n;
  }

  get total(): number {
    return Object.values(this.counts).reduce((a, b) => a + b, 0);
  }

  /** `200×12 400×3 error:ECONNRESET×1`, in key order. */
  format(): string {
    const keys = Object.keys(this.counts).sort();
    return keys.length === 0 ? "none" : keys.map((k) => `${k}×${this.counts[k]}`).join(" ");
  }

  toJSON(): { counts: Record<string, number>; fiveXX: number; time: Latency; samples: Record<string, string> } {
    return { counts: this.counts, fiveXX: this.fiveXX, time: latency(this.times), samples: this.samples };
  }
}
