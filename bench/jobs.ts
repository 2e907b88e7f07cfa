/** Deterministic job list entries for the benchmarks (a seeded PRNG; no I/O). */

/** A seeded PRNG (mulberry32): numbers in [0, 1), the same sequence for the same seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

/** `n` job list entries shaped like the seed's, with job summaries. */
export function generateJobs(n: number, seed = 42): Record<string, unknown>[] {
  const r = prng(seed);
  const jobs: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const type = pick(r, ["service", "batch", "system", "sysbatch"]);
    const name = type === "service" && r() < 0.5 ? `web-${i}` : `${type}-${i}`;
    const groups = ["web", "api", "cache", "db"].filter(() => r() < 0.5);
    const summary: Record<string, unknown> = {};
    for (const g of groups) {
      summary[g] = { Queued: Math.floor(r() * 3), Complete: Math.floor(r() * 5), Failed: 0, Running: Math.floor(r() * 5), Starting: 0, Lost: 0 };
    }
    jobs.push({
      ID: name,
      ParentID: r() < 0.8 ? "" : `parent-${i % 100}`,
      Name: name,
      Namespace: pick(r, ["default", "prod", "dev", "staging"]),
      Datacenters: ["dc1", "dc2", "dc3"].filter(() => r() < 0.5),
      Multiregion: null,
      Type: type,
      Priority: pick(r, [10, 50, 50, 50, 70, 100]),
      Periodic: r() < 0.1,
      ParameterizedJob: r() < 0.05,
      Stop: r() < 0.1,
      Status: pick(r, ["running", "running", "pending", "dead"]),
      StatusDescription: "",
      JobSummary: { JobID: name, Namespace: "default", Summary: summary, Children: { Pending: 0, Running: 0, Dead: 0 }, CreateIndex: i + 1, ModifyIndex: i + 2 },
      CreateIndex: i + 1,
      ModifyIndex: i + 2,
      JobModifyIndex: i + 2,
      SubmitTime: 1_700_000_000_000_000_000 + i,
    });
  }
  return jobs;
}
