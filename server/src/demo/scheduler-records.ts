/**
 * Demo allocations, nodes and evaluations: a handful of each, shaped as the library's
 * `schemas.allocation`, `schemas.node` and `schemas.evaluation` (the scheduler's
 * structs.AllocListStub, structs.NodeListStub and structs.Evaluation), and consistent with a demo
 * snapshot's jobs: each allocation and evaluation belongs to one of its jobs, in its namespace, and
 * runs on one of the demo nodes of a datacenter the job names (`generateDemo` adds them to its snapshot).
 *
 * Deterministic: the same snapshot gives the same records (no clock, no randomness beyond the
 * snapshot's seed).
 */
import { schemas, type AllocationListStub, type Evaluation, type NodeListStub, type TaskState } from "filter-expr";
import { withZeros, type JobListEntry, type Snapshot } from "../lists/records.js";

/** 2023-11-14T22:13:20Z, the demo data's epoch (generate.ts). */
const EPOCH_TEXT = "2023-11-14T22:13:20Z";
/** A time `seconds` after the epoch, as the scheduler writes a time.Time (RFC 3339, UTC). */
const at = (seconds: number): string => new Date(Date.parse(EPOCH_TEXT) + seconds * 1000).toISOString().replace(".000Z", "Z");
/** Unix nanoseconds `seconds` after the epoch (1.7e18 and whole seconds of nanoseconds are exact doubles). */
const nanos = (seconds: number): number => 1.7e18 + seconds * 1e9;

const NODE_PLAN = [
  { name: "client-dc1-a", dc: "dc1", class: "general", status: "ready", eligibility: "eligible", drain: false },
  { name: "client-dc1-b", dc: "dc1", class: "highmem", status: "ready", eligibility: "ineligible", drain: true },
  { name: "client-dc2-a", dc: "dc2", class: "general", status: "ready", eligibility: "eligible", drain: false },
  { name: "client-dc3-a", dc: "dc3", class: "gpu", status: "down", eligibility: "eligible", drain: false },
  { name: "client-eu-a", dc: "eu-west-1", class: "general", status: "ready", eligibility: "eligible", drain: false },
  { name: "client-us-a", dc: "us-east-1", class: "general", status: "disconnected", eligibility: "eligible", drain: false },
] as const;

