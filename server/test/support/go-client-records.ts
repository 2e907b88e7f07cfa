/**
 * The allocations, nodes and evaluations server/test/go-client.test.ts gives the server (in its data
 * file), shaped as the library's records (the scheduler's structs.AllocListStub, structs.NodeListStub
 * and structs.Evaluation, every field written out), and what the scheduler's Go client keeps of each
 * (`allocationView`, `nodeView`, `evaluationView`): the test's expectations are computed from these.
 *
 * One record of each kind has every nested struct filled (resources, devices, deployment status,
 * reschedule tracker, failed task group metrics, plan annotations, related evaluations), so that a
 * field the client cannot decode makes its List fail.
 */
import type { AllocationListStub, AllocatedResources, Evaluation, EvaluationStub, NodeListStub, NodeResources, NodeReservedResources, TaskEvent, TaskState } from "filter-expr";

/** Go's zero time.Time, as its encoder writes it (and the client writes it back). */
export const ZERO_TIME = "0001-01-01T00:00:00Z";
/** A time `s` seconds after 2025-01-01, as RFC 3339 in UTC (the client's encoder writes it back the same). */
const at = (s: number): string => new Date(Date.UTC(2025, 0, 1) + s * 1000).toISOString().replace(".000Z", "Z");
/** Unix nanoseconds `s` seconds after 1.7e18 ns (exact doubles, so that JSON numbers round-trip). */
const nanos = (s: number): number => 1.7e18 + s * 1e9;
/** A UUID starting with eight hex digits `head`, numbered `n`. */
const uuid = (head: string, n: number): string => `${head}-0000-4000-8000-${String(n).padStart(12, "0")}`;

function taskEvent(type: string, s: number, extra: Partial<TaskEvent> = {}): TaskEvent {
  return {
    Type: type,
    Time: nanos(s),
    Message: "",
    DisplayMessage: `${type} by client`,
    Details: {},
    FailsTask: false,
    RestartReason: "",
    SetupError: "",
    DriverError: "",
    ExitCode: 0,
    Signal: 0,
    KillTimeout: 0,
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
    ...extra,
  };
}

function taskState(state: "pending" | "running" | "dead", s: number, failed = false): TaskState {
  const events = [taskEvent("Received", s), ...(state === "pending" ? [] : [taskEvent("Started", s + 5)])];
  if (state === "dead") events.push(failed ? taskEvent("Terminated", s + 600, { ExitCode: 1, Details: { exit_code: "1" }, FailsTask: true }) : taskEvent("Killed", s + 600, { KillTimeout: 5_000_000_000 }));
  return {
    State: state,
    Failed: failed,
    Restarts: failed ? 2 : 0,
    LastRestart: failed ? at(s + 300) : ZERO_TIME,
    StartedAt: state === "pending" ? ZERO_TIME : at(s + 5),
    FinishedAt: state === "dead" ? at(s + 600) : ZERO_TIME,
    Events: events,
    Paused: "",
  };
}

const ALLOCATED: AllocatedResources = {
  Tasks: {
    web: {
      Cpu: { CpuShares: 500, ReservedCores: [2, 3] },
      Memory: { MemoryMB: 256, MemoryMaxMB: 512 },
      Networks: null,
      Devices: [{ Vendor: "nvidia", Type: "gpu", Name: "T4", DeviceIDs: ["GPU-1"] }],
    },
    sidecar: { Cpu: { CpuShares: 100, ReservedCores: null }, Memory: { MemoryMB: 64, MemoryMaxMB: 0 }, Networks: null, Devices: null },
  },
  TaskLifecycles: { sidecar: { Hook: "prestart", Sidecar: true }, web: null },
  Shared: {
    Networks: [
      {
        Mode: "bridge",
        Device: "",
        CIDR: "",
        IP: "172.26.64.10",
        Hostname: "",
        MBits: 0,
        DNS: { Servers: ["10.0.0.2"], Searches: null, Options: null },
        ReservedPorts: [{ Label: "admin", Value: 9000, To: 0, HostNetwork: "default", IgnoreCollision: false }],
        DynamicPorts: [{ Label: "http", Value: 23456, To: 8080, HostNetwork: "default", IgnoreCollision: false }],
        CNI: null,
      },
    ],
    DiskMB: 300,
    Ports: [{ Label: "http", Value: 23456, To: 8080, HostIP: "10.0.0.10", IgnoreCollision: false }],
  },
};

