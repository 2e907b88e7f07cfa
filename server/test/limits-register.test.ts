/**
 * Registrations under attack, round three (issue 21, items 1–5), on both stores: JSON types the
 * scheduler's decoder refuses, bounds on what one job holds, strings PostgreSQL cannot hold (NUL,
 * lone surrogates, long IDs), namespace names, and task groups named like Object.prototype's members.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AclToken } from "../src/context.js";
import { JOB_LIMITS } from "../src/lists/job-limits.js";
import { serveStore, type StoreKind, type StoreServer } from "./support/postgres.js";
import { clusterForFile } from "./support/cluster.js";

type Json = Record<string, unknown>;

const TOKENS: AclToken[] = [
  { SecretID: "dev-writer", Capabilities: ["job:write@dev"] },
  { SecretID: "mgmt", Management: true, Capabilities: [] },
];

// A seeded job whose summary has a `__proto__` group: the data file's JSON (JSON.parse keeps the key).
const SEEDED = JSON.parse(
  '{"jobs": [{"ID": "seeded", "Namespace": "default", "Type": "batch", "Status": "running", "JobSummary": {"Summary": {"__proto__": {"Running": 4}, "web": {"Running": 1}}}}]}',
) as unknown;

const cluster = clusterForFile();

describe.each<StoreKind>(["memory", "postgres"])("the %s store", (kind) => {
  let server: StoreServer;
  let acl: StoreServer;
  beforeAll(async () => {
    [server, acl] = await Promise.all([serveStore(kind, cluster(), SEEDED), serveStore(kind, cluster(), {}, TOKENS)]);
  });
  afterAll(async () => {
    await Promise.all([server?.close(), acl?.close()]);
  });

  const put = (body: unknown, query = "", on: StoreServer = server, headers: Record<string, string> = {}): Promise<Response> =>
    fetch(`${on.base}/v1/jobs${query}`, { method: "PUT", body: typeof body === "string" ? body : JSON.stringify(body), headers });
  const job = (id: string, extra: Json = {}, groups: unknown = [{ Name: "g", Count: 1 }]): Json => ({ Job: { ID: id, Type: "batch", TaskGroups: groups, ...extra } });
  const jobsIndex = async (on: StoreServer = server): Promise<string | null> => {
    const res = await fetch(`${on.base}/v1/jobs?per_page=1`);
    await res.arrayBuffer();
    return res.headers.get("x-svc-index");
  };
  const list = async (query: string): Promise<{ status: number; jobs: Json[]; text: string }> => {
    const res = await fetch(`${server.base}/v1/jobs?${query}`);
    const text = await res.text();
    return { status: res.status, jobs: res.status === 200 ? (JSON.parse(text) as Json[]) : [], text };
  };
  /** Registers, expecting a 400 whose message contains each of `messages`; nothing is written. */
  async function refused(body: unknown, messages: string[], query = ""): Promise<string> {
    const before = await jobsIndex();
    const res = await put(body, query);
    const text = await res.text();
    expect(res.status, text).toBe(400);
    expect(text).toMatch(/^Job validation failed: \d+ errors? occurred:\n/);
    for (const m of messages) expect(text).toContain(m);
    expect(await jobsIndex()).toBe(before);
    return text;
  }
  async function accepted(body: unknown, query = ""): Promise<void> {
    const res = await put(body, query);
    expect(res.status, await res.text()).toBe(200);
  }

  describe("1. types the scheduler's decoder refuses are 400s", () => {
    it.each<[string, Json, string]>([
      ["Count 1e308", job("t-count", {}, [{ Name: "g", Count: 1e308 }]), "TaskGroups[0].Count is out of range: 1e+308 is not an integer between -9007199254740991 and 9007199254740991"],
      ["Count beyond 2^53", job("t-count2", {}, [{ Name: "g", Count: 2 ** 60 }]), "TaskGroups[0].Count is out of range"],
      ["Count 1.5", job("t-frac", {}, [{ Name: "g", Count: 1.5 }]), "TaskGroups[0].Count must be an integer, not 1.5"],
      ["Count as a string", job("t-str", {}, [{ Name: "g", Count: "2" }]), "TaskGroups[0].Count must be an integer, not a string"],
      ["Periodic true", job("t-periodic", { Periodic: true }), "Periodic must be an object (a PeriodicConfig), not a boolean"],
      ["a Periodic field", job("t-periodic2", { Periodic: { Enabled: "yes" } }), "Periodic.Enabled must be a boolean, not a string"],
      ["Multiregion \"x\"", job("t-mr", { Multiregion: "x" }), "Multiregion must be an object (a Multiregion), not a string"],
      ["Multiregion regions", job("t-mr2", { Multiregion: { Regions: { Name: "east" } } }), "Multiregion.Regions must be a list (of MultiregionRegion objects), not an object"],
      ["Update []", job("t-update", { Update: [] }), "Update must be an object (an UpdateStrategy), not an array"],
      ["a group's Update", job("t-gupdate", {}, [{ Name: "g", Update: { Canary: true } }]), "TaskGroups[0].Update.Canary must be an integer, not a boolean"],
      ["ParameterizedJob", job("t-param", { ParameterizedJob: "yes" }), "ParameterizedJob must be an object (a ParameterizedJobConfig), not a string"],
      ["Stop", job("t-stop", { Stop: "yes" }), "Stop must be a boolean, not a string"],
      ["Priority", job("t-prio", { Priority: 50.5 }), "Priority must be an integer, not 50.5"],
      ["Datacenters", job("t-dc", { Datacenters: "dc1" }), "Datacenters must be a list (of strings), not a string"],
      ["a datacenter", job("t-dc2", { Datacenters: ["dc1", 2] }), "Datacenters[1] must be a string, not a number"],
      ["TaskGroups", job("t-tg", {}, { Name: "g" }), "TaskGroups must be a list (of TaskGroup objects), not an object"],
      ["a task group", job("t-tg2", {}, [null]), "TaskGroups[0] must be an object (a TaskGroup), not null"],
      ["the job", { Job: [] }, "Job must be an object (a Job), not an array"],
    ])("%s", async (_name, body, message) => {
      await refused(body, [message]);
    });

    it("every error of a job in one answer", async () => {
      const text = await refused(job("t-many", { Periodic: true, Update: [], Multiregion: "x" }, [{ Name: "g", Count: 1e308 }]), []);
      expect(text.split("\n\t* ")).toHaveLength(5);
      expect(text).toMatch(/^Job validation failed: 4 errors occurred:\n/);
    });

    it("what the decoder accepts still registers: the largest safe Count, a PeriodicConfig, a Multiregion as the scheduler stores it", async () => {
      await accepted(job("ok-count", {}, [{ Name: "g", Count: Number.MAX_SAFE_INTEGER }]));
      await accepted(job("ok-periodic", { Periodic: { Spec: "@daily", Enabled: true }, Update: null, Multiregion: { Regions: [{ Name: "east", Meta: { a: null } }], Other: 1 } }));
      const { jobs } = await list(`filter=${encodeURIComponent('ID matches "^ok-"')}`);
      expect(jobs.map((j) => [j["ID"], j["Periodic"]])).toEqual([
        ["ok-count", false],
        ["ok-periodic", true],
      ]);
      expect((jobs[0]!["JobSummary"] as { Summary: Json }).Summary).toEqual({ g: { Complete: 0, Failed: 0, Lost: 0, Queued: Number.MAX_SAFE_INTEGER, Running: 0, Starting: 0 } });
      expect(jobs[1]!["Multiregion"]).toEqual({ Strategy: { MaxParallel: 0, OnFailure: "" }, Regions: [{ Name: "east", Count: 1, Datacenters: [], NodePool: "", Meta: { a: "" } }] });
    });
  });

  describe("2. bounds on what one job holds", () => {
    const long = (bytes: number): string => "n".repeat(bytes);
    it.each<[string, Json, string]>([
      ["a Name of 1 MB", job("b-name", { Name: long(1 << 20) }), `Name is 1048576 bytes long, more than the ${JOB_LIMITS.nameBytes} this server accepts`],
      ["an ID past the bound", job(long(JOB_LIMITS.idBytes + 1)), `ID is ${JOB_LIMITS.idBytes + 1} bytes long, more than the ${JOB_LIMITS.idBytes} this server accepts`],
      ["an ID of few characters but many bytes", job("é".repeat(JOB_LIMITS.idBytes / 2 + 1)), `ID is ${JOB_LIMITS.idBytes + 2} bytes long`],
      ["a ParentID past the bound", job("b-parent", { ParentID: long(JOB_LIMITS.idBytes + 1) }), "ParentID is"],
      ["a task group name", job("b-group", {}, [{ Name: long(JOB_LIMITS.nameBytes + 1) }]), `TaskGroups[0].Name is ${JOB_LIMITS.nameBytes + 1} bytes long`],
      ["a datacenter", job("b-dc", { Datacenters: [long(JOB_LIMITS.nameBytes + 1)] }), "Datacenters[0] is"],
      ["100,000 task groups", job("b-groups", {}, Array.from({ length: 100_000 }, (_, i) => ({ Name: `g${i}` }))), `TaskGroups has 100000 elements, more than the ${JOB_LIMITS.taskGroups} this server accepts`],
      ["too many datacenters", job("b-dcs", { Datacenters: Array.from({ length: JOB_LIMITS.datacenters + 1 }, (_, i) => `dc${i}`) }), `Datacenters has ${JOB_LIMITS.datacenters + 1} elements`],
      ["too many regions", job("b-regions", { Multiregion: { Regions: Array.from({ length: JOB_LIMITS.regions + 1 }, (_, i) => ({ Name: `r${i}` })) } }), "Multiregion.Regions has"],
      [
        "a list entry past its bound",
        job("b-entry", { Multiregion: { Regions: Array.from({ length: 60 }, (_, i) => ({ Name: `r${i}`, Datacenters: Array.from({ length: 10 }, () => long(200)) })) } }),
        `bytes of JSON, more than the ${JOB_LIMITS.entryBytes} this server accepts`,
      ],
    ])("%s is refused, saying which bound", async (_name, body, message) => {
      await refused(body, [message]);
    });

    it("a job at every count and length bound at once registers and lists", async () => {
      const name = (prefix: string, i: number): string => `${prefix}${i}-`.padEnd(JOB_LIMITS.nameBytes, "x");
      const body = job("b".repeat(JOB_LIMITS.idBytes), {
        Name: long(JOB_LIMITS.nameBytes),
        ParentID: "p".repeat(JOB_LIMITS.idBytes),
        Datacenters: Array.from({ length: JOB_LIMITS.datacenters }, (_, i) => name("dc", i)),
      }, Array.from({ length: JOB_LIMITS.taskGroups }, (_, i) => ({ Name: name("g", i), Count: 3 })));
      await accepted(body);
      const { status, jobs } = await list(`prefix=${"b".repeat(JOB_LIMITS.idBytes)}`);
      expect(status).toBe(200);
      expect(Object.keys((jobs[0]!["JobSummary"] as { Summary: Json }).Summary)).toHaveLength(JOB_LIMITS.taskGroups);
      expect(Buffer.byteLength(JSON.stringify(jobs[0]))).toBeLessThanOrEqual(JOB_LIMITS.entryBytes);
    });

    it("after the 1 MB Name is refused, a regular expression filter over every job answers at once", async () => {
      const { status, text } = await list(`namespace=*&filter=${encodeURIComponent('Name matches "(?i)[a-z]+[0-9]+z"')}`);
      expect(status, text).toBe(200);
    });
  });

  describe("3. strings both stores hold alike", () => {
    it.each<[string, Json, string]>([
      ["a NUL in the ID", job("nul\u0000id"), "Job ID contains a null character"],
      ["a NUL in the Name", job("nul-name", { Name: "a\u0000b" }), "Job Name contains a null character"],
      ["a NUL in a task group name", job("nul-group", {}, [{ Name: "g\u0000" }]), "Task group name contains null character"],
      ["a NUL in a datacenter", job("nul-dc", { Datacenters: ["dc\u0000"] }), "Datacenters[0] contains a null character"],
      ["a NUL in the ParentID", job("nul-parent", { ParentID: "\u0000" }), "ParentID contains a null character"],
      ["a NUL in a Multiregion meta key", job("nul-meta", { Multiregion: { Regions: [{ Name: "r", Meta: { "k\u0000": "v" } }] } }), "contains a null character"],
      ["an ID of 3,000 bytes", job("i".repeat(3000)), "ID is 3000 bytes long"],
      ["a NUL in the Namespace", job("nul-ns", { Namespace: "dev\u0000" }), "Namespace contains a null character"],
    ])("%s: the same 400", async (_name, body, message) => {
      await refused(body, [message]);
    });

    it("a NUL in the namespace parameter: the same 400", async () => {
      await refused(job("nul-ns-query"), ["namespace contains a null character"], "?namespace=dev%00");
    });

    it("lone surrogates are stored as U+FFFD (as the scheduler's decoder reads them), in names and keys", async () => {
      // JSON.stringify writes a lone surrogate as the escape \ud800, which JSON.parse reads back as one.
      await accepted(job("lone-\ud800", { Name: "a\ud800b\udc00", Datacenters: ["dc-\udfff"] }, [{ Name: "g\ud83d", Count: 2 }]));
      const { jobs, text } = await list(`prefix=lone-`);
      expect(text).not.toMatch(/\\ud[89a-f]/i);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({ ID: "lone-\ufffd", Name: "a\ufffdb\ufffd", Datacenters: ["dc-\ufffd"] });
      expect(Object.keys((jobs[0]!["JobSummary"] as { Summary: Json }).Summary)).toEqual(["g\ufffd"]);
      const filtered = await list(`filter=${encodeURIComponent('Name == "a\ufffdb\ufffd"')}`);
      expect(filtered.jobs.map((j) => j["ID"])).toEqual(["lone-\ufffd"]);
    });
  });

  describe("4. namespace names", () => {
    const invalid: [string, string][] = [
      ["a leading space", " dev"],
      ["a trailing space", "dev "],
      ["*", "*"],
      ["a dot", "a.b"],
      ["a letter outside ASCII", "d\u00e9v"],
      ["129 characters", "n".repeat(129)],
      ["4,096 characters", "-".repeat(4096)],
    ];
    it.each(invalid)("the body's Namespace with %s is refused", async (_name, namespace) => {
      const text = await refused(job(`ns-body`, { Namespace: namespace }), ["is invalid: a namespace name must match ^[a-zA-Z0-9-]{1,128}$"]);
      expect(text).toContain("Job namespace ");
    });

    it.each(invalid)("the query's namespace with %s is refused", async (_name, namespace) => {
      await refused(job(`ns-query`), ["is invalid"], `?namespace=${encodeURIComponent(namespace)}`);
    });

    it("valid names register; a namespace=* walk then returns each job once", async () => {
      await accepted(job("ns-ok", { Namespace: "Dev-2" }));
      await accepted(job("ns-ok", { Namespace: "n".repeat(128) }));
      await accepted(job("ns-ok"), "?namespace=dev");
      const seen: string[] = [];
      let token: string | null = "";
      while (token !== null) {
        const res: Response = await fetch(`${server.base}/v1/jobs?namespace=*&per_page=3&next_token=${encodeURIComponent(token)}`);
        seen.push(...((await res.json()) as Json[]).map((j) => `${String(j["Namespace"])}/${String(j["ID"])}`));
        token = res.headers.get("x-svc-nexttoken");
      }
      expect(new Set(seen).size).toBe(seen.length);
      for (const ns of ["Dev-2", "n".repeat(128), "dev"]) expect(seen).toContain(`${ns}/ns-ok`);
      for (const j of seen) expect(j.split("/")[0]).toMatch(/^[a-zA-Z0-9-]{1,128}$/);
    });

    it("with ACLs on, a token that may not write there is refused (403) before the name is judged; one that may, gets the 400", async () => {
      const before = await jobsIndex(acl);
      const denied = await put(job("ns-acl", { Namespace: " dev" }), "", acl, { "X-Svc-Token": "dev-writer" });
      expect(denied.status).toBe(403);
      expect(await denied.text()).toBe("Permission denied");
      const bad = await put(job("ns-acl", { Namespace: " dev" }), "", acl, { "X-Svc-Token": "mgmt" });
      expect(bad.status).toBe(400);
      expect(await bad.text()).toContain("is invalid");
      expect(await jobsIndex(acl)).toBe(before);
      expect((await put(job("ns-acl", { Namespace: "dev" }), "", acl, { "X-Svc-Token": "dev-writer" })).status).toBe(200);
    });
  });

  describe("5. task groups named like Object.prototype's members", () => {
    const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty"];
    const groups = NAMES.map((Name, i) => ({ Name, Count: i + 2 }));

    it("are kept as groups of the summary and of the deployment, listed and filtered", async () => {
      await accepted({ Job: { ID: "proto", Type: "service", TaskGroups: groups } });
      await accepted({ Job: { ID: "plain", Type: "service", TaskGroups: [{ Name: "web", Count: 1 }] } });
      const { jobs } = await list("prefix=proto");
      const summary = (jobs[0]!["JobSummary"] as { Summary: Record<string, Json> }).Summary;
      expect(Object.keys(summary).sort()).toEqual([...NAMES].sort());
      for (const [i, name] of NAMES.entries()) expect(Object.getOwnPropertyDescriptor(summary, name)?.value).toMatchObject({ Queued: i + 2, Running: 0 });

      const ids = async (filter: string, path = "/v1/jobs"): Promise<unknown[]> => {
        const res = await fetch(`${server.base}${path}?filter=${encodeURIComponent(filter)}`);
        const text = await res.text();
        expect(res.status, text).toBe(200);
        return (JSON.parse(text) as Json[]).map((j) => j["JobID"] ?? j["ID"]);
      };
      // A map key in the middle of a selector must exist in every item read: guarded with `in`.
      expect(await ids('"__proto__" in JobSummary.Summary and JobSummary.Summary["__proto__"].Queued == 2')).toEqual(["proto"]);
      expect(await ids('"constructor" in JobSummary.Summary and JobSummary.Summary["constructor"].Queued == 3')).toEqual(["proto"]);
      expect(await ids('"constructor" in JobSummary.Summary')).toEqual(["proto"]);
      expect(await ids('"toString" in JobSummary.Summary and "hasOwnProperty" in JobSummary.Summary')).toEqual(["proto"]);
      expect(await ids('"constructor" not in JobSummary.Summary and "web" in JobSummary.Summary')).toEqual(["plain", "seeded"]);
      expect(await ids('"__proto__" in TaskGroups and TaskGroups["__proto__"].DesiredTotal == 2', "/v1/deployments")).toEqual(["proto"]);
      expect(await ids('"toString" in TaskGroups', "/v1/deployments")).toEqual(["proto"]);
    });

    it("a new group named constructor in a running job's next version gets its own summary", async () => {
      const periodic = (names: string[]) => ({ Job: { ID: "proto-periodic", Type: "batch", Periodic: {}, TaskGroups: names.map((Name) => ({ Name, Count: 5 })) } });
      await accepted(periodic(["a"]));
      await accepted(periodic(["a", "constructor", "__proto__"]));
      const { jobs } = await list("prefix=proto-periodic");
      expect(jobs[0]!["Status"]).toBe("running");
      const summary = (jobs[0]!["JobSummary"] as { Summary: Record<string, Json> }).Summary;
      expect(Object.keys(summary).sort()).toEqual(["__proto__", "a", "constructor"]);
      expect(Object.getOwnPropertyDescriptor(summary, "constructor")?.value).toEqual({ Complete: 0, Failed: 0, Lost: 0, Queued: 5, Running: 0, Starting: 0 });
      expect(Object.getOwnPropertyDescriptor(summary, "__proto__")?.value).toMatchObject({ Queued: 5 });
    });

    it("a data file's __proto__ group is kept", async () => {
      const { jobs } = await list(`filter=${encodeURIComponent('"__proto__" in JobSummary.Summary and JobSummary.Summary["__proto__"].Running == 4')}`);
      expect(jobs.map((j) => j["ID"])).toEqual(["seeded"]);
    });
  });
});
