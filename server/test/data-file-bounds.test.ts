/**
 * A --data file obeys the bounds registration keeps where they protect the server (issue 39): nesting,
 * integer ranges (Go's int64, JavaScript's safe integers for indexes, the PostgreSQL store's column for
 * a job's version), integers written as Go reads them (`1.0` is no int), NULs, namespace names, and the
 * lengths of what the PostgreSQL store indexes. A file past one is refused at start with the same
 * `data file FILE: path: …` message on the embedded store and on PostgreSQL; a file within them starts
 * both, and both answer it alike over HTTP.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULT_OPTIONS } from "../src/context.js";
import { startServer, type RunningServer } from "../src/ops/start.js";
import { clusterForFile } from "./support/cluster.js";

const cluster = clusterForFile();
const dir = mkdtempSync(join(tmpdir(), "filter-server-bounds-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
let databases = 0;

/** A data file holding `text` (written as it is: literals such as `1.0` stay as written). */
function dataFile(text: string): string {
  const file = join(dir, `data-${++files}.json`);
  writeFileSync(file, text);
  return file;
}

type Kind = "memory" | "postgres";

/** The server on `kind` over `file` (a fresh database for PostgreSQL), or the error that stopped its start. */
async function start(kind: Kind, file: string): Promise<RunningServer | Error> {
  const database = kind === "postgres" ? await cluster().createDatabase(`bounds_${process.pid}_${++databases}`) : undefined;
  const options = { ...DEFAULT_OPTIONS, port: 0, opsPort: 0, logLevel: "error" as const, dataFile: file, ...(database === undefined ? {} : { database }) };
  try {
    return await startServer(options);
  } catch (e) {
    return e as Error;
  }
}

/** What starting over `text` gives on `kind`: the error's class and message, or "started". */
async function startOutcome(kind: Kind, text: string): Promise<{ file: string; outcome: string }> {
  const file = dataFile(text);
  const started = await start(kind, file);
  if (started instanceof Error) return { file, outcome: `${started.constructor.name}: ${started.message}` };
  await started.lifecycle.shutdown();
  return { file, outcome: "started" };
}

const job = (fields: string): string => `{"jobs":[{"ID":"web",${fields}}],"deployments":[]}`;
const deployment = (fields: string): string => `{"jobs":[{"ID":"web"}],"deployments":[{"ID":"d-1","JobID":"web",${fields}}]}`;
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

describe("a data file past a bound is refused at start, alike on both stores", () => {
  const refused: [string, string, string][] = [
    ["Meta nested 10,000 levels deep", job(`"Meta":${nested(10_000)}`), "jobs[0].Meta: nests objects and arrays more than 64 levels deep"],
    ["a deployment's extra field nested 65 levels deep", deployment(`"Extra":${"[".repeat(64)}${"]".repeat(64)}`), "deployments[0].Extra: nests objects and arrays more than 64 levels deep"],
    ["CreateIndex 1e308", job('"CreateIndex":1e308'), "jobs[0].CreateIndex: expected an unsigned integer up to 9007199254740991, not 1e308"],
    ["CreateIndex 2^53+1", job('"CreateIndex":9007199254740993'), "jobs[0].CreateIndex: expected an unsigned integer up to 9007199254740991, not 9007199254740993"],
    ["a negative ModifyIndex", job('"ModifyIndex":-1'), "jobs[0].ModifyIndex: expected an unsigned integer up to 9007199254740991, not -1"],
    ["a summary's ModifyIndex past 2^53", job('"JobSummary":{"ModifyIndex":18446744073709551615}'), "jobs[0].JobSummary.ModifyIndex: expected an unsigned integer up to 9007199254740991, not 18446744073709551615"],
    ["SubmitTime past int64", job('"SubmitTime":9223372036854775808'), "jobs[0].SubmitTime: expected an integer between -9223372036854775808 and 9223372036854775807, not 9223372036854775808"],
    // int64's largest value is held as a double, 2^63, which the scheduler's client cannot decode.
    ["SubmitTime a double rounds past int64", job('"SubmitTime":9223372036854775807'), "jobs[0].SubmitTime: expected an integer up to 9223372036854775807 as a double holds it, not 9223372036854775807 (held as 9223372036854775808)"],
    ["JobVersion past the PostgreSQL store's integer column", deployment('"JobVersion":1099511627776'), "deployments[0].JobVersion: expected an unsigned integer up to 2147483647, not 1099511627776"],
    ["Priority written 1.0", job('"Priority":1.0'), "jobs[0].Priority: expected an integer, not 1.0"],
    ["a group's Running written 1e2", job('"JobSummary":{"Summary":{"web":{"Running":1e2}}}'), "jobs[0].JobSummary.Summary.web.Running: expected an integer, not 1e2"],
    ["a deployment group's DesiredTotal written 2.0", deployment('"TaskGroups":{"web":{"DesiredTotal":2.0}}'), "deployments[0].TaskGroups.web.DesiredTotal: expected an integer, not 2.0"],
    ["a fraction behind an escaped key", job('"Pr\\u0069ority":5E0'), "jobs[0].Priority: expected an integer, not 5E0"],
    ["a bare array's Priority written 5.0", '[{"ID":"web","Priority":5.0}]', "[0].Priority: expected an integer, not 5.0"],
    ["a NUL in the ID", job('"Name":"x"').replace('"ID":"web"', '"ID":"we\\u0000b"'), "jobs[0].ID: contains a null character"],
    ["a NUL in a value of an extra field", job('"Meta":{"k":["ok","v\\u0000"]}'), "jobs[0].Meta.k[1]: contains a null character"],
    ["a NUL in a key of an extra field", job('"Meta":{"k\\u0000":"v"}'), "jobs[0].Meta: a key contains a null character"],
    ["a NUL in a deployment's JobID", deployment('"Namespace":"default"').replace('"JobID":"web"', '"JobID":"w\\u0000"'), "deployments[0].JobID: contains a null character"],
    ["a namespace registration refuses", job('"Namespace":"a b"'), 'jobs[0].Namespace: expected a namespace name matching ^[a-zA-Z0-9-]{1,128}$, not "a b"'],
    ["a deployment's namespace registration refuses", deployment('"Namespace":"a.b"'), 'deployments[0].Namespace: expected a namespace name matching ^[a-zA-Z0-9-]{1,128}$, not "a.b"'],
    ["a 1 MB Name", job(`"Name":"${"n".repeat(1 << 20)}"`), "jobs[0].Name: expected a string of at most 256 bytes, not 1048576"],
    ["an ID of 600 bytes", job('"Name":"x"').replace('"ID":"web"', `"ID":"${"é".repeat(300)}"`), "jobs[0].ID: expected a string of at most 512 bytes, not 600"],
    ["a Status of 3 kB", job(`"Status":"${"s".repeat(3000)}"`), "jobs[0].Status: expected a string of at most 256 bytes, not 3000"],
  ];

  it.each(refused)("%s", async (_name, text, message) => {
    for (const kind of ["memory", "postgres"] as const) {
      const { file, outcome } = await startOutcome(kind, text);
      expect({ kind, outcome }).toEqual({ kind, outcome: `DataFileError: data file ${file}: ${message}` });
    }
  });

  it("the file's first mistake is named, whatever order the jobs are read in", async () => {
    const text = '{"jobs":[{"ID":"z","Priority":1.0},{"ID":"a","Namespace":"no pe"}]}';
    for (const kind of ["memory", "postgres"] as const) {
      const { file, outcome } = await startOutcome(kind, text);
      expect(outcome).toBe(`DataFileError: data file ${file}: jobs[0].Priority: expected an integer, not 1.0`);
    }
  });
});