interface AllocPlan {
  id: string;
  namespace: string;
  job: string;
  type: string;
  status: string;
  tasks: Record<string, TaskState>;
  createIndex: number;
  node: NodeListStub;
}

function allocation(p: AllocPlan, extra: Partial<AllocationListStub> = {}): AllocationListStub {
  const group = Object.keys(p.tasks).includes("worker") ? "workers" : "web";
  const stopped = p.status === "complete" || p.status === "failed";
  return {
    ID: p.id,
    EvalID: uuid("e0e0e0e0", p.createIndex),
    Name: `${p.job}.${group}[0]`,
    Namespace: p.namespace,
    NodeID: p.node.ID,
    NodeName: p.node.Name,
    JobID: p.job,
    JobType: p.type,
    JobVersion: p.createIndex % 3,
    TaskGroup: group,
    AllocatedResources: null,
    DesiredStatus: stopped ? "stop" : "run",
    DesiredDescription: stopped ? "alloc not needed due to job update" : "",
    ClientStatus: p.status,
    ClientDescription: p.status === "running" ? "Tasks are running" : "",
    DesiredTransition: { Migrate: null, Reschedule: null, ForceReschedule: null, NoShutdownDelay: null, MigrateDisablePlacement: null },
    TaskStates: p.tasks,
    DeploymentStatus: null,
    FollowupEvalID: "",
    NextAllocation: "",
    RescheduleTracker: null,
    PreemptedAllocations: null,
    PreemptedByAllocation: "",
    CreateIndex: p.createIndex,
    ModifyIndex: p.createIndex + 7,
    CreateTime: nanos(p.createIndex * 60),
    ModifyTime: nanos(p.createIndex * 60 + 30),
    ...extra,
  };
}

const NODE_RESOURCES: NodeResources = {
  Cpu: { CpuShares: 8000, TotalCpuCores: 4, ReservableCpuCores: [0, 1, 2, 3] },
  Processors: {
    Topology: {
      Nodes: [0],
      Distances: [[10]],
      Cores: [{ SocketID: 0, NodeID: 0, ID: 0, Grade: true, Disable: false, BaseSpeed: 2000, MaxSpeed: 3000, GuessSpeed: 0 }],
      BusAssociativity: { "0000:00:1f.0": 0 },
      OverrideTotalCompute: 0,
      OverrideWitholdCompute: 0,
    },
  },
  Memory: { MemoryMB: 16384 },
  Disk: { DiskMB: 100_000 },
  Devices: [
    {
      Vendor: "nvidia",
      Type: "gpu",
      Name: "T4",
      Instances: [{ ID: "GPU-1", Healthy: true, HealthDescription: "", Locality: { PciBusID: "0000:3b:00.0" } }],
      Attributes: {
        memory: { Float: null, Int: 16, String: null, Bool: null, Unit: "GiB" },
        clock: { Float: 1.59, Int: null, String: null, Bool: null, Unit: "GHz" },
        model: { Float: null, Int: null, String: "Tesla T4", Bool: null, Unit: "" },
        mig: { Float: null, Int: null, String: null, Bool: false, Unit: "" },
      },
    },
  ],
  NodeNetworks: [{ Mode: "host", Device: "eth0", MacAddress: "02:42:ac:11:00:02", Speed: 1000, Addresses: [{ Family: "ipv4", Alias: "default", Address: "10.0.0.10", ReservedPorts: "", Gateway: "" }] }],
  Networks: [{ Mode: "host", Device: "eth0", CIDR: "10.0.0.10/32", IP: "10.0.0.10", Hostname: "", MBits: 1000, DNS: null, ReservedPorts: null, DynamicPorts: null, CNI: null }],
  MinDynamicPort: 20000,
  MaxDynamicPort: 32000,
};

const NODE_RESERVED: NodeReservedResources = {
  Cpu: { CpuShares: 500, ReservedCpuCores: [0] },
  Memory: { MemoryMB: 512 },
  Disk: { DiskMB: 1024 },
  Networks: { ReservedHostPorts: "22,80" },
};

function node(head: string, name: string, createIndex: number, status: string, docker: boolean | undefined, extra: Partial<NodeListStub> = {}): NodeListStub {
  const driver = (healthy: boolean) => ({ Attributes: { "driver.version": "1" }, Detected: true, Healthy: healthy, HealthDescription: healthy ? "Healthy" : "Unhealthy", UpdateTime: at(createIndex) });
  return {
    Address: `10.0.${createIndex}.10`,
    ID: uuid(head, 1),
    Attributes: { "kernel.name": "linux", "unique.hostname": name },
    Datacenter: "dc1",
    Name: name,
    NodePool: "default",
    NodeClass: "",
    Version: "2.0.6",
    Drain: false,
    SchedulingEligibility: "eligible",
    Status: status,
    StatusDescription: "",
    Drivers: { exec: driver(true), ...(docker === undefined ? {} : { docker: driver(docker) }) },
    HostVolumes: null,
    NodeResources: null,
    ReservedResources: null,
    LastDrain: null,
    CreateIndex: createIndex,
    ModifyIndex: createIndex + 2,
    ...extra,
  };
}

