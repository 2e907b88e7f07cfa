/**
 * The records of the built-in schemas as TypeScript types: what `GET /v1/jobs`,
 * `GET /v1/deployments`, `GET /v1/allocations`, `GET /v1/nodes` and `GET /v1/evaluations` answer, one
 * interface per record of `schemas.job`, `schemas.deployment`, `schemas.allocation`, `schemas.node`
 * and `schemas.evaluation` (a test keeps them in step). Use them as the item type of a compiled filter:
 * `compile<JobListStub>(text, { schema: schemas.job })`.
 *
 * Integers are `number` as JSON gives them; a filter also reads `bigint` (exact 64-bit values from
 * `parseJson`). A Go nil slice, map or pointer is `null`; a filter reads an absent field as its zero
 * value, so partial records filter as the server's would.
 */

/** Counts of a job's child jobs (periodic and parameterized jobs). */
export interface JobChildrenSummary {
  Pending: number;
  Running: number;
  Dead: number;
}

/** Allocation counts of one task group. */
export interface TaskGroupSummary {
  Queued: number;
  Complete: number;
  Failed: number;
  Running: number;
  Starting: number;
  Lost: number;
}

/** A job's summary: allocation counts per task group. */
export interface JobSummary {
  JobID: string;
  Namespace: string;
  Children: JobChildrenSummary | null;
  /** By task group name. */
  Summary: Record<string, TaskGroupSummary> | null;
  CreateIndex: number;
  ModifyIndex: number;
}

/** A multiregion job's strategy and regions, as free-form JSON. */
export interface Multiregion {
  Strategy: Record<string, unknown> | null;
  Regions: Record<string, unknown>[] | null;
}

/** A job list entry of `GET /v1/jobs` (`schemas.job`). */
export interface JobListStub {
  ID: string;
  ParentID: string;
  Name: string;
  Namespace: string;
  Datacenters: string[] | null;
  Multiregion: Multiregion | null;
  Type: string;
  Priority: number;
  Periodic: boolean;
  ParameterizedJob: boolean;
  Stop: boolean;
  Status: string;
  StatusDescription: string;
  JobSummary: JobSummary | null;
  CreateIndex: number;
  ModifyIndex: number;
  JobModifyIndex: number;
  SubmitTime: number;
}

/** The state of one task group in a deployment. */
export interface DeploymentState {
  AutoRevert: boolean;
  AutoPromote: boolean;
  ProgressDeadline: number;
  Promoted: boolean;
  PlacedCanaries: string[] | null;
  DesiredCanaries: number;
  DesiredTotal: number;
  PlacedAllocs: number;
  HealthyAllocs: number;
  UnhealthyAllocs: number;
  /** An RFC 3339 time, or null. */
  RequireProgressBy: string | null;
}

/** A deployment of `GET /v1/deployments` (`schemas.deployment`). */
export interface Deployment {
  ID: string;
  Namespace: string;
  JobID: string;
  JobVersion: number;
  JobModifyIndex: number;
  JobSpecModifyIndex: number;
  JobCreateIndex: number;
  IsMultiregion: boolean;
  /** By task group name. */
  TaskGroups: Record<string, DeploymentState | null> | null;
  Status: string;
  StatusDescription: string;
  EvalPriority: number;
  CreateIndex: number;
  ModifyIndex: number;
}

// ---------------------------------------------------------------------------------------------------
// Allocations, nodes and evaluations (`schemas.allocation`, `schemas.node`, `schemas.evaluation`):
// the scheduler's structs (nomad/structs). A Go `time.Time` is an RFC 3339 text (null when zero);
// a `time.Duration` is a number of nanoseconds. Filters cannot compare times (go-bexpr sees a struct
// without fields): `is nil` is all they answer.

/** A port of a network (structs.Port). */
export interface Port {
  Label: string;
  Value: number;
  To: number;
  HostNetwork: string;
  IgnoreCollision: boolean;
}

