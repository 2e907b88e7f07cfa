/**
 * One rule for a job of a --data file that leaves out `Name` or `Namespace` (issue 44): the file is the
 * server's input, and a job in it is held as registration holds one (`Canonicalize`): a missing `Name`
 * is the ID, a missing or empty `Namespace` is `default`; every other absent field is its zero value.
 * The server filters what it holds, and answers it: `filter-check --data` over that answer agrees with
 * the server's filter on every case; over the raw file it reads the fields as they are written (a
 * missing `Name` is ""), which is the difference server.md documents.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import { startServer, type RunningServer } from "../src/ops/start.js";
import { jsonLines, runBinary } from "../../test/cli/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "filter-data-canonical-"));
const rawFile = join(dir, "jobs.json");
const JOBS = [
  { ID: "nameless", Status: "running", Datacenters: ["dc1"] },
  { ID: "named", Name: "web", Namespace: "ns2", Status: "running" },
  { ID: "empty-namespace", Name: "api", Namespace: "", Status: "dead" },
];
const FILTERS = ['Name == ""', 'Name == "nameless"', 'Namespace == "default"', 'Namespace == ""', 'Name == ID', 'Status == "running"', 'Name is empty'];

let server: RunningServer;

beforeAll(async () => {
  writeFileSync(rawFile, JSON.stringify({ jobs: JOBS, deployments: [] }));
  server = await startServer({ ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error", dataFile: rawFile });
});

afterAll(async () => {
  await server?.lifecycle.shutdown();
  rmSync(dir, { recursive: true, force: true });
});

/** The IDs of the jobs the server answers for `filter` (every namespace). */
async function served(filter?: string): Promise<{ ids: string[]; body: unknown[] }> {
  const url = new URL("/v1/jobs", server.apiUrl);
  url.searchParams.set("namespace", "*");
  if (filter !== undefined) url.searchParams.set("filter", filter);
  const r = await fetch(url);
  expect(r.status).toBe(200);
  const body = (await r.json()) as { ID: string }[];
  return { ids: body.map((j) => j.ID).sort(), body };
}

/** The IDs `filter-check --schema job --data FILE` prints for `filter`. */
async function checked(file: string, filter: string): Promise<string[]> {
  const r = await runBinary(["--schema", "job", "--data", file, filter]);
  expect(r.code, r.stderr).toBe(0);
  return jsonLines(r.stdout).map((j) => (j as { ID: string }).ID).sort();
}

describe("a data file's jobs are held as registered (Name defaults to the ID, Namespace to default)", () => {
  it("the server holds and answers them so", async () => {
    const { body } = await served();
    const byId = new Map(body.map((j) => [(j as { ID: string }).ID, j as { Name: string; Namespace: string }]));
    expect(byId.get("nameless")).toMatchObject({ Name: "nameless", Namespace: "default" });
    expect(byId.get("named")).toMatchObject({ Name: "web", Namespace: "ns2" });
    expect(byId.get("empty-namespace")).toMatchObject({ Name: "api", Namespace: "default" });
  });

  it("filter-check --data over the server's answer agrees with the server's filter; over the raw file a missing Name is empty", async () => {
    const answer = join(dir, "answer.json");
    writeFileSync(answer, JSON.stringify((await served()).body));
    for (const filter of FILTERS) expect(await checked(answer, filter), filter).toEqual((await served(filter)).ids);
    const raw = join(dir, "raw.json");
    writeFileSync(raw, JSON.stringify(JOBS));
    expect(await checked(raw, 'Name == ""')).toEqual(["nameless"]);
    expect((await served('Name == ""')).ids).toEqual([]);
  });
});