/**
 * The nodes: their IDs' order is not their create index's (the client sorts each page by CreateIndex,
 * descending); two IDs start with `f00d`, a third with `f00e`; one node has no docker driver.
 */
export const NODES: readonly NodeListStub[] = [
  node("0a0a0a0a", "alpha", 24, "ready", true, {
    NodeClass: "gpu",
    Drain: true,
    SchedulingEligibility: "ineligible",
    HostVolumes: { scratch: { Name: "scratch", Path: "/srv/scratch", ReadOnly: false, ID: "" } },
    NodeResources: NODE_RESOURCES,
    ReservedResources: NODE_RESERVED,
    LastDrain: { StartedAt: at(3600), UpdatedAt: at(3660), Status: "draining", AccessorID: uuid("acce5500", 1), Meta: { message: "kernel upgrade" } },
  }),
  node("f00d0001", "bravo", 21, "ready", false),
  node("f00d0002", "charlie", 23, "down", true, { StatusDescription: "node heartbeat missed" }),
  node("c0ffee00", "delta", 20, "ready", true),
  node("beef0000", "echo", 22, "disconnected", undefined),
  node("f00e0000", "foxtrot", 25, "ready", true),
];
const [alpha, bravo, charlie, delta] = NODES as [NodeListStub, NodeListStub, NodeListStub, NodeListStub, ...NodeListStub[]];

/** The allocations, in two namespaces; task names `web`, `sidecar`, `worker`; create indexes unlike their IDs' order. */
export const ALLOCATIONS: readonly AllocationListStub[] = [
  allocation(
    { id: uuid("3c3c3c3c", 1), namespace: "default", job: "api", type: "service", status: "running", tasks: { web: taskState("running", 100), sidecar: taskState("running", 100) }, createIndex: 40, node: alpha },
    {
      AllocatedResources: ALLOCATED,
      DesiredTransition: { Migrate: true, Reschedule: null, ForceReschedule: null, NoShutdownDelay: false, MigrateDisablePlacement: null },
      DeploymentStatus: { Healthy: true, Timestamp: at(130), Canary: false, ModifyIndex: 39 },
      RescheduleTracker: { Events: [{ RescheduleTime: nanos(90), PrevAllocID: uuid("9e9e9e9e", 1), PrevNodeID: bravo.ID, Delay: 30_000_000_000 }], LastReschedule: "ok" },
      PreemptedAllocations: [uuid("9f9f9f9f", 1), uuid("9f9f9f9f", 2)],
      FollowupEvalID: uuid("e1e1e1e1", 1),
    },
  ),
  allocation({ id: uuid("1a1a1a1a", 1), namespace: "default", job: "cache", type: "service", status: "running", tasks: { worker: taskState("running", 200) }, createIndex: 41, node: delta }),
  allocation({ id: uuid("2b2b2b2b", 1), namespace: "default", job: "db", type: "service", status: "failed", tasks: { web: taskState("dead", 300, true), sidecar: taskState("dead", 300) }, createIndex: 42, node: bravo }),
  allocation({ id: uuid("0d0d0d0d", 1), namespace: "dev", job: "web-dev", type: "service", status: "running", tasks: { web: taskState("running", 400), sidecar: taskState("running", 400) }, createIndex: 43, node: delta }),
  allocation({ id: uuid("4e4e4e4e", 1), namespace: "default", job: "batch-1", type: "batch", status: "pending", tasks: { worker: taskState("pending", 500) }, createIndex: 44, node: charlie }),
  allocation({ id: uuid("5f5f5f5f", 1), namespace: "dev", job: "batch-dev", type: "batch", status: "complete", tasks: { worker: taskState("dead", 600) }, createIndex: 45, node: delta }),
  allocation({ id: uuid("6a6a6a6a", 1), namespace: "default", job: "api", type: "service", status: "running", tasks: { web: taskState("running", 700), sidecar: taskState("pending", 700) }, createIndex: 46, node: delta }),
];

