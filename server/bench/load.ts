/**
 * How long the --data loader takes (by hand; not part of the tests): `loadDataFile` over a generated file
 * of JOBS jobs written as a scheduler lists them (a 19-digit `SubmitTime` in nanoseconds, versions such
 * as `v1.2` in some names), RUNS times; prints each run (wall time, and the process's CPU time, which
 * other processes on the machine disturb less) and the medians.
 *
 *   npx tsx bench/load.ts [JOBS=200000] [RUNS=5]
 */
import { generateDemo } from "../src/demo/generate.js";
import { loadDataFile } from "../src/lists/load.js";

const JOBS = Number(process.argv[2] ?? 200_000);
const RUNS = Number(process.argv[3] ?? 5);

function dataFile(jobs: number): Buffer {
  const parts: string[] = [];
  const CHUNK = 50_000;
  for (let done = 0; done < jobs; done += CHUNK) {
    const snapshot = generateDemo({ jobs: Math.min(CHUNK, jobs - done), seed: 7 + done });
    for (const [i, r] of snapshot.jobs.entries()) {
      const e = r.entry;
      parts.push(
        JSON.stringify({
          ...e,
          ID: `${e.ID}-${done}`,
          Name: i % 10 === 0 ? `${e.Name}-v1.${i % 7}` : e.Name,
          SubmitTime: 1_700_000_000_000_000_000 + (done + i) * 1_000_003,
        }),
      );
    }
  }
  return Buffer.from(`{"jobs":[${parts.join(",")}],"deployments":[]}`);
}

const bytes = dataFile(JOBS);
const times: number[] = [];
const cpus: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const { snapshot } = loadDataFile(bytes);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  const cpuMs = (used.user + used.system) / 1000;
  times.push(ms);
  cpus.push(cpuMs);
  console.log(`run ${run + 1}: ${snapshot.jobs.length} jobs (${(bytes.length / 2 ** 20).toFixed(0)} MiB) in ${ms.toFixed(0)} ms (CPU ${cpuMs.toFixed(0)} ms)`);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!.toFixed(0);
console.log(`median ${median(times)} ms, CPU ${median(cpus)} ms`);