/** A network's DNS settings (structs.DNSConfig). */
export interface DNSConfig {
  Servers: string[] | null;
  Searches: string[] | null;
  Options: string[] | null;
}

/** A network's CNI arguments (structs.CNIConfig). */
export interface CNIConfig {
  Args: Record<string, string> | null;
}

/** A network (structs.NetworkResource). */
export interface NetworkResource {
  Mode: string;
  Device: string;
  CIDR: string;
  IP: string;
  Hostname: string;
  MBits: number;
  DNS: DNSConfig | null;
  ReservedPorts: Port[] | null;
  DynamicPorts: Port[] | null;
  CNI: CNIConfig | null;
}

/** The CPU given to a task (structs.AllocatedCpuResources). */
export interface AllocatedCpuResources {
  CpuShares: number;
  ReservedCores: number[] | null;
}

/** The memory given to a task (structs.AllocatedMemoryResources). */
export interface AllocatedMemoryResources {
  MemoryMB: number;
  MemoryMaxMB: number;
}

/** A device given to a task (structs.AllocatedDeviceResource). */
export interface AllocatedDeviceResource {
  Vendor: string;
  Type: string;
  Name: string;
  DeviceIDs: string[] | null;
}

/** The resources given to one task (structs.AllocatedTaskResources). */
export interface AllocatedTaskResources {
  Cpu: AllocatedCpuResources;
  Memory: AllocatedMemoryResources;
  Networks: (NetworkResource | null)[] | null;
  Devices: (AllocatedDeviceResource | null)[] | null;
}

/** When a task runs in its allocation's life (structs.TaskLifecycleConfig). */
export interface TaskLifecycleConfig {
  /** `prestart`, `poststart` or `poststop`. */
  Hook: string;
  Sidecar: boolean;
}

/** A port mapping of a group's network (structs.AllocatedPortMapping). */
export interface AllocatedPortMapping {
  Label: string;
  Value: number;
  To: number;
  HostIP: string;
  IgnoreCollision: boolean;
}

/** The resources the tasks of an allocation share (structs.AllocatedSharedResources). */
export interface AllocatedSharedResources {
  Networks: (NetworkResource | null)[] | null;
  DiskMB: number;
  Ports: AllocatedPortMapping[] | null;
}

/** The resources given to an allocation (structs.AllocatedResources). */
export interface AllocatedResources {
  /** By task name. */
  Tasks: Record<string, AllocatedTaskResources | null> | null;
  /** By task name. */
  TaskLifecycles: Record<string, TaskLifecycleConfig | null> | null;
  Shared: AllocatedSharedResources;
}

/** A transition the scheduler asked of an allocation (structs.DesiredTransition). */
export interface DesiredTransition {
  Migrate: boolean | null;
  Reschedule: boolean | null;
  ForceReschedule: boolean | null;
  NoShutdownDelay: boolean | null;
  MigrateDisablePlacement: boolean | null;
}

/** An event of a task's life (structs.TaskEvent). */
export interface TaskEvent {
  Type: string;
  /** Unix nanoseconds. */
  Time: number;
  Message: string;
  DisplayMessage: string;
  Details: Record<string, string> | null;
  FailsTask: boolean;
  RestartReason: string;
  SetupError: string;
  DriverError: string;
  ExitCode: number;
  Signal: number;
  /** Nanoseconds. */
  KillTimeout: number;
  KillError: string;
  KillReason: string;
  StartDelay: number;
  DownloadError: string;
  ValidationError: string;
  DiskLimit: number;
  FailedSibling: string;
  VaultError: string;
  TaskSignalReason: string;
  TaskSignal: string;
  DriverMessage: string;
  GenericSource: string;
}

/** The state of one task of an allocation (structs.TaskState). */
export interface TaskState {
  /** `pending`, `running` or `dead`. */
  State: string;
  Failed: boolean;
  Restarts: number;
  /** RFC 3339, or null when zero. */
  LastRestart: string | null;
  /** RFC 3339, or null when zero. */
  StartedAt: string | null;
  /** RFC 3339, or null when zero. */
  FinishedAt: string | null;
  Events: (TaskEvent | null)[] | null;
  /** `""` (runs), `force_run`, `scheduled_pause`, `force_pause` or `schedule_resume`. */
  Paused: string;
}