function evaluation(head: string, namespace: string, job: string, status: string, triggeredBy: string, createIndex: number, extra: Partial<Evaluation> = {}): Evaluation {
  return {
    ID: uuid(head, 1),
    Namespace: namespace,
    Priority: 50,
    Type: job.startsWith("batch") ? "batch" : "service",
    TriggeredBy: triggeredBy,
    JobID: job,
    JobModifyIndex: createIndex - 1,
    NodeID: "",
    NodeModifyIndex: 0,
    DeploymentID: "",
    Status: status,
    StatusDescription: "",
    Wait: 0,
    WaitUntil: ZERO_TIME,
    NextEval: "",
    PreviousEval: "",
    BlockedEval: "",
    RelatedEvals: null,
    FailedTGAllocs: null,
    PlanAnnotations: null,
    ClassEligibility: null,
    QuotaLimitReached: "",
    MissingNonNodeResources: null,
    EscapedComputedClass: false,
    AnnotatePlan: false,
    QueuedAllocations: { web: 0 },
    LeaderACL: "",
    SnapshotIndex: createIndex,
    CreateIndex: createIndex,
    ModifyIndex: createIndex + 3,
    CreateTime: nanos(createIndex * 60),
    ModifyTime: nanos(createIndex * 60 + 2),
    ...extra,
  };
}

const stubOf = (e: Evaluation): EvaluationStub => ({
  ID: e.ID,
  Namespace: e.Namespace,
  Priority: e.Priority,
  Type: e.Type,
  TriggeredBy: e.TriggeredBy,
  JobID: e.JobID,
  NodeID: e.NodeID,
  DeploymentID: e.DeploymentID,
  Status: e.Status,
  StatusDescription: e.StatusDescription,
  WaitUntil: e.WaitUntil,
  NextEval: e.NextEval,
  PreviousEval: e.PreviousEval,
  BlockedEval: e.BlockedEval,
  CreateIndex: e.CreateIndex,
  ModifyIndex: e.ModifyIndex,
  CreateTime: e.CreateTime,
  ModifyTime: e.ModifyTime,
});

const registered = evaluation("e1e1e1e1", "default", "api", "complete", "job-register", 50, { BlockedEval: uuid("e2e2e2e2", 1) });

/** The evaluations: the job `api` has some in both namespaces; statuses complete, blocked, pending, failed. */
export const EVALUATIONS: readonly Evaluation[] = [
  registered,
  evaluation("e2e2e2e2", "default", "api", "blocked", "queued-allocs", 51, {
    StatusDescription: "created to place remaining allocations",
    PreviousEval: registered.ID,
    RelatedEvals: [stubOf(registered)],
    ClassEligibility: { gpu: true, "": false },
    EscapedComputedClass: true,
    QueuedAllocations: { web: 3 },
    FailedTGAllocs: {
      web: {
        NodesEvaluated: 6,
        NodesFiltered: 1,
        NodesInPool: 6,
        NodePool: "default",
        NodesAvailable: { dc1: 5 },
        ClassFiltered: { gpu: 1 },
        ConstraintFiltered: { "${attr.kernel.name} = linux": 0 },
        NodesExhausted: 4,
        ClassExhausted: { "": 4 },
        DimensionExhausted: { memory: 4 },
        QuotaExhausted: null,
        ResourcesExhausted: {
          web: {
            CPU: 500,
            Cores: 0,
            MemoryMB: 256,
            MemoryMaxMB: 512,
            DiskMB: 0,
            IOPS: 0,
            Networks: null,
            Devices: [{ Name: "nvidia/gpu", Count: 1, Constraints: [{ LTarget: "${device.attr.memory}", RTarget: "8 GiB", Operand: ">=" }], Affinities: [{ LTarget: "${device.model}", RTarget: "Tesla T4", Operand: "=", Weight: 50 }] }],
            NUMA: { Affinity: "prefer", Devices: ["nvidia/gpu"] },
            SecretsMB: 0,
          },
        },
        Scores: { binpack: 0.5 },
        ScoreMetaData: [{ NodeID: alpha.ID, Scores: { binpack: 0.5, "job-anti-affinity": -0.25 }, NormScore: 0.125 }],
        AllocationTime: 120_000,
        CoalescedFailures: 2,
      },
    },
  }),
  evaluation("e3e3e3e3", "default", "cache", "complete", "job-register", 52),
  evaluation("e4e4e4e4", "dev", "web-dev", "complete", "job-register", 53),
  evaluation("e5e5e5e5", "dev", "api", "pending", "node-update", 54, { NodeID: delta.ID, NodeModifyIndex: 22, Wait: 30_000_000_000, WaitUntil: at(9000) }),
  evaluation("e6e6e6e6", "default", "db", "failed", "alloc-failure", 55, {
    AnnotatePlan: true,
    StatusDescription: "maximum attempts reached (5)",
    PlanAnnotations: {
      DesiredTGUpdates: { web: { Ignore: 1, Place: 2, Migrate: 0, Stop: 1, InPlaceUpdate: 0, DestructiveUpdate: 1, Canary: 0, Preemptions: 1, Disconnect: 0, Reconnect: 0, RescheduleNow: 1, RescheduleLater: 0 } },
      PreemptedAllocs: [ALLOCATIONS[1]!],
    },
    MissingNonNodeResources: ["vault"],
    QuotaLimitReached: "",
  }),
];

