/**
 * A damaged data directory (issue 21, item 7), with the real bin: jobs registered through HTTP with
 * --data-dir, the process killed (-9) or stopped, bytes of LevelDB's files flipped, the bin started
 * again. The server must refuse to start (exit 1, one line naming the directory and what to do) and
 * leave the directory as it was, never start with acknowledged jobs silently missing or altered.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, run, start, stop, type Running } from "./server-process.js";
import { settled } from "../../test/support/wait.js";

afterAll(killAll);

function workDir(): { work: string; dir: string; args: string[] } {
  const work = mkdtempSync(join(tmpdir(), "filter-server-corrupt-"));
  const data = join(work, "data.json");
  writeFileSync(data, JSON.stringify({ jobs: [], deployments: [] }));
  const dir = join(work, "db");
  return { work, dir, args: ["--data", data, "--data-dir", dir] };
}

/** Registers jobs whose names hold random hex (so that they stand as literals in LevelDB's tables). */
async function registerJobs(server: Running, count: number): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const id = `job-${String(i).padStart(2, "0")}`;
    const name = `name-${randomBytes(12).toString("hex")}`;
    const groups = i === 0 ? [{ Name: "__proto__", Count: 2 }, { Name: "constructor", Count: 3 }] : [{ Name: "g", Count: 1 }];
    const res = await fetch(`${server.api}/v1/jobs`, { method: "PUT", body: JSON.stringify({ Job: { ID: id, Name: name, Type: "batch", TaskGroups: groups } }) });
    expect(res.status, await res.text()).toBe(200);
    names.set(id, name);
  }
  return names;
}

async function listed(server: Running): Promise<{ ID: string; Name: string; JobSummary: { Summary: Record<string, { Queued: number }> } }[]> {
  return (await (await fetch(`${server.api}/v1/jobs?per_page=0`)).json()) as { ID: string; Name: string; JobSummary: { Summary: Record<string, { Queued: number }> } }[];
}

/**
 * Starts the bin on the directory: either it exits (its code and output) or it starts listening, in
 * which case what it lists is reported and it is stopped (the outcome a damaged directory must not have).
 */
async function startAgain(args: string[]): Promise<{ code: number | null; output: string; listed?: string[] }> {
  const proc = run(["--port", "0", "--ops-port", "0", ...args]);
  /** The "listening" line's addresses, once a whole line of stdout holds them. */
  const listening = (): { api: string; ops: string } | undefined => {
    const line = proc.stdout().split("\n").slice(0, -1).find((l) => l.startsWith("{") && l.includes('"api"') && l.includes('"ops"'));
    return line === undefined ? undefined : (JSON.parse(line) as { api: string; ops: string });
  };
  // Whichever comes first, however long the machine takes: the "listening" line or the exit.
  const started = await settled(
    "the bin to start or exit",
    new Promise<{ api: string; ops: string } | undefined>((resolve) => {
      const look = (): void => {
        const found = listening();
        if (found === undefined) return;
        proc.child.stdout.off("data", look);
        resolve(found);
      };
      // run()'s own "data" listener came first: the chunk is in proc.stdout() when `look` reads it.
      proc.child.stdout.on("data", look);
      void proc.exit.then(() => resolve(undefined));
    }),
  );
  if (started === undefined) return { code: (await proc.exit).code, output: proc.output().trim() };
  const server: Running = { ...proc, ...started };
  const jobs = await listed(server);
  await stop(server);
  return { code: null, output: proc.output(), listed: jobs.map((j) => `${j.ID} ${j.Name}`) };
}

const files = (dir: string, suffix: string): string[] => readdirSync(dir).filter((f) => f.endsWith(suffix) && /^\d+\./.test(f));

function expectRefused(outcome: { code: number | null; output: string; listed?: string[] }, dir: string, what: RegExp): void {
  expect(outcome.listed, "the server started on a damaged directory").toBeUndefined();
  expect(outcome.code).toBe(1);
  expect(outcome.output.split("\n")).toHaveLength(1);
  expect(outcome.output).toContain(`filter-server: the data directory ${dir} is damaged: `);
  expect(outcome.output).toMatch(what);
  expect(outcome.output).toContain("restore it from a backup, or move it aside and start with an empty --data-dir");
}

describe.concurrent("a damaged data directory", () => {
  it("a flipped byte in the write-ahead log after kill -9: the start is refused and the directory left as it was; with the byte restored every acknowledged job is back", async () => {
    const { work, dir, args } = workDir();
    try {
      const server = await start(args);
      const names = await registerJobs(server, 20);
      server.child.kill("SIGKILL");
      await server.exit;

      const [log] = files(dir, ".log");
      expect(log, readdirSync(dir).join(" ")).toBeDefined();
      const path = join(dir, log!);
      const original = readFileSync(path);
      const damaged = Buffer.from(original);
      damaged[damaged.length >> 1]! ^= 0x20;
      writeFileSync(path, damaged);

      expectRefused(await startAgain(args), dir, new RegExp(`its write-ahead log ${log} has a damaged record at byte \\d+ \\(checksum mismatch\\)`));
      // LevelDB did not replay (and delete) the damaged log: it is there as it was.
      expect(readFileSync(path).equals(damaged)).toBe(true);

      writeFileSync(path, original);
      const again = await start(args);
      try {
        const jobs = await listed(again);
        expect(jobs.map((j) => [j.ID, j.Name])).toEqual([...names.entries()]);
        // The task groups named like Object.prototype's members came back from the store as groups.
        const summary = jobs[0]!.JobSummary.Summary;
        expect(Object.keys(summary).sort()).toEqual(["__proto__", "constructor"]);
        expect(Object.getOwnPropertyDescriptor(summary, "__proto__")?.value).toMatchObject({ Queued: 2 });
      } finally {
        expect((await stop(again)).code).toBe(0);
      }
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });

  it("a flipped character in a table file (the value of a record changed, still valid JSON): the start is refused", async () => {
    const { work, dir, args } = workDir();
    try {
      let server = await start(args);
      const names = await registerJobs(server, 20);
      expect((await stop(server)).code).toBe(0);
      // The next start replays the log into a table file (.ldb).
      server = await start(args);
      expect((await listed(server)).map((j) => j.Name)).toEqual([...names.values()]);
      expect((await stop(server)).code).toBe(0);

      // A job's name, found as it is in a table file: one hex digit of it changed. Table blocks are
      // Snappy-compressed, and a random name may share a few characters with an earlier one (then it
      // is not stored whole): the first name found whole is changed.
      let changed = false;
      for (const name of names.values()) {
        const hex = Buffer.from(name.slice("name-".length));
        for (const table of files(dir, ".ldb")) {
          const bytes = readFileSync(join(dir, table));
          const at = bytes.indexOf(hex);
          if (at < 0) continue;
          bytes[at + 5] = bytes[at + 5] === 0x61 ? 0x62 : 0x61;
          writeFileSync(join(dir, table), bytes);
          changed = true;
        }
        if (changed) break;
      }
      expect(changed, "a name is stored as it is in a table file").toBe(true);

      expectRefused(await startAgain(args), dir, /records were altered/);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  });
});