/** An allocation's standing in its deployment (structs.AllocDeploymentStatus). */
export interface AllocDeploymentStatus {
  Healthy: boolean | null;
  /** RFC 3339, or null when zero. */
  Timestamp: string | null;
  Canary: boolean;
  ModifyIndex: number;
}

/** One rescheduling of an allocation (structs.RescheduleEvent). */
export interface RescheduleEvent {
  /** Unix nanoseconds. */
  RescheduleTime: number;
  PrevAllocID: string;
  PrevNodeID: string;
  /** Nanoseconds. */
  Delay: number;
}

/** An allocation's reschedulings (structs.RescheduleTracker). */
export interface RescheduleTracker {
  Events: (RescheduleEvent | null)[] | null;
  /** `""`, `ok` or `no placement`. */
  LastReschedule: string;
}

/** An allocation list entry of `GET /v1/allocations` (`schemas.allocation`; the server's structs.AllocListStub, with `DesiredTransition`). */
export interface AllocationListStub {
  ID: string;
  EvalID: string;
  Name: string;
  Namespace: string;
  NodeID: string;
  NodeName: string;
  JobID: string;
  JobType: string;
  JobVersion: number;
  TaskGroup: string;
  AllocatedResources: AllocatedResources | null;
  /** `run`, `stop` or `evict`. */
  DesiredStatus: string;
  DesiredDescription: string;
  /** `pending`, `running`, `complete`, `failed`, `lost` or `unknown`. */
  ClientStatus: string;
  ClientDescription: string;
  DesiredTransition: DesiredTransition;
  /** By task name. */
  TaskStates: Record<string, TaskState | null> | null;
  DeploymentStatus: AllocDeploymentStatus | null;
  FollowupEvalID: string;
  NextAllocation: string;
  RescheduleTracker: RescheduleTracker | null;
  PreemptedAllocations: string[] | null;
  PreemptedByAllocation: string;
  CreateIndex: number;
  ModifyIndex: number;
  /** Unix nanoseconds. */
  CreateTime: number;
  /** Unix nanoseconds. */
  ModifyTime: number;
}

/** A task driver on a node (structs.DriverInfo). */
export interface DriverInfo {
  Attributes: Record<string, string> | null;
  Detected: boolean;
  Healthy: boolean;
  HealthDescription: string;
  /** RFC 3339, or null when zero. */
  UpdateTime: string | null;
}

/** A host volume of a node (structs.ClientHostVolumeConfig). */
export interface ClientHostVolumeConfig {
  Name: string;
  Path: string;
  ReadOnly: boolean;
  ID: string;
}

/** A node's CPU (structs.LegacyNodeCpuResources). */
export interface LegacyNodeCpuResources {
  CpuShares: number;
  TotalCpuCores: number;
  ReservableCpuCores: number[] | null;
}

/** One logical core (numalib.Core). */
export interface Core {
  SocketID: number;
  NodeID: number;
  ID: number;
  /** true: a performance core; false: an efficiency core. */
  Grade: boolean;
  Disable: boolean;
  BaseSpeed: number;
  MaxSpeed: number;
  GuessSpeed: number;
}

/**
 * A node's processors (numalib.Topology). `Nodes` and the rows of `Distances` are Go byte slices,
 * which Go's JSON writes as base64 text: give them to a filter as lists of numbers.
 */
export interface Topology {
  Nodes: number[] | null;
  Distances: number[][] | null;
  Cores: Core[] | null;
  BusAssociativity: Record<string, number> | null;
  OverrideTotalCompute: number;
  OverrideWitholdCompute: number;
}

/** A device instance (structs.NodeDevice). */
export interface NodeDevice {
  ID: string;
  Healthy: boolean;
  HealthDescription: string;
  Locality: { PciBusID: string } | null;
}