/** A UUID made from a name (stable across runs). */
function uuidOf(name: string): string {
  let h = 0x811c9dc5;
  const words: string[] = [];
  for (let round = 0; round < 4; round++) {
    for (const c of `${round}:${name}`) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
    words.push(h.toString(16).padStart(8, "0"));
  }
  const hex = words.join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The demo nodes: one or two per demo datacenter, in every status and eligibility. */
export function demoNodes(): NodeListStub[] {
  return NODE_PLAN.map((p, i): NodeListStub => ({
    Address: `10.0.${i}.10`,
    ID: uuidOf(`node/${p.name}`),
    Attributes: { "kernel.name": "linux", "cpu.arch": "amd64", "os.name": "ubuntu", "nomad.version": "2.0.6", "unique.hostname": p.name },
    Datacenter: p.dc,
    Name: p.name,
    NodePool: p.class === "gpu" ? "gpu" : "default",
    NodeClass: p.class,
    Version: "2.0.6",
    Drain: p.drain,
    SchedulingEligibility: p.eligibility,
    Status: p.status,
    StatusDescription: p.status === "down" ? "node heartbeat missed" : "",
    Drivers: {
      docker: { Attributes: { "driver.docker": "true", "driver.docker.version": "27.3.1" }, Detected: true, Healthy: p.status === "ready", HealthDescription: "Healthy", UpdateTime: at(60 * i) },
      exec: { Attributes: { "driver.exec": "true" }, Detected: true, Healthy: true, HealthDescription: "Healthy", UpdateTime: at(60 * i) },
    },
    HostVolumes: p.class === "highmem" ? { scratch: { Name: "scratch", Path: "/srv/scratch", ReadOnly: false, ID: "" } } : null,
    NodeResources: null,
    ReservedResources: null,
    LastDrain: p.drain ? { StartedAt: at(3600), UpdatedAt: at(3660), Status: "draining", AccessorID: uuidOf("token/ops"), Meta: { message: "kernel upgrade" } } : null,
    CreateIndex: 5 + i,
    ModifyIndex: 5 + i + (p.drain ? 40 : 0),
  }));
}

/** The task groups of a job, by its summary. */
const groupsOf = (job: JobListEntry): string[] => Object.keys(job.JobSummary?.Summary ?? {}).sort();

/**
 * The demo jobs the records belong to: running ones of each type, then dead ones, from the default
 * namespace (a request without `namespace` finds some of each) and from the others.
 */
function pickJobs(snapshot: Snapshot): JobListEntry[] {
  const jobs = snapshot.jobs.map((r) => r.entry).filter((j) => groupsOf(j).length > 0);
  const picked: JobListEntry[] = [];
  /** The first `inDefault` jobs `keep` takes in the default namespace, and the first `elsewhere` in the others. */
  const take = (keep: (j: JobListEntry) => boolean, inDefault: number, elsewhere: number): void => {
    picked.push(...jobs.filter((j) => keep(j) && j.Namespace === "default").slice(0, inDefault));
    picked.push(...jobs.filter((j) => keep(j) && j.Namespace !== "default").slice(0, elsewhere));
  };
  take((j) => j.Type === "service" && j.Status === "running", 2, 1);
  take((j) => j.Type === "batch" && j.Status === "running", 1, 1);
  for (const type of ["system", "sysbatch"]) take((j) => j.Type === type && j.Status === "running", 1, 0);
  take((j) => j.Status === "dead", 1, 1);
  return picked;
}

/** A node of one of the job's datacenters (the first demo node when none is). */
function nodeFor(job: JobListEntry, nodes: readonly NodeListStub[], n: number): NodeListStub {
  const fit = nodes.filter((node) => (job.Datacenters ?? []).includes(node.Datacenter) && node.Status === "ready");
  return (fit.length > 0 ? fit : nodes)[n % (fit.length > 0 ? fit.length : nodes.length)]!;
}

function taskState(state: "pending" | "running" | "dead", failed: boolean, started: number): TaskState {
  const events = [
    { Type: "Received", Seconds: started, Message: "", Display: "Task received by client" },
    { Type: "Started", Seconds: started + 5, Message: "", Display: "Task started by client" },
    ...(state === "dead" ? [{ Type: failed ? "Terminated" : "Killed", Seconds: started + 600, Message: failed ? "Exit Code: 1" : "", Display: failed ? "Exit Code: 1" : "Task successfully killed" }] : []),
  ];
  return {
    State: state,
    Failed: failed,
    Restarts: failed ? 2 : 0,
    LastRestart: failed ? at(started + 300) : null,
    StartedAt: state === "pending" ? null : at(started + 5),
    FinishedAt: state === "dead" ? at(started + 600) : null,
    Events: events.map((e) => ({
      Type: e.Type,
      Time: nanos(e.Seconds),
      Message: e.Message,
      DisplayMessage: e.Display,
      Details: (e.Type === "Terminated" ? { exit_code: "1", signal: "0" } : {}) as Record<string, string>,
      FailsTask: false,
      RestartReason: "",
      SetupError: "",
      DriverError: "",
      ExitCode: e.Type === "Terminated" ? 1 : 0,
      Signal: 0,
      KillTimeout: e.Type === "Killed" ? 5_000_000_000 : 0,
      KillError: "",
      KillReason: "",
      StartDelay: 0,
      DownloadError: "",
      ValidationError: "",
      DiskLimit: 0,
      FailedSibling: "",
      VaultError: "",
      TaskSignalReason: "",
      TaskSignal: "",
      DriverMessage: "",
      GenericSource: "",
    })),
    Paused: "",
  };
}

/** Demo allocations: one per task group of a handful of demo jobs, on demo nodes. */
export function demoAllocations(snapshot: Snapshot, nodes: readonly NodeListStub[] = demoNodes()): AllocationListStub[] {
  const out: AllocationListStub[] = [];
  let n = 0;
  for (const job of pickJobs(snapshot)) {
    for (const group of groupsOf(job)) {
      const node = nodeFor(job, nodes, n);
      const dead = job.Status === "dead";
      const failed = dead && n % 2 === 1;
      const started = 600 * ++n;
      const clientStatus = dead ? (failed ? "failed" : "complete") : job.Type === "batch" && n % 3 === 0 ? "pending" : "running";
      const state = clientStatus === "pending" ? "pending" : clientStatus === "running" ? "running" : "dead";
      const deployment = snapshot.deployments.find((d) => d.JobID === job.ID && d.Namespace === job.Namespace);
      out.push({
        ID: uuidOf(`alloc/${job.Namespace}/${job.ID}/${group}`),
        EvalID: uuidOf(`eval/${job.Namespace}/${job.ID}`),
        Name: `${job.ID}.${group}[0]`,
        Namespace: job.Namespace,
        NodeID: node.ID,
        NodeName: node.Name,
        JobID: job.ID,
        JobType: job.Type,
        JobVersion: 0,
        TaskGroup: group,
        AllocatedResources: null,
        DesiredStatus: dead ? "stop" : "run",
        DesiredDescription: dead ? "alloc not needed due to job update" : "",
        ClientStatus: clientStatus,
        ClientDescription: clientStatus === "running" ? "Tasks are running" : clientStatus === "failed" ? "Failed tasks" : clientStatus === "complete" ? "All tasks have completed" : "No tasks have started",
        DesiredTransition: { Migrate: node.Drain ? true : null, Reschedule: null, ForceReschedule: null, NoShutdownDelay: null, MigrateDisablePlacement: null },
        TaskStates: { [group]: taskState(state, failed, started) },
        DeploymentStatus: deployment && job.Type === "service" ? { Healthy: clientStatus === "running", Timestamp: at(started + 30), Canary: false, ModifyIndex: deployment.ModifyIndex } : null,
        FollowupEvalID: "",
        NextAllocation: "",
        RescheduleTracker: failed ? { Events: [{ RescheduleTime: nanos(started + 700), PrevAllocID: uuidOf(`alloc/prev/${job.ID}`), PrevNodeID: node.ID, Delay: 30_000_000_000 }], LastReschedule: "ok" } : null,
        PreemptedAllocations: null,
        PreemptedByAllocation: "",
        CreateIndex: job.CreateIndex + 1,
        ModifyIndex: job.ModifyIndex + 2,
        CreateTime: nanos(started),
        ModifyTime: nanos(started + 60),
      });
    }
  }
  return out;
}

/** Demo evaluations: the registration of each job the allocations belong to, one blocked, and a core one. */
export function demoEvaluations(snapshot: Snapshot): Evaluation[] {
  const jobs = pickJobs(snapshot);
  const evaluation = (id: string, job: JobListEntry | undefined, extra: Partial<Evaluation>): Evaluation =>
    withZeros<Evaluation>(schemas.evaluation, {
      ID: id,
      Namespace: job?.Namespace ?? "-",
      Priority: job?.Priority ?? 200,
      Type: job?.Type ?? "_core",
      TriggeredBy: "job-register",
      JobID: job?.ID ?? "job-gc",
      JobModifyIndex: job?.JobModifyIndex ?? 0,
      Status: "complete",
      QueuedAllocations: job ? Object.fromEntries(groupsOf(job).map((g) => [g, 0])) : null,
      SnapshotIndex: (job?.ModifyIndex ?? snapshot.index) + 1,
      CreateIndex: (job?.ModifyIndex ?? snapshot.index) + 1,
      ModifyIndex: (job?.ModifyIndex ?? snapshot.index) + 2,
      CreateTime: nanos(job ? job.CreateIndex * 37 : 86_400),
      ModifyTime: nanos(job ? job.CreateIndex * 37 + 2 : 86_401),
      ...extra,
    });
  const out = jobs.map((job) => evaluation(uuidOf(`eval/${job.Namespace}/${job.ID}`), job, job.Status === "dead" ? { TriggeredBy: "job-deregister", QueuedAllocations: null } : {}));
  const blockedJob = jobs.find((j) => j.Type === "service");
  if (blockedJob) {
    const group = groupsOf(blockedJob)[0]!;
    out.push(
      evaluation(uuidOf(`eval/blocked/${blockedJob.ID}`), blockedJob, {
        TriggeredBy: "queued-allocs",
        Status: "blocked",
        StatusDescription: "created to place remaining allocations",
        PreviousEval: uuidOf(`eval/${blockedJob.Namespace}/${blockedJob.ID}`),
        ClassEligibility: { general: true, gpu: false },
        FailedTGAllocs: {
          [group]: {
            NodesEvaluated: 4,
            NodesFiltered: 1,
            NodesInPool: 5,
            NodePool: "default",
            NodesAvailable: { dc1: 2, dc2: 1 },
            ClassFiltered: { gpu: 1 },
            ConstraintFiltered: { "${attr.kernel.name} = linux": 0 },
            NodesExhausted: 3,
            ClassExhausted: { general: 3 },
            DimensionExhausted: { memory: 3 },
            QuotaExhausted: null,
            ResourcesExhausted: null,
            Scores: null,
            ScoreMetaData: null,
            AllocationTime: 120_000,
            CoalescedFailures: 2,
          },
        },
        QueuedAllocations: { [group]: 3 },
      }),
    );
  }
  out.push(evaluation(uuidOf("eval/core/job-gc"), undefined, { TriggeredBy: "scheduled", Status: "complete" }));
  return out;
}
