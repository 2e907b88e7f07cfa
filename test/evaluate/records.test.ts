import { describe, expect, it } from "vitest";
import { compile, schemas, type Deployment, type DeploymentState, type JobListStub, type JobSummary, type Multiregion, type RecordType, type TaskGroupSummary, type Type } from "../../src/index.js";

// Every key of each exported record type, spelt once: the compiler rejects a missing or an extra one.
const JOB: Record<keyof JobListStub, true> = {
  ID: true, ParentID: true, Name: true, Namespace: true, Datacenters: true, Multiregion: true, Type: true, Priority: true, Periodic: true,
  ParameterizedJob: true, Stop: true, Status: true, StatusDescription: true, JobSummary: true, CreateIndex: true, ModifyIndex: true, JobModifyIndex: true, SubmitTime: true,
};
const SUMMARY: Record<keyof JobSummary, true> = { JobID: true, Namespace: true, Children: true, Summary: true, CreateIndex: true, ModifyIndex: true };
const GROUP: Record<keyof TaskGroupSummary, true> = { Queued: true, Complete: true, Failed: true, Running: true, Starting: true, Lost: true };
const MULTIREGION: Record<keyof Multiregion, true> = { Strategy: true, Regions: true };
const DEPLOYMENT: Record<keyof Deployment, true> = {
  ID: true, Namespace: true, JobID: true, JobVersion: true, JobModifyIndex: true, JobSpecModifyIndex: true, JobCreateIndex: true, IsMultiregion: true,
  TaskGroups: true, Status: true, StatusDescription: true, EvalPriority: true, CreateIndex: true, ModifyIndex: true,
};
const STATE: Record<keyof DeploymentState, true> = {
  AutoRevert: true, AutoPromote: true, ProgressDeadline: true, Promoted: true, PlacedCanaries: true, DesiredCanaries: true, DesiredTotal: true,
  PlacedAllocs: true, HealthyAllocs: true, UnhealthyAllocs: true, RequireProgressBy: true,
};

/** The record a type holds (through pointers, maps and lists). */
function record(type: Type): RecordType {
  switch (type.kind) {
    case "record":
      return type;
    case "pointer":
      return record(type.target);
    case "map":
      return record(type.value);
    case "list":
      return record(type.elem);
    default:
      throw new Error(`no record in ${type.kind}`);
  }
}

describe("the record types of the built-in schemas", () => {
  it("have exactly the fields of schemas.job and schemas.deployment, at every level", () => {
    const job = schemas.job.fields;
    const deployment = schemas.deployment.fields;
    const cases: [Record<string, true>, RecordType][] = [
      [JOB, schemas.job],
      [SUMMARY, record(job.JobSummary!)],
      [GROUP, record(record(job.JobSummary!).fields.Summary!)],
      [MULTIREGION, record(job.Multiregion!)],
      [DEPLOYMENT, schemas.deployment],
      [STATE, record(deployment.TaskGroups!)],
    ];
    for (const [keys, rec] of cases) expect(Object.keys(keys).sort(), rec.name).toEqual(Object.keys(rec.fields).sort());
  });

  it("type a compiled filter's items", () => {
    const web: JobListStub = {
      ID: "web-1", ParentID: "", Name: "web-1", Namespace: "default", Datacenters: ["dc1"], Multiregion: null, Type: "service", Priority: 50,
      Periodic: false, ParameterizedJob: false, Stop: false, Status: "running", StatusDescription: "", CreateIndex: 7, ModifyIndex: 9, JobModifyIndex: 9, SubmitTime: 0,
      JobSummary: { JobID: "web-1", Namespace: "default", Children: null, Summary: { web: { Queued: 0, Complete: 0, Failed: 0, Running: 3, Starting: 0, Lost: 0 } }, CreateIndex: 7, ModifyIndex: 9 },
    };
    const f = compile<JobListStub>('"dc1" in Datacenters and JobSummary.Summary["web"].Running == 3', { schema: schemas.job });
    const dead: JobListStub = { ...web, ID: "web-2", Datacenters: ["dc2"], JobSummary: null };
    expect(f.filter([web, dead]).map((j) => j.ID)).toEqual(["web-1"]);
    const d = compile<Deployment>('TaskGroups.web.Promoted == true', { schema: schemas.deployment });
    const deployment: Deployment = {
      ID: "d1", Namespace: "default", JobID: "web-1", JobVersion: 1, JobModifyIndex: 9, JobSpecModifyIndex: 9, JobCreateIndex: 7, IsMultiregion: false,
      TaskGroups: { web: { AutoRevert: false, AutoPromote: false, ProgressDeadline: 0, Promoted: true, PlacedCanaries: null, DesiredCanaries: 1, DesiredTotal: 3, PlacedAllocs: 3, HealthyAllocs: 3, UnhealthyAllocs: 0, RequireProgressBy: null } },
      Status: "running", StatusDescription: "", EvalPriority: 50, CreateIndex: 10, ModifyIndex: 11,
    };
    expect(d.evaluate(deployment)).toBe(true);
  });
});