/** A device attribute: one of its pointers is set (plugins/shared/structs.Attribute). */
export interface Attribute {
  Float: number | null;
  Int: number | null;
  String: string | null;
  Bool: boolean | null;
  Unit: string;
}

/** A kind of device on a node (structs.NodeDeviceResource). */
export interface NodeDeviceResource {
  Vendor: string;
  Type: string;
  Name: string;
  Instances: (NodeDevice | null)[] | null;
  Attributes: Record<string, Attribute | null> | null;
}

/** An address of a node's network (structs.NodeNetworkAddress). */
export interface NodeNetworkAddress {
  /** `ipv4` or `ipv6`. */
  Family: string;
  Alias: string;
  Address: string;
  ReservedPorts: string;
  Gateway: string;
}

/** A network of a node (structs.NodeNetworkResource). */
export interface NodeNetworkResource {
  Mode: string;
  Device: string;
  MacAddress: string;
  Speed: number;
  Addresses: NodeNetworkAddress[] | null;
}

/** A node's resources (structs.NodeResources). */
export interface NodeResources {
  Cpu: LegacyNodeCpuResources;
  Processors: { Topology: Topology | null };
  Memory: { MemoryMB: number };
  Disk: { DiskMB: number };
  Devices: (NodeDeviceResource | null)[] | null;
  NodeNetworks: (NodeNetworkResource | null)[] | null;
  Networks: (NetworkResource | null)[] | null;
  MinDynamicPort: number;
  MaxDynamicPort: number;
}

/** What a node keeps for itself (structs.NodeReservedResources). */
export interface NodeReservedResources {
  Cpu: { CpuShares: number; ReservedCpuCores: number[] | null };
  Memory: { MemoryMB: number };
  Disk: { DiskMB: number };
  Networks: { ReservedHostPorts: string };
}

/** A node's last drain (structs.DrainMetadata). */
export interface DrainMetadata {
  /** RFC 3339, or null when zero. */
  StartedAt: string | null;
  /** RFC 3339, or null when zero. */
  UpdatedAt: string | null;
  /** `draining`, `complete` or `canceled`. */
  Status: string;
  AccessorID: string;
  Meta: Record<string, string> | null;
}

/** A node list entry of `GET /v1/nodes` (`schemas.node`; the server's structs.NodeListStub, with `HostVolumes`). */
export interface NodeListStub {
  Address: string;
  ID: string;
  Attributes: Record<string, string> | null;
  Datacenter: string;
  Name: string;
  NodePool: string;
  NodeClass: string;
  Version: string;
  Drain: boolean;
  /** `eligible` or `ineligible`. */
  SchedulingEligibility: string;
  /** `initializing`, `ready`, `down` or `disconnected`. */
  Status: string;
  StatusDescription: string;
  /** By driver name. */
  Drivers: Record<string, DriverInfo | null> | null;
  /** By volume name. */
  HostVolumes: Record<string, ClientHostVolumeConfig | null> | null;
  NodeResources: NodeResources | null;
  ReservedResources: NodeReservedResources | null;
  LastDrain: DrainMetadata | null;
  CreateIndex: number;
  ModifyIndex: number;
}

/** An evaluation in another's chain (structs.EvaluationStub). */
export interface EvaluationStub {
  ID: string;
  Namespace: string;
  Priority: number;
  Type: string;
  TriggeredBy: string;
  JobID: string;
  NodeID: string;
  DeploymentID: string;
  Status: string;
  StatusDescription: string;
  /** RFC 3339, or null when zero. */
  WaitUntil: string | null;
  NextEval: string;
  PreviousEval: string;
  BlockedEval: string;
  CreateIndex: number;
  ModifyIndex: number;
  CreateTime: number;
  ModifyTime: number;
}

/** A constraint of a requested device (structs.Constraint). */
export interface Constraint {
  LTarget: string;
  RTarget: string;
  Operand: string;
}

/** An affinity of a requested device (structs.Affinity). */
export interface Affinity {
  LTarget: string;
  RTarget: string;
  Operand: string;
  Weight: number;
}