describe("a data file within the bounds starts both stores, and both answer it alike", () => {
  it("extreme integers as written, lone surrogates as U+FFFD, a long unindexed text, the namespace default", async () => {
    const text = JSON.stringify({
      jobs: [
        { ID: "edge", Namespace: "", Priority: -1, ModifyIndex: 9007199254740991, Meta: { "k\ud800": ["\udc00", 1.5, 1e300], deep: JSON.parse(nested(62)) as unknown } },
        { ID: "long", Namespace: "Ns-2", StatusDescription: "d".repeat(20_000), Name: "n".repeat(256), JobSummary: { Summary: { web: { Running: 3 } } } },
      ],
      deployments: [{ ID: "d-1", JobID: "edge", JobVersion: 2147483647, CreateIndex: 7, TaskGroups: { web: { DesiredTotal: 2 } } }],
    })
      // Literals JSON.stringify cannot write: int64's bounds exactly, and a fraction where no integer goes.
      .replace('"Priority":-1', '"Priority":-1,"SubmitTime":9223372036854774784,"Stop":false')
      .replace('"Running":3', '"Running":3,"Lost":-9223372036854775808');
    const answers: Record<Kind, string[]> = { memory: [], postgres: [] };
    for (const kind of ["memory", "postgres"] as const) {
      const server = await start(kind, dataFile(text));
      if (server instanceof Error) throw server;
      try {
        for (const path of ["/v1/jobs?namespace=*", "/v1/deployments?namespace=*", "/v1/jobs?namespace=*&filter=" + encodeURIComponent('StatusDescription matches "^d+$"')]) {
          const res = await fetch(`${server.apiUrl}${path}`);
          answers[kind].push(`${res.status} ${res.headers.get("x-svc-index")} ${await res.text()}`);
        }
      } finally {
        await server.lifecycle.shutdown();
      }
    }
    expect(answers.postgres).toEqual(answers.memory);
    const jobs = JSON.parse(answers.memory[0]!.replace(/^200 \d+ /, "")) as Record<string, unknown>[];
    expect(jobs.map((j) => [j["Namespace"], j["ID"]])).toEqual([
      ["Ns-2", "long"],
      ["default", "edge"],
    ]);
    expect(jobs[1]!["Meta"]).toEqual({ "k\ufffd": ["\ufffd", 1.5, 1e300], deep: JSON.parse(nested(62)) });
    expect(answers.memory[0]).toMatch(/^200 9007199254740991 /);
    expect(answers.memory[2]).toMatch(/^200 \d+ \[\{.*"ID":"long"/);
  });
});
