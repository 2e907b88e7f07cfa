import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { killAll, run, start, stop } from "./server-process.js";
import type { RunOptions, Running } from "./server-process.js";
import { until } from "../../test/support/wait.js";

// Issue 13, point 4 and the data-directory items of point 7, with the real bin as a child process.

// The tests run concurrently (each starts processes of its own): a child left behind is killed at the end.
afterAll(killAll);

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "filter-server-store-"));
}

function dataFile(dir: string, jobs: object[]): string {
  const path = join(dir, `data-${jobs.length}.json`);
  writeFileSync(path, JSON.stringify({ jobs, deployments: [] }));
  return path;
}

const jobBody = (id: string) => JSON.stringify({ Job: { ID: id, Type: "batch", TaskGroups: [{ Name: "g", Count: 1 }] } });

async function register(server: Running, id: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${server.api}/v1/jobs`, { method: "PUT", body: jobBody(id) });
  return { status: response.status, text: await response.text() };
}

async function jobIds(server: Running): Promise<{ ids: string[]; index: number }> {
  const response = await fetch(`${server.api}/v1/jobs`);
  const jobs = (await response.json()) as { ID: string }[];
  return { ids: jobs.map((j) => j.ID), index: Number(response.headers.get("x-svc-index")) };
}

async function health(server: Running): Promise<{ agent: number; agentBody: string; ops: number }> {
  const agent = await fetch(`${server.api}/v1/agent/health`);
  const agentBody = await agent.text();
  const ops = await fetch(`${server.ops}/health`);
  return { agent: agent.status, agentBody, ops: ops.status };
}

/** Whether this machine lets us mount a tmpfs (root, or CAP_SYS_ADMIN). */
function canMount(): boolean {
  const probe = mkdtempSync(join(tmpdir(), "filter-server-mount-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

/** Fills the file system of `dir` with one file until the disk says ENOSPC; returns its path. */
function fillDisk(dir: string): string {
  const path = join(dir, "filler");
  const fd = openSync(path, "w");
  try {
    for (const size of [1 << 16, 1 << 12, 1 << 9, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
      }
    }
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Whether `prlimit` can lift a running process's file size limit. */
function hasPrlimit(): boolean {
  try {
    execFileSync("prlimit", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The failing disk: a real tmpfs of 4 MiB filled to ENOSPC where this machine lets us mount one;
 * otherwise (or with FILTER_SERVER_TEST_DISK=fsize) a file size limit on the server process, so
 * that the store's writes fail with EFBIG until the limit is lifted. Either way the failure is a
 * real failed write(2) under LevelDB, not a stand-in for the store.
 */
interface Disk {
  name: string;
  /** where the data directory goes */
  dir: string;
  options: RunOptions;
  /** make writes fail from now on */
  fill(server: Running): void;
  /** make writes possible again */
  free(server: Running): void;
  close(): void;
}

function tmpfsDisk(): Disk {
  const work = tempDir();
  const mnt = join(work, "mnt");
  mkdirSync(mnt);
  execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mnt]);
  let filler = "";
  return {
    name: "a real tmpfs of 4 MiB, filled",
    dir: join(mnt, "db"),
    options: {},
    fill: () => (filler = fillDisk(mnt)),
    free: () => rmSync(filler),
    close: () => {
      execFileSync("umount", ["-l", mnt]);
      rmSync(work, { recursive: true, force: true });
    },
  };
}

function fileSizeDisk(): Disk {
  const work = tempDir();
  return {
    name: "a file size limit of 32 KiB on the server process",
    dir: join(work, "db"),
    // The database's log reaches 32 KiB after some fifty registrations.
    options: { fileSizeBlocks: 64 },
    fill: () => undefined,
    free: (server) => execFileSync("prlimit", ["--pid", String(server.child.pid), "--fsize=unlimited"]),
    close: () => rmSync(work, { recursive: true, force: true }),
  };
}

const forced = process.env["FILTER_SERVER_TEST_DISK"];
const diskKind = forced === "fsize" || forced === "tmpfs" ? forced : canMount() ? "tmpfs" : "fsize";
const diskUsable = diskKind === "tmpfs" || hasPrlimit();

describe.concurrent(`a failing disk under --data-dir (${diskKind === "tmpfs" ? "a real tmpfs" : "a file size limit"})`, () => {
  it.skipIf(!diskUsable)(
    "refuses writes it cannot make durable, reports the store unhealthy, and keeps every acknowledged write and the index across a restart",
    async () => {
      const work = tempDir();
      const disk = diskKind === "tmpfs" ? tmpfsDisk() : fileSizeDisk();
      try {
        const args = ["--data", dataFile(work, []), "--data-dir", disk.dir];
        let server = await start(args, disk.options);
        const acked: string[] = [];
        for (let i = 0; i < 3; i++) {
          expect((await register(server, `before-${i}`)).status).toBe(200);
          acked.push(`before-${i}`);
        }
        expect(await health(server)).toMatchObject({ agent: 200, ops: 200 });

        disk.fill(server);
        // The last partly used page (or the room under the limit) takes some writes; then a write fails.
        const failed: string[] = [];
        const attempt = async (id: string): Promise<{ status: number; text: string }> => {
          const answer = await register(server, id);
          (answer.status === 200 ? acked : failed).push(id);
          return answer;
        };
        let failure = { status: 200, text: "" };
        for (let i = 0; i < 200 && failure.status === 200; i++) failure = await attempt(`full-${i}`);
        expect(failure.status).toBe(500);
        expect(failure.text).toMatch(/No space left on device|File too large/);
        const whileFull = await jobIds(server);
        // Nothing of a failed write is visible, and the store says it is not writable.
        for (const id of failed) expect(whileFull.ids).not.toContain(id);
        const unhealthy = await health(server);
        expect(unhealthy.agent).toBe(500);
        expect(JSON.parse(unhealthy.agentBody)).toMatchObject({ server: { ok: false } });
        expect(unhealthy.agentBody).toContain("state not saved");
        expect(unhealthy.ops).toBeGreaterThanOrEqual(500);
        // More writes while the disk is full: each one is either durable or refused, never both.
        let last = failure;
        for (let i = 0; i < 4; i++) last = await attempt(`again-${i}`);
        if (last.status !== 200) expect((await health(server)).agent).toBe(500);
        for (const id of failed) expect((await jobIds(server)).ids).not.toContain(id);

        disk.free(server);
        for (let i = 0; i < 20; i++) {
          const answer = await register(server, `after-${i}`);
          expect(answer.status, answer.text).toBe(200);
          acked.push(`after-${i}`);
        }
        expect(await health(server)).toMatchObject({ agent: 200, ops: 200 });
        const before = await jobIds(server);
        expect(before.index).toBeGreaterThan(whileFull.index);

        expect((await stop(server)).code).toBe(0);
        server = await start(args);
        const after = await jobIds(server);
        expect(after.ids.filter((id) => acked.includes(id)).sort()).toEqual([...acked].sort());
        for (const id of failed) expect(after.ids).not.toContain(id);
        expect(after.index).toBeGreaterThanOrEqual(before.index);
        expect((await register(server, "next")).text).toContain(`"Index":${before.index + 1}`);
        expect((await stop(server)).code).toBe(0);
        // The client is told plainly, without the data directory's path.
        expect(failure.text).toMatch(/^state not saved: IO error: <data-dir>\/\d+\.log: (No space left on device|File too large)/);
      } finally {
        disk.close();
        rmSync(work, { recursive: true, force: true });
      }
    },
  );
});

describe.concurrent("the data directory", () => {
  it("a seeding killed half-way (kill -9) does not come back: the next start seeds afresh", async () => {
    const work = tempDir();
    const dir = join(work, "db");
    const padding = "x".repeat(200);
    const big = Array.from({ length: 20_000 }, (_, i) => ({ ID: `partial-${i}`, Name: `partial-${i}`, Namespace: "default", Type: "batch", Status: "running", Pad: padding }));
    const proc = run(["--port", "0", "--ops-port", "0", "--data", dataFile(work, big), "--data-dir", dir]);
    // Watch the database's log grow, and kill the process while it is seeding.
    const logBytes = (): number => {
      try {
        return readdirSync(dir)
          .filter((f) => f.endsWith(".log") && f !== "LOG")
          .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
      } catch {
        return 0;
      }
    };
    // Batches of 5,000 records (about 1.5 MB here, 6 MB in all): past 2 MB one batch is whole on disk.
    await until("2 MB of the seeding on disk", () => {
      if (proc.child.exitCode !== null) throw new Error(`seeding not observed:\n${proc.output()}`);
      return logBytes() >= 2 * 1024 * 1024;
    }, 0);
    proc.child.kill("SIGKILL");
    await proc.exit;
    expect(proc.output()).not.toContain("new data directory seeded");

    const small = [{ ID: "fresh-0", Name: "fresh-0", Namespace: "default", Type: "batch", Status: "running" }];
    const args = ["--data", dataFile(work, small), "--data-dir", dir];
    let server = await start(args);
    expect((await jobIds(server)).ids).toEqual(["fresh-0"]);
    expect((await stop(server)).code).toBe(0);
    // The state now comes from the directory alone: still nothing of the killed seeding.
    server = await start(args);
    expect(server.output()).toContain("state loaded from the data directory");
    expect((await jobIds(server)).ids).toEqual(["fresh-0"]);
    expect((await stop(server)).code).toBe(0);
    rmSync(work, { recursive: true, force: true });
  });

  it("a locked data directory: one line naming the path and the cause, exit 1", async () => {
    const work = tempDir();
    const dir = join(work, "db");
    const data = dataFile(work, []);
    const first = await start(["--data", data, "--data-dir", dir]);
    const second = run(["--port", "0", "--ops-port", "0", "--data", data, "--data-dir", dir]);
    expect((await second.exit).code).toBe(1);
    const text = second.output().trim();
    expect(text.split("\n")).toHaveLength(1);
    expect(text).toContain(`filter-server: cannot open the data directory ${dir}: `);
    expect(text).toMatch(/lock/i);
    expect(text).not.toMatch(/\n\s+at /);
    expect((await stop(first)).code).toBe(0);
    rmSync(work, { recursive: true, force: true });
  });

  it("a corrupt data directory: one line naming the path and the cause, exit 1", async () => {
    const work = tempDir();
    const dir = join(work, "db");
    mkdirSync(dir);
    writeFileSync(join(dir, "CURRENT"), "MANIFEST-000099\n");
    writeFileSync(join(dir, "MANIFEST-000099"), "this is not a manifest");
    const proc = run(["--port", "0", "--ops-port", "0", "--data-dir", dir]);
    expect((await proc.exit).code).toBe(1);
    const text = proc.output().trim();
    expect(text.split("\n")).toHaveLength(1);
    expect(text).toContain(`filter-server: cannot open the data directory ${dir}: `);
    expect(text).toMatch(/corrupt/i);
    rmSync(work, { recursive: true, force: true });
  });
});