/** A device a task asks for (structs.RequestedDevice). */
export interface RequestedDevice {
  Name: string;
  Count: number;
  Constraints: (Constraint | null)[] | null;
  Affinities: (Affinity | null)[] | null;
}

/** Resources a task asks for (structs.Resources). */
export interface Resources {
  CPU: number;
  Cores: number;
  MemoryMB: number;
  MemoryMaxMB: number;
  DiskMB: number;
  IOPS: number;
  Networks: (NetworkResource | null)[] | null;
  Devices: (RequestedDevice | null)[] | null;
  NUMA: { Affinity: string; Devices: string[] | null } | null;
  SecretsMB: number;
}

/** A node's scores in a placement (structs.NodeScoreMeta). */
export interface NodeScoreMeta {
  NodeID: string;
  Scores: Record<string, number> | null;
  NormScore: number;
}

/** Why a task group could not be placed (structs.AllocMetric). */
export interface AllocMetric {
  NodesEvaluated: number;
  NodesFiltered: number;
  NodesInPool: number;
  NodePool: string;
  NodesAvailable: Record<string, number> | null;
  ClassFiltered: Record<string, number> | null;
  ConstraintFiltered: Record<string, number> | null;
  NodesExhausted: number;
  ClassExhausted: Record<string, number> | null;
  DimensionExhausted: Record<string, number> | null;
  QuotaExhausted: string[] | null;
  ResourcesExhausted: Record<string, Resources | null> | null;
  Scores: Record<string, number> | null;
  ScoreMetaData: (NodeScoreMeta | null)[] | null;
  /** Nanoseconds. */
  AllocationTime: number;
  CoalescedFailures: number;
}

/** The changes a plan would make to a task group (structs.DesiredUpdates). */
export interface DesiredUpdates {
  Ignore: number;
  Place: number;
  Migrate: number;
  Stop: number;
  InPlaceUpdate: number;
  DestructiveUpdate: number;
  Canary: number;
  Preemptions: number;
  Disconnect: number;
  Reconnect: number;
  RescheduleNow: number;
  RescheduleLater: number;
}

/** A plan's annotations (structs.PlanAnnotations). */
export interface PlanAnnotations {
  /** By task group name. */
  DesiredTGUpdates: Record<string, DesiredUpdates | null> | null;
  PreemptedAllocs: (AllocationListStub | null)[] | null;
}

/** An evaluation of `GET /v1/evaluations` (`schemas.evaluation`; the server's structs.Evaluation, with `LeaderACL`). */
export interface Evaluation {
  ID: string;
  Namespace: string;
  Priority: number;
  /** The job's type, or `_core`. */
  Type: string;
  /** One of the scheduler's triggers: `job-register`, `node-update`, `periodic-job`, … */
  TriggeredBy: string;
  JobID: string;
  JobModifyIndex: number;
  NodeID: string;
  NodeModifyIndex: number;
  DeploymentID: string;
  /** `blocked`, `pending`, `complete`, `failed` or `canceled`. */
  Status: string;
  StatusDescription: string;
  /** Nanoseconds. */
  Wait: number;
  /** RFC 3339, or null when zero. */
  WaitUntil: string | null;
  NextEval: string;
  PreviousEval: string;
  BlockedEval: string;
  RelatedEvals: (EvaluationStub | null)[] | null;
  /** By task group name. */
  FailedTGAllocs: Record<string, AllocMetric | null> | null;
  PlanAnnotations: PlanAnnotations | null;
  ClassEligibility: Record<string, boolean> | null;
  QuotaLimitReached: string;
  MissingNonNodeResources: string[] | null;
  EscapedComputedClass: boolean;
  AnnotatePlan: boolean;
  QueuedAllocations: Record<string, number> | null;
  /** Never set in what the API returns. */
  LeaderACL: string;
  SnapshotIndex: number;
  CreateIndex: number;
  ModifyIndex: number;
  CreateTime: number;
  ModifyTime: number;
}