// What the client keeps: its api structs (server/test/go-client/vendor/github.com/hashicorp/nomad/api)
// lack some of the scheduler's fields, and its encoder leaves out nil `omitempty` fields. These are
// the records as its List decodes them and encoding/json writes them back.

function omit<T extends object, K extends keyof T>(o: T, ...keys: K[]): Omit<T, K> {
  const out = { ...o };
  for (const k of keys) delete out[k];
  return out;
}
const mapValues = <V, W>(m: Record<string, V> | null, f: (v: V) => W): Record<string, W> | null => (m === null ? null : Object.fromEntries(Object.entries(m).map(([k, v]) => [k, f(v)])));
/** A field written with `omitempty`: absent when nil (or, for a map, empty). */
const omitEmpty = <K extends string, V>(key: K, v: V | null): Partial<Record<K, V>> =>
  v === null || (typeof v === "object" && Object.keys(v).length === 0) ? {} : ({ [key]: v } as Record<K, V>);

const allocatedView = (r: AllocatedResources) => ({
  // api.AllocatedResources has no TaskLifecycles, api.AllocatedCpuResources no ReservedCores, api.PortMapping no IgnoreCollision.
  Tasks: mapValues(r.Tasks, (t) => t && { ...t, Cpu: omit(t.Cpu, "ReservedCores") }),
  Shared: { ...r.Shared, Ports: r.Shared.Ports?.map((p) => omit(p, "IgnoreCollision")) ?? null },
});

/** An allocation as api.AllocationListStub: no DesiredTransition, TaskState.Paused, RescheduleEvent.Delay. */
export function allocationView(a: AllocationListStub): object {
  return {
    ...omit(a, "DesiredTransition", "AllocatedResources"),
    ...omitEmpty("AllocatedResources", a.AllocatedResources && allocatedView(a.AllocatedResources)),
    TaskStates: mapValues(a.TaskStates, (s) => s && omit(s, "Paused")),
    RescheduleTracker: a.RescheduleTracker && { ...a.RescheduleTracker, Events: a.RescheduleTracker.Events?.map((e) => e && omit(e, "Delay")) ?? null },
  };
}

/** A node as api.NodeListStub: no HostVolumes, NodeResources.Processors and .NodeNetworks, ReservedResources.Cpu.ReservedCpuCores. */
export function nodeView(n: NodeListStub): object {
  const resources = n.NodeResources && {
    ...omit(n.NodeResources, "Processors", "NodeNetworks"),
    Devices:
      n.NodeResources.Devices?.map(
        // api.Attribute's pointers are `omitempty`.
        (d) => d && { ...d, Attributes: mapValues(d.Attributes, (a) => a && Object.fromEntries(Object.entries(a).filter(([, v]) => v !== null))) },
      ) ?? null,
  };
  const reserved = n.ReservedResources && { ...n.ReservedResources, Cpu: omit(n.ReservedResources.Cpu, "ReservedCpuCores") };
  return {
    ...omit(n, "HostVolumes", "Attributes", "NodeResources", "ReservedResources"),
    ...omitEmpty("Attributes", n.Attributes),
    ...omitEmpty("NodeResources", resources),
    ...omitEmpty("ReservedResources", reserved),
  };
}

/** An evaluation as api.Evaluation: no LeaderACL; its plan's preempted allocations as api.AllocationListStub. */
export function evaluationView(e: Evaluation): object {
  return {
    ...omit(e, "LeaderACL"),
    PlanAnnotations: e.PlanAnnotations && { ...e.PlanAnnotations, PreemptedAllocs: e.PlanAnnotations.PreemptedAllocs?.map((a) => a && allocationView(a)) ?? null },
  };
}
