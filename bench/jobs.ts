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

/** A weighted choice: `pairs` of [value, weight]. */
const weighted = <T>(r: () => number, pairs: readonly (readonly [T, number])[]): T => {
  const total = pairs.reduce((s, [, w]) => s + w, 0);
  let x = r() * total;
  for (const [v, w] of pairs) if ((x -= w) < 0) return v;
  return pairs[pairs.length - 1]![0];
};

const SERVICES = ["web", "api", "auth", "billing", "search", "cache", "queue", "mailer", "ingest", "report", "etl", "gateway", "metrics", "logs", "cron", "backup", "media", "thumbnail", "payments", "ledger"];
const TEAMS = Array.from({ length: 40 }, (_, i) => `team-${String(i + 1).padStart(2, "0")}`);
const GROUPS = ["web", "api", "cache", "db", "worker", "proxy", "sidecar", "migrate", "scheduler", "indexer", "frontend", "backend"];

/**
 * `n` job list entries with the cardinalities of a real cluster beside `generateJobs`'s few values:
 * names from 20 services × 40 teams, each with its own number (a few `web-<n>`, as Q3 looks for),
 * 44 namespaces of uneven size, priorities 1–100 (most at the defaults 50 and 70), 8 datacenters,
 * statuses mostly running, task groups from 12 names. Deterministic (seeded).
 */
export function generateRealisticJobs(n: number, seed = 43): Record<string, unknown>[] {
  const r = prng(seed);
  const namespaces: (readonly [string, number])[] = [["default", 30], ["prod", 20], ["dev", 12], ["staging", 8], ...TEAMS.map((t, i) => [t, 30 / (i + 1)] as const)];
  const jobs: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const type = weighted(r, [["service", 60], ["batch", 30], ["system", 7], ["sysbatch", 3]] as const);
    const service = pick(r, SERVICES);
    const name = r() < 0.03 ? `web-${i}` : `${pick(r, TEAMS)}-${service}-${type}-${i}`;
    const groups = GROUPS.filter(() => r() < 0.2);
    const summary: Record<string, unknown> = {};
    for (const g of groups) {
      summary[g] = { Queued: Math.floor(r() * 3), Complete: Math.floor(r() * 50), Failed: Math.floor(r() * 2), Running: Math.floor(r() * 10), Starting: 0, Lost: 0 };
    }
    const parent = type === "batch" && r() < 0.4;
    jobs.push({
      ID: name,
      ParentID: parent ? `${service}-periodic-${i % 500}` : "",
      Name: name,
      Namespace: weighted(r, namespaces),
      Datacenters: ["dc1", "dc2", "dc3", "dc4", "dc5", "dc6", "dc7", "dc8"].filter(() => r() < 0.25),
      Multiregion: null,
      Type: type,
      Priority: r() < 0.6 ? weighted(r, [[50, 3], [70, 1]] as const) : 1 + Math.floor(r() * 100),
      Periodic: type === "batch" && r() < 0.3,
      ParameterizedJob: r() < 0.02,
      Stop: r() < 0.05,
      Status: weighted(r, [["running", 75], ["pending", 5], ["dead", 20]] as const),
      StatusDescription: "",
      JobSummary: { JobID: name, Namespace: "default", Summary: summary, Children: { Pending: 0, Running: 0, Dead: 0 }, CreateIndex: i + 1, ModifyIndex: i + 2 },
      CreateIndex: i + 1,
      ModifyIndex: i + 2 + Math.floor(r() * 1000),
      JobModifyIndex: i + 2,
      SubmitTime: 1_700_000_000_000_000_000 + i * 1_000_003,
    });
  }
  return jobs;
}
