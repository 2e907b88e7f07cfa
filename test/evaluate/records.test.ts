import { describe, expect, it } from "vitest";
import { compile, schemas, type Deployment, type DeploymentState, type JobListStub, type JobSummary, type Multiregion, type RecordType, type TaskGroupSummary, type Type } from "../../src/index.js";
import type {
  AllocationListStub, AllocatedResources, AllocatedTaskResources, AllocatedCpuResources, AllocatedMemoryResources, AllocatedDeviceResource, NetworkResource, Port, DNSConfig, CNIConfig, TaskLifecycleConfig, AllocatedSharedResources, AllocatedPortMapping, DesiredTransition, TaskState, TaskEvent, AllocDeploymentStatus, RescheduleTracker, RescheduleEvent, NodeListStub, DriverInfo, ClientHostVolumeConfig, NodeResources, LegacyNodeCpuResources, Topology, Core, NodeDeviceResource, NodeDevice, Attribute, NodeNetworkResource, NodeNetworkAddress, NodeReservedResources, DrainMetadata, Evaluation, EvaluationStub, AllocMetric, Resources, RequestedDevice, Constraint, Affinity, NodeScoreMeta, PlanAnnotations, DesiredUpdates,
} from "../../src/semantics/records.js";

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

// The allocation, node and evaluation records (issue 44), each with where its schema holds it.
const ALLOCATION_LIST_STUB: Record<keyof AllocationListStub, true> = { ID: true, EvalID: true, Name: true, Namespace: true, NodeID: true, NodeName: true, JobID: true, JobType: true, JobVersion: true, TaskGroup: true, AllocatedResources: true, DesiredStatus: true, DesiredDescription: true, ClientStatus: true, ClientDescription: true, DesiredTransition: true, TaskStates: true, DeploymentStatus: true, FollowupEvalID: true, NextAllocation: true, RescheduleTracker: true, PreemptedAllocations: true, PreemptedByAllocation: true, CreateIndex: true, ModifyIndex: true, CreateTime: true, ModifyTime: true };
const ALLOCATED_RESOURCES: Record<keyof AllocatedResources, true> = { Tasks: true, TaskLifecycles: true, Shared: true };
const ALLOCATED_TASK_RESOURCES: Record<keyof AllocatedTaskResources, true> = { Cpu: true, Memory: true, Networks: true, Devices: true };
const ALLOCATED_CPU_RESOURCES: Record<keyof AllocatedCpuResources, true> = { CpuShares: true, ReservedCores: true };
const ALLOCATED_MEMORY_RESOURCES: Record<keyof AllocatedMemoryResources, true> = { MemoryMB: true, MemoryMaxMB: true };
const ALLOCATED_DEVICE_RESOURCE: Record<keyof AllocatedDeviceResource, true> = { Vendor: true, Type: true, Name: true, DeviceIDs: true };
const NETWORK_RESOURCE: Record<keyof NetworkResource, true> = { Mode: true, Device: true, CIDR: true, IP: true, Hostname: true, MBits: true, DNS: true, ReservedPorts: true, DynamicPorts: true, CNI: true };
const PORT: Record<keyof Port, true> = { Label: true, Value: true, To: true, HostNetwork: true, IgnoreCollision: true };
const DNSCONFIG: Record<keyof DNSConfig, true> = { Servers: true, Searches: true, Options: true };
const CNICONFIG: Record<keyof CNIConfig, true> = { Args: true };
const TASK_LIFECYCLE_CONFIG: Record<keyof TaskLifecycleConfig, true> = { Hook: true, Sidecar: true };
const ALLOCATED_SHARED_RESOURCES: Record<keyof AllocatedSharedResources, true> = { Networks: true, DiskMB: true, Ports: true };
const ALLOCATED_PORT_MAPPING: Record<keyof AllocatedPortMapping, true> = { Label: true, Value: true, To: true, HostIP: true, IgnoreCollision: true };
const DESIRED_TRANSITION: Record<keyof DesiredTransition, true> = { Migrate: true, Reschedule: true, ForceReschedule: true, NoShutdownDelay: true, MigrateDisablePlacement: true };
const TASK_STATE: Record<keyof TaskState, true> = { State: true, Failed: true, Restarts: true, LastRestart: true, StartedAt: true, FinishedAt: true, Events: true, Paused: true };
const TASK_EVENT: Record<keyof TaskEvent, true> = { Type: true, Time: true, Message: true, DisplayMessage: true, Details: true, FailsTask: true, RestartReason: true, SetupError: true, DriverError: true, ExitCode: true, Signal: true, KillTimeout: true, KillError: true, KillReason: true, StartDelay: true, DownloadError: true, ValidationError: true, DiskLimit: true, FailedSibling: true, VaultError: true, TaskSignalReason: true, TaskSignal: true, DriverMessage: true, GenericSource: true };
const ALLOC_DEPLOYMENT_STATUS: Record<keyof AllocDeploymentStatus, true> = { Healthy: true, Timestamp: true, Canary: true, ModifyIndex: true };
const RESCHEDULE_TRACKER: Record<keyof RescheduleTracker, true> = { Events: true, LastReschedule: true };
const RESCHEDULE_EVENT: Record<keyof RescheduleEvent, true> = { RescheduleTime: true, PrevAllocID: true, PrevNodeID: true, Delay: true };
const NODE_LIST_STUB: Record<keyof NodeListStub, true> = { Address: true, ID: true, Attributes: true, Datacenter: true, Name: true, NodePool: true, NodeClass: true, Version: true, Drain: true, SchedulingEligibility: true, Status: true, StatusDescription: true, Drivers: true, HostVolumes: true, NodeResources: true, ReservedResources: true, LastDrain: true, CreateIndex: true, ModifyIndex: true };
const DRIVER_INFO: Record<keyof DriverInfo, true> = { Attributes: true, Detected: true, Healthy: true, HealthDescription: true, UpdateTime: true };
const CLIENT_HOST_VOLUME_CONFIG: Record<keyof ClientHostVolumeConfig, true> = { Name: true, Path: true, ReadOnly: true, ID: true };
const NODE_RESOURCES: Record<keyof NodeResources, true> = { Cpu: true, Processors: true, Memory: true, Disk: true, Devices: true, NodeNetworks: true, Networks: true, MinDynamicPort: true, MaxDynamicPort: true };
const LEGACY_NODE_CPU_RESOURCES: Record<keyof LegacyNodeCpuResources, true> = { CpuShares: true, TotalCpuCores: true, ReservableCpuCores: true };
const TOPOLOGY: Record<keyof Topology, true> = { Nodes: true, Distances: true, Cores: true, BusAssociativity: true, OverrideTotalCompute: true, OverrideWitholdCompute: true };
const CORE: Record<keyof Core, true> = { SocketID: true, NodeID: true, ID: true, Grade: true, Disable: true, BaseSpeed: true, MaxSpeed: true, GuessSpeed: true };
const NODE_DEVICE_RESOURCE: Record<keyof NodeDeviceResource, true> = { Vendor: true, Type: true, Name: true, Instances: true, Attributes: true };
const NODE_DEVICE: Record<keyof NodeDevice, true> = { ID: true, Healthy: true, HealthDescription: true, Locality: true };
const ATTRIBUTE: Record<keyof Attribute, true> = { Float: true, Int: true, String: true, Bool: true, Unit: true };
const NODE_NETWORK_RESOURCE: Record<keyof NodeNetworkResource, true> = { Mode: true, Device: true, MacAddress: true, Speed: true, Addresses: true };
const NODE_NETWORK_ADDRESS: Record<keyof NodeNetworkAddress, true> = { Family: true, Alias: true, Address: true, ReservedPorts: true, Gateway: true };
const NODE_RESERVED_RESOURCES: Record<keyof NodeReservedResources, true> = { Cpu: true, Memory: true, Disk: true, Networks: true };
const DRAIN_METADATA: Record<keyof DrainMetadata, true> = { StartedAt: true, UpdatedAt: true, Status: true, AccessorID: true, Meta: true };
const EVALUATION: Record<keyof Evaluation, true> = { ID: true, Namespace: true, Priority: true, Type: true, TriggeredBy: true, JobID: true, JobModifyIndex: true, NodeID: true, NodeModifyIndex: true, DeploymentID: true, Status: true, StatusDescription: true, Wait: true, WaitUntil: true, NextEval: true, PreviousEval: true, BlockedEval: true, RelatedEvals: true, FailedTGAllocs: true, PlanAnnotations: true, ClassEligibility: true, QuotaLimitReached: true, MissingNonNodeResources: true, EscapedComputedClass: true, AnnotatePlan: true, QueuedAllocations: true, LeaderACL: true, SnapshotIndex: true, CreateIndex: true, ModifyIndex: true, CreateTime: true, ModifyTime: true };
const EVALUATION_STUB: Record<keyof EvaluationStub, true> = { ID: true, Namespace: true, Priority: true, Type: true, TriggeredBy: true, JobID: true, NodeID: true, DeploymentID: true, Status: true, StatusDescription: true, WaitUntil: true, NextEval: true, PreviousEval: true, BlockedEval: true, CreateIndex: true, ModifyIndex: true, CreateTime: true, ModifyTime: true };
const ALLOC_METRIC: Record<keyof AllocMetric, true> = { NodesEvaluated: true, NodesFiltered: true, NodesInPool: true, NodePool: true, NodesAvailable: true, ClassFiltered: true, ConstraintFiltered: true, NodesExhausted: true, ClassExhausted: true, DimensionExhausted: true, QuotaExhausted: true, ResourcesExhausted: true, Scores: true, ScoreMetaData: true, AllocationTime: true, CoalescedFailures: true };
const RESOURCES: Record<keyof Resources, true> = { CPU: true, Cores: true, MemoryMB: true, MemoryMaxMB: true, DiskMB: true, IOPS: true, Networks: true, Devices: true, NUMA: true, SecretsMB: true };
const REQUESTED_DEVICE: Record<keyof RequestedDevice, true> = { Name: true, Count: true, Constraints: true, Affinities: true };
const CONSTRAINT: Record<keyof Constraint, true> = { LTarget: true, RTarget: true, Operand: true };
const AFFINITY: Record<keyof Affinity, true> = { LTarget: true, RTarget: true, Operand: true, Weight: true };
const NODE_SCORE_META: Record<keyof NodeScoreMeta, true> = { NodeID: true, Scores: true, NormScore: true };
const PLAN_ANNOTATIONS: Record<keyof PlanAnnotations, true> = { DesiredTGUpdates: true, PreemptedAllocs: true };
const DESIRED_UPDATES: Record<keyof DesiredUpdates, true> = { Ignore: true, Place: true, Migrate: true, Stop: true, InPlaceUpdate: true, DestructiveUpdate: true, Canary: true, Preemptions: true, Disconnect: true, Reconnect: true, RescheduleNow: true, RescheduleLater: true };
const RECORDS44: [Record<string, true>, "allocation" | "node" | "evaluation", string[]][] = [
  [ALLOCATION_LIST_STUB, "allocation", []],
  [ALLOCATED_RESOURCES, "allocation", ["AllocatedResources"]],
  [ALLOCATED_TASK_RESOURCES, "allocation", ["AllocatedResources","Tasks"]],
  [ALLOCATED_CPU_RESOURCES, "allocation", ["AllocatedResources","Tasks","Cpu"]],
  [ALLOCATED_MEMORY_RESOURCES, "allocation", ["AllocatedResources","Tasks","Memory"]],
  [ALLOCATED_DEVICE_RESOURCE, "allocation", ["AllocatedResources","Tasks","Devices"]],
  [NETWORK_RESOURCE, "allocation", ["AllocatedResources","Tasks","Networks"]],
  [PORT, "allocation", ["AllocatedResources","Tasks","Networks","ReservedPorts"]],
  [DNSCONFIG, "allocation", ["AllocatedResources","Tasks","Networks","DNS"]],
  [CNICONFIG, "allocation", ["AllocatedResources","Tasks","Networks","CNI"]],
  [TASK_LIFECYCLE_CONFIG, "allocation", ["AllocatedResources","TaskLifecycles"]],
  [ALLOCATED_SHARED_RESOURCES, "allocation", ["AllocatedResources","Shared"]],
  [ALLOCATED_PORT_MAPPING, "allocation", ["AllocatedResources","Shared","Ports"]],
  [DESIRED_TRANSITION, "allocation", ["DesiredTransition"]],
  [TASK_STATE, "allocation", ["TaskStates"]],
  [TASK_EVENT, "allocation", ["TaskStates","Events"]],
  [ALLOC_DEPLOYMENT_STATUS, "allocation", ["DeploymentStatus"]],
  [RESCHEDULE_TRACKER, "allocation", ["RescheduleTracker"]],
  [RESCHEDULE_EVENT, "allocation", ["RescheduleTracker","Events"]],
  [NODE_LIST_STUB, "node", []],
  [DRIVER_INFO, "node", ["Drivers"]],
  [CLIENT_HOST_VOLUME_CONFIG, "node", ["HostVolumes"]],
  [NODE_RESOURCES, "node", ["NodeResources"]],
  [LEGACY_NODE_CPU_RESOURCES, "node", ["NodeResources","Cpu"]],
  [TOPOLOGY, "node", ["NodeResources","Processors","Topology"]],
  [CORE, "node", ["NodeResources","Processors","Topology","Cores"]],
  [NODE_DEVICE_RESOURCE, "node", ["NodeResources","Devices"]],
  [NODE_DEVICE, "node", ["NodeResources","Devices","Instances"]],
  [ATTRIBUTE, "node", ["NodeResources","Devices","Attributes"]],
  [NODE_NETWORK_RESOURCE, "node", ["NodeResources","NodeNetworks"]],
  [NODE_NETWORK_ADDRESS, "node", ["NodeResources","NodeNetworks","Addresses"]],
  [NODE_RESERVED_RESOURCES, "node", ["ReservedResources"]],
  [DRAIN_METADATA, "node", ["LastDrain"]],
  [EVALUATION, "evaluation", []],
  [EVALUATION_STUB, "evaluation", ["RelatedEvals"]],
  [ALLOC_METRIC, "evaluation", ["FailedTGAllocs"]],
  [RESOURCES, "evaluation", ["FailedTGAllocs","ResourcesExhausted"]],
  [REQUESTED_DEVICE, "evaluation", ["FailedTGAllocs","ResourcesExhausted","Devices"]],
  [CONSTRAINT, "evaluation", ["FailedTGAllocs","ResourcesExhausted","Devices","Constraints"]],
  [AFFINITY, "evaluation", ["FailedTGAllocs","ResourcesExhausted","Devices","Affinities"]],
  [NODE_SCORE_META, "evaluation", ["FailedTGAllocs","ScoreMetaData"]],
  [PLAN_ANNOTATIONS, "evaluation", ["PlanAnnotations"]],
  [DESIRED_UPDATES, "evaluation", ["PlanAnnotations","DesiredTGUpdates"]],
];

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

  it("have exactly the fields of schemas.allocation, schemas.node and schemas.evaluation, at every level", () => {
    for (const [keys, schema, path] of RECORDS44) {
      let rec: RecordType = schemas[schema];
      for (const step of path) rec = record(rec.fields[step]!);
      expect(Object.keys(keys).sort(), `${schema} ${path.join(".")}`).toEqual(Object.keys(rec.fields).sort());
    }
    // Every record of the three schemas is one of them (Time has no fields; the inline ones are typed in place).
    const names = new Set<string>();
    const visit = (type: Type): void => {
      if (type.kind === "record") {
        if (names.has(type.name)) return;
        names.add(type.name);
        for (const f of Object.values(type.fields)) visit(f);
      } else if (type.kind !== "pointer" && type.kind !== "list" && type.kind !== "map") return;
      else visit(type.kind === "pointer" ? type.target : type.kind === "list" ? type.elem : type.value);
    };
    for (const s of [schemas.allocation, schemas.node, schemas.evaluation]) visit(s);
    const inline = ["Time", "NodeProcessorResources", "NodeMemoryResources", "NodeDiskResources", "NodeDeviceLocality", "NodeReservedCpuResources", "NodeReservedMemoryResources", "NodeReservedDiskResources", "NodeReservedNetworkResources", "NUMA"];
    const covered = new Set(RECORDS44.map(([, schema, path]) => {
      let rec: RecordType = schemas[schema];
      for (const step of path) rec = record(rec.fields[step]!);
      return rec.name;
    }));
    expect([...names].filter((n) => !covered.has(n) && !inline.includes(n)).sort()).toEqual([]);
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
