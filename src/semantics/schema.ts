/**
 * Typed records: how the reference sees the server's Go structs. A schema is a `Type` tree; data
 * stays plain JavaScript (decoded JSON) and is read through it: an absent field is its type's zero
 * value, a name that is not a field is an error, integers compare exactly (also as `bigint`).
 */

/** The types a field can have, named after Go's kinds. */
export type Type =
  /**
   * A string; `values`, when given, are the values the field takes (the scheduler's constants, or a
   * schema file's `enum`). They only inform the `unknown-value` warning: any text still compiles and
   * compares, as in the reference.
   */
  | { readonly kind: "string"; readonly values?: readonly string[] }
  | { readonly kind: "int" }
  | { readonly kind: "uint" }
  | { readonly kind: "float" }
  | { readonly kind: "bool" }
  /** A slice: `null`/absent is the nil slice. */
  | { readonly kind: "list"; readonly elem: Type }
  /** A map with string keys: `null`/absent is the nil map. */
  | { readonly kind: "map"; readonly value: Type }
  /** A struct: absent is the zero record (every field its zero value). */
  | { readonly kind: "record"; readonly name: string; readonly fields: Readonly<Record<string, Type>> }
  /** A pointer: `null`/absent is nil. */
  | { readonly kind: "pointer"; readonly target: Type }
  /** `interface{}`: plain JSON, typed by its value (every number a float). */
  | { readonly kind: "any" };

export type RecordType = Extract<Type, { kind: "record" }>;

/** A schema: the record type of the data a filter runs against. */
export type Schema = RecordType;

/** A small builder for schemas of your own record types. */
export const t = {
  string: { kind: "string" } as Type,
  /** A string that takes one of `values` (non-empty, distinct): `t.enumString(["pending", "running", "dead"])`. */
  enumString: (values: readonly string[]): Type => {
    if (values.length === 0) throw new RangeError("t.enumString: a string with known values needs at least one value");
    if (new Set(values).size !== values.length) throw new RangeError(`t.enumString: a value is listed twice in ${JSON.stringify(values)}`);
    return { kind: "string", values: Object.freeze([...values]) };
  },
  int: { kind: "int" } as Type,
  uint: { kind: "uint" } as Type,
  float: { kind: "float" } as Type,
  bool: { kind: "bool" } as Type,
  any: { kind: "any" } as Type,
  list: (elem: Type): Type => ({ kind: "list", elem }),
  map: (value: Type): Type => ({ kind: "map", value }),
  pointer: (target: Type): Type => ({ kind: "pointer", target }),
  record: (name: string, fields: Record<string, Type>): RecordType => ({ kind: "record", name, fields: Object.freeze({ ...fields }) }),
} as const;

/** Each record's fields as a map, made on first use (a compile looks fields up many times; a map lookup by a varying name is twice as fast as `hasOwnProperty` on the frozen object). */
const FIELD_MAPS = new WeakMap<Readonly<Record<string, Type>>, ReadonlyMap<string, Type>>();

/** The type of a record's field, or `undefined` when the name is not a field (own fields only). */
export function fieldOf(record: RecordType, name: string): Type | undefined {
  let fields = FIELD_MAPS.get(record.fields);
  if (fields === undefined) FIELD_MAPS.set(record.fields, (fields = new Map(Object.entries(record.fields))));
  return fields.get(name);
}

/** The known values of a string type, or undefined (not a string, or a string whose values are open). Pointers are followed. */
export function knownValues(type: Type | undefined): readonly string[] | undefined {
  while (type?.kind === "pointer") type = type.target;
  return type?.kind === "string" ? type.values : undefined;
}

/** The JSON mode: no schema, the datum is `interface{}`. */
export const ANY: Type = t.any;

const jobSummary = t.record("JobSummary", {
  JobID: t.string,
  Namespace: t.string,
  Children: t.pointer(t.record("JobChildrenSummary", { Pending: t.int, Running: t.int, Dead: t.int })),
  Summary: t.map(
    t.record("TaskGroupSummary", {
      Queued: t.int,
      Complete: t.int,
      Failed: t.int,
      Running: t.int,
      Starting: t.int,
      Lost: t.int,
    }),
  ),
  CreateIndex: t.uint,
  ModifyIndex: t.uint,
});

/** The job list entry of `GET /v1/jobs`. */
export const jobSchema: Schema = t.record("JobListStub", {
  ID: t.string,
  ParentID: t.string,
  Name: t.string,
  Namespace: t.string,
  Datacenters: t.list(t.string),
  Multiregion: t.pointer(t.record("Multiregion", { Strategy: t.map(t.any), Regions: t.list(t.map(t.any)) })),
  // structs.go JobTypeService/Batch/System/SysBatch: the seed (000, "Job list entry") names these
  // scheduler kinds plus `_core`, the scheduler of the internal core (garbage collection)
  // evaluations, which is not a type of registered jobs; the reference server's JOB_TYPES
  // (server/src/lists/records.ts) is this list and registration refuses any other type.
  Type: t.enumString(["service", "batch", "system", "sysbatch"]),
  Priority: t.int,
  Periodic: t.bool,
  ParameterizedJob: t.bool,
  Stop: t.bool,
  // structs.go JobStatusPending/Running/Dead. The seed (000, "States and transitions") observes
  // pending and running and does not show the complete set; JobChildrenSummary counts a parent's
  // children by these three statuses (its fields Pending, Running, Dead), and the reference server
  // (server/src/lists/register.ts) sets exactly these.
  Status: t.enumString(["pending", "running", "dead"]),
  StatusDescription: t.string,
  JobSummary: t.pointer(jobSummary),
  CreateIndex: t.uint,
  ModifyIndex: t.uint,
  JobModifyIndex: t.uint,
  SubmitTime: t.int,
});

/** A deployment of `GET /v1/deployments`. */
export const deploymentSchema: Schema = t.record("Deployment", {
  ID: t.string,
  Namespace: t.string,
  JobID: t.string,
  JobVersion: t.uint,
  JobModifyIndex: t.uint,
  JobSpecModifyIndex: t.uint,
  JobCreateIndex: t.uint,
  IsMultiregion: t.bool,
  TaskGroups: t.map(
    t.pointer(
      t.record("DeploymentState", {
        AutoRevert: t.bool,
        AutoPromote: t.bool,
        ProgressDeadline: t.int,
        Promoted: t.bool,
        PlacedCanaries: t.list(t.string),
        DesiredCanaries: t.int,
        DesiredTotal: t.int,
        PlacedAllocs: t.int,
        HealthyAllocs: t.int,
        UnhealthyAllocs: t.int,
        RequireProgressBy: t.pointer(t.string),
      }),
    ),
  ),
  // structs.go DeploymentStatus* constants, as listed by the reference
  // (/work/shared/reference/scheduler-http-behaviour.md, `structs.Deployment`: "Status values"); the
  // seed (000) observes cancelled and successful. DeploymentState has no field of fixed values.
  Status: t.enumString(["running", "paused", "failed", "successful", "cancelled", "initializing", "pending", "blocked", "unblocking"]),
  StatusDescription: t.string,
  EvalPriority: t.int,
  CreateIndex: t.uint,
  ModifyIndex: t.uint,
});

// ---------------------------------------------------------------------------------------------------
// Allocations, nodes and evaluations (issue 44). Read from the scheduler's source (hashicorp/nomad,
// version 2.0.6): the structs of `nomad/structs` that the server encodes, not the `api` package's
// copies; where they differ, the comments say so and the structs win. Go kinds map as above: every
// signed integer kind (int, int8 … int64, and time.Duration, which is an int64) is `t.int`, every
// unsigned one (uint8 … uint64) `t.uint`, named string types (`DrainStatus`, …) `t.string`.
//
// What go-bexpr sees is the Go struct, walked by mitchellh/pointerstructure (v1.2.1 `getStruct`):
// exported fields only, by their Go name (`bexpr` tags: none on these structs), so the unexported
// `_struct` fields of NetworkResource, Port, AllocatedPortMapping and Evaluation are not fields
// here, and neither are AllocMetric's `nodeScoreMeta` and `topScores`.
//
// The list endpoints run the filter on the object they read from the state store before they make
// the list entry (`nomad/state/paginator/paginator.go` `next`: `p.bexpr.Evaluate(raw)` before
// `stubFn`): `/v1/allocations` on `*structs.Allocation`, `/v1/nodes` on `*structs.Node`, as
// `/v1/jobs` on `*structs.Job`. Like `schemas.job` (the project's seed documents specify that the
// job list filter runs on the list entry), `schemas.allocation` and `schemas.node` are the list
// entries (`structs.AllocListStub`, `structs.NodeListStub`). `/v1/evaluations` returns and filters
// the same struct, `*structs.Evaluation`.

/**
 * The schemas of the scheduler's records: `job`, `deployment`, `allocation`, `node`, `evaluation`.
 * Built in one pure call, so that a bundle that does not use `schemas` leaves the allocation, node
 * and evaluation records out (test/bundle-size.test.ts).
 */
export const schemas = /* @__PURE__ */ (() => {
  /**
   * `time.Time` as go-bexpr sees it: a struct whose fields are all unexported, so a record with no
   * fields. `==`, `in`, `matches`, `is empty` on it are evaluation errors (no primitive comparison, not
   * a collection, not convertible to bytes), `is nil` is false, and a step into it is a missing field.
   * On the wire it is an RFC 3339 text (the server writes null for a zero time); the text is never read.
   */
  const goTime = t.record("Time", {});

  const port = t.record("Port", { Label: t.string, Value: t.int, To: t.int, HostNetwork: t.string, IgnoreCollision: t.bool });

  /** structs.NetworkResource (the `_struct` field is unexported). `Networks` is `[]*NetworkResource`. */
  const networkResource = t.record("NetworkResource", {
    Mode: t.string,
    Device: t.string,
    CIDR: t.string,
    IP: t.string,
    Hostname: t.string,
    MBits: t.int,
    DNS: t.pointer(t.record("DNSConfig", { Servers: t.list(t.string), Searches: t.list(t.string), Options: t.list(t.string) })),
    ReservedPorts: t.list(port),
    DynamicPorts: t.list(port),
    CNI: t.pointer(t.record("CNIConfig", { Args: t.map(t.string) })),
  });
  const networks = t.list(t.pointer(networkResource));

  const allocatedResources = t.record("AllocatedResources", {
    Tasks: t.map(
      t.pointer(
        t.record("AllocatedTaskResources", {
          Cpu: t.record("AllocatedCpuResources", { CpuShares: t.int, ReservedCores: t.list(t.uint) }),
          Memory: t.record("AllocatedMemoryResources", { MemoryMB: t.int, MemoryMaxMB: t.int }),
          Networks: networks,
          Devices: t.list(t.pointer(t.record("AllocatedDeviceResource", { Vendor: t.string, Type: t.string, Name: t.string, DeviceIDs: t.list(t.string) }))),
        }),
      ),
    ),
    // structs.go TaskLifecycleHookPrestart/Poststart/Poststop.
    TaskLifecycles: t.map(t.pointer(t.record("TaskLifecycleConfig", { Hook: t.enumString(["prestart", "poststart", "poststop"]), Sidecar: t.bool }))),
    Shared: t.record("AllocatedSharedResources", {
      Networks: networks,
      DiskMB: t.int,
      Ports: t.list(t.record("AllocatedPortMapping", { Label: t.string, Value: t.int, To: t.int, HostIP: t.string, IgnoreCollision: t.bool })),
    }),
  });

  const taskEvent = t.record("TaskEvent", {
    Type: t.string,
    Time: t.int,
    Message: t.string,
    DisplayMessage: t.string,
    Details: t.map(t.string),
    FailsTask: t.bool,
    RestartReason: t.string,
    SetupError: t.string,
    DriverError: t.string,
    ExitCode: t.int,
    Signal: t.int,
    KillTimeout: t.int,
    KillError: t.string,
    KillReason: t.string,
    StartDelay: t.int,
    DownloadError: t.string,
    ValidationError: t.string,
    DiskLimit: t.int,
    FailedSibling: t.string,
    VaultError: t.string,
    TaskSignalReason: t.string,
    TaskSignal: t.string,
    DriverMessage: t.string,
    GenericSource: t.string,
  });

  const taskState = t.record("TaskState", {
    // structs.go TaskStatePending/Running/Dead.
    State: t.enumString(["pending", "running", "dead"]),
    Failed: t.bool,
    Restarts: t.uint,
    LastRestart: goTime,
    StartedAt: goTime,
    FinishedAt: goTime,
    Events: t.list(t.pointer(taskEvent)),
    // task_sched.go TaskScheduleState: TaskScheduleStateRun (""), ForceRun, SchedPause, ForcePause, SchedResume.
    Paused: t.enumString(["", "force_run", "scheduled_pause", "force_pause", "schedule_resume"]),
  });

  /**
   * structs.AllocListStub (`nomad/structs/alloc.go`): the list entry of `GET /v1/allocations`. The
   * `api` package's AllocationListStub has no `DesiredTransition`; the struct has it.
   */
  const allocationSchema: Schema = t.record("AllocListStub", {
    ID: t.string,
    EvalID: t.string,
    Name: t.string,
    Namespace: t.string,
    NodeID: t.string,
    NodeName: t.string,
    JobID: t.string,
    // structs.go JobTypeService/Batch/System/SysBatch (and JobTypeCore, the core scheduler's: its
    // evaluations make no allocations).
    JobType: t.enumString(["service", "batch", "system", "sysbatch"]),
    JobVersion: t.uint,
    TaskGroup: t.string,
    AllocatedResources: t.pointer(allocatedResources),
    // alloc.go AllocDesiredStatusRun/Stop/Evict.
    DesiredStatus: t.enumString(["run", "stop", "evict"]),
    DesiredDescription: t.string,
    // alloc.go AllocClientStatusPending/Running/Complete/Failed/Lost/Unknown.
    ClientStatus: t.enumString(["pending", "running", "complete", "failed", "lost", "unknown"]),
    ClientDescription: t.string,
    DesiredTransition: t.record("DesiredTransition", {
      Migrate: t.pointer(t.bool),
      Reschedule: t.pointer(t.bool),
      ForceReschedule: t.pointer(t.bool),
      NoShutdownDelay: t.pointer(t.bool),
      MigrateDisablePlacement: t.pointer(t.bool),
    }),
    TaskStates: t.map(t.pointer(taskState)),
    DeploymentStatus: t.pointer(t.record("AllocDeploymentStatus", { Healthy: t.pointer(t.bool), Timestamp: goTime, Canary: t.bool, ModifyIndex: t.uint })),
    FollowupEvalID: t.string,
    NextAllocation: t.string,
    RescheduleTracker: t.pointer(
      t.record("RescheduleTracker", {
        Events: t.list(t.pointer(t.record("RescheduleEvent", { RescheduleTime: t.int, PrevAllocID: t.string, PrevNodeID: t.string, Delay: t.int }))),
        // structs.go RescheduleTrackerAnnotation: "" (none yet), LastRescheduleSuccess, LastRescheduleFailedToPlace.
        LastReschedule: t.enumString(["", "ok", "no placement"]),
      }),
    ),
    PreemptedAllocations: t.list(t.string),
    PreemptedByAllocation: t.string,
    CreateIndex: t.uint,
    ModifyIndex: t.uint,
    CreateTime: t.int,
    ModifyTime: t.int,
  });

  /**
   * numalib.Topology (`client/lib/numalib/topology.go`; the unexported `nodeIDs` is not a field).
   * `Nodes` is a `[]uint8` and each row of `Distances` a `[]Cost` (uint8): lists of unsigned integers
   * here, as go-bexpr indexes, iterates and compares them; Go's JSON writes such slices as base64
   * text, so data for them must be given as lists of numbers, and go-bexpr's `matches` on a `[]uint8`
   * (which it converts to bytes) is not reproduced (an evaluation error here).
   */
  const topology = t.record("Topology", {
    Nodes: t.list(t.uint),
    Distances: t.list(t.list(t.uint)),
    Cores: t.list(
      t.record("Core", {
        SocketID: t.uint,
        NodeID: t.uint,
        ID: t.uint,
        Grade: t.bool,
        Disable: t.bool,
        BaseSpeed: t.uint,
        MaxSpeed: t.uint,
        GuessSpeed: t.uint,
      }),
    ),
    BusAssociativity: t.map(t.uint),
    OverrideTotalCompute: t.uint,
    OverrideWitholdCompute: t.uint,
  });

  const nodeResources = t.record("NodeResources", {
    Cpu: t.record("LegacyNodeCpuResources", { CpuShares: t.int, TotalCpuCores: t.uint, ReservableCpuCores: t.list(t.uint) }),
    Processors: t.record("NodeProcessorResources", { Topology: t.pointer(topology) }),
    Memory: t.record("NodeMemoryResources", { MemoryMB: t.int }),
    Disk: t.record("NodeDiskResources", { DiskMB: t.int }),
    Devices: t.list(
      t.pointer(
        t.record("NodeDeviceResource", {
          Vendor: t.string,
          Type: t.string,
          Name: t.string,
          Instances: t.list(
            t.pointer(
              t.record("NodeDevice", {
                ID: t.string,
                Healthy: t.bool,
                HealthDescription: t.string,
                Locality: t.pointer(t.record("NodeDeviceLocality", { PciBusID: t.string })),
              }),
            ),
          ),
          // plugins/shared/structs Attribute: one of its pointers is set.
          Attributes: t.map(t.pointer(t.record("Attribute", { Float: t.pointer(t.float), Int: t.pointer(t.int), String: t.pointer(t.string), Bool: t.pointer(t.bool), Unit: t.string }))),
        }),
      ),
    ),
    NodeNetworks: t.list(
      t.pointer(
        t.record("NodeNetworkResource", {
          Mode: t.string,
          Device: t.string,
          MacAddress: t.string,
          Speed: t.int,
          Addresses: t.list(
            t.record("NodeNetworkAddress", {
              // structs.go NodeNetworkAF_IPv4/IPv6.
              Family: t.enumString(["ipv4", "ipv6"]),
              Alias: t.string,
              Address: t.string,
              ReservedPorts: t.string,
              Gateway: t.string,
            }),
          ),
        }),
      ),
    ),
    Networks: networks,
    MinDynamicPort: t.int,
    MaxDynamicPort: t.int,
  });

  /**
   * structs.NodeListStub (`nomad/structs/structs.go`): the list entry of `GET /v1/nodes`. The `api`
   * package's NodeListStub has no `HostVolumes`; the struct has it.
   */
  const nodeSchema: Schema = t.record("NodeListStub", {
    Address: t.string,
    ID: t.string,
    Attributes: t.map(t.string),
    Datacenter: t.string,
    Name: t.string,
    NodePool: t.string,
    NodeClass: t.string,
    Version: t.string,
    Drain: t.bool,
    // structs.go NodeSchedulingEligible/Ineligible.
    SchedulingEligibility: t.enumString(["eligible", "ineligible"]),
    // structs.go NodeStatusInit/Ready/Down/Disconnected.
    Status: t.enumString(["initializing", "ready", "down", "disconnected"]),
    StatusDescription: t.string,
    Drivers: t.map(
      t.pointer(t.record("DriverInfo", { Attributes: t.map(t.string), Detected: t.bool, Healthy: t.bool, HealthDescription: t.string, UpdateTime: goTime })),
    ),
    HostVolumes: t.map(t.pointer(t.record("ClientHostVolumeConfig", { Name: t.string, Path: t.string, ReadOnly: t.bool, ID: t.string }))),
    NodeResources: t.pointer(nodeResources),
    ReservedResources: t.pointer(
      t.record("NodeReservedResources", {
        Cpu: t.record("NodeReservedCpuResources", { CpuShares: t.int, ReservedCpuCores: t.list(t.uint) }),
        Memory: t.record("NodeReservedMemoryResources", { MemoryMB: t.int }),
        Disk: t.record("NodeReservedDiskResources", { DiskMB: t.int }),
        Networks: t.record("NodeReservedNetworkResources", { ReservedHostPorts: t.string }),
      }),
    ),
    LastDrain: t.pointer(
      t.record("DrainMetadata", {
        StartedAt: goTime,
        UpdatedAt: goTime,
        // structs.go DrainStatusDraining/Complete/Canceled.
        Status: t.enumString(["draining", "complete", "canceled"]),
        AccessorID: t.string,
        Meta: t.map(t.string),
      }),
    ),
    CreateIndex: t.uint,
    ModifyIndex: t.uint,
  });

  // structs.go JobTypeCore/Service/Batch/System/SysBatch: an evaluation's Type is its job's, or `_core`
  // for the core scheduler's (garbage collection) evaluations.
  const evalType = t.enumString(["service", "batch", "system", "sysbatch", "_core"]);
  // eval.go EvalTrigger* constants.
  const evalTrigger = t.enumString([
    "job-register",
    "job-deregister",
    "periodic-job",
    "node-drain",
    "node-update",
    "alloc-stop",
    "scheduled",
    "rolling-update",
    "deployment-watcher",
    "failed-follow-up",
    "max-plan-attempts",
    "alloc-failure",
    "queued-allocs",
    "preemption",
    "job-scaling",
    "max-disconnect-timeout",
    "reconnect",
    "alloc-reschedule",
  ]);
  // eval.go EvalStatusBlocked/Pending/Complete/Failed/Cancelled (spelt "canceled").
  const evalStatus = t.enumString(["blocked", "pending", "complete", "failed", "canceled"]);

  const resources = t.record("Resources", {
    CPU: t.int,
    Cores: t.int,
    MemoryMB: t.int,
    MemoryMaxMB: t.int,
    DiskMB: t.int,
    IOPS: t.int,
    Networks: networks,
    Devices: t.list(
      t.pointer(
        t.record("RequestedDevice", {
          Name: t.string,
          Count: t.uint,
          Constraints: t.list(t.pointer(t.record("Constraint", { LTarget: t.string, RTarget: t.string, Operand: t.string }))),
          Affinities: t.list(t.pointer(t.record("Affinity", { LTarget: t.string, RTarget: t.string, Operand: t.string, Weight: t.int }))),
        }),
      ),
    ),
    NUMA: t.pointer(t.record("NUMA", { Affinity: t.string, Devices: t.list(t.string) })),
    SecretsMB: t.int,
  });

  /** structs.AllocMetric (`nomad/structs/alloc.go`; `nodeScoreMeta` and `topScores` are unexported). */
  const allocMetric = t.record("AllocMetric", {
    NodesEvaluated: t.int,
    NodesFiltered: t.int,
    NodesInPool: t.int,
    NodePool: t.string,
    NodesAvailable: t.map(t.int),
    ClassFiltered: t.map(t.int),
    ConstraintFiltered: t.map(t.int),
    NodesExhausted: t.int,
    ClassExhausted: t.map(t.int),
    DimensionExhausted: t.map(t.int),
    QuotaExhausted: t.list(t.string),
    ResourcesExhausted: t.map(t.pointer(resources)),
    Scores: t.map(t.float),
    ScoreMetaData: t.list(t.pointer(t.record("NodeScoreMeta", { NodeID: t.string, Scores: t.map(t.float), NormScore: t.float }))),
    AllocationTime: t.int,
    CoalescedFailures: t.int,
  });

  /**
   * structs.Evaluation (`nomad/structs/eval.go`): what `GET /v1/evaluations` returns and filters (it
   * returns the evaluations themselves, not `EvaluationStub`s). The struct has `LeaderACL` (never set
   * in what the API returns, but a field the filter can name), which the `api` package's Evaluation
   * lacks; its `_struct` is unexported.
   */
  const evaluationSchema: Schema = t.record("Evaluation", {
    ID: t.string,
    Namespace: t.string,
    Priority: t.int,
    Type: evalType,
    TriggeredBy: evalTrigger,
    JobID: t.string,
    JobModifyIndex: t.uint,
    NodeID: t.string,
    NodeModifyIndex: t.uint,
    DeploymentID: t.string,
    Status: evalStatus,
    StatusDescription: t.string,
    Wait: t.int,
    WaitUntil: goTime,
    NextEval: t.string,
    PreviousEval: t.string,
    BlockedEval: t.string,
    RelatedEvals: t.list(
      t.pointer(
        t.record("EvaluationStub", {
          ID: t.string,
          Namespace: t.string,
          Priority: t.int,
          Type: evalType,
          TriggeredBy: evalTrigger,
          JobID: t.string,
          NodeID: t.string,
          DeploymentID: t.string,
          Status: evalStatus,
          StatusDescription: t.string,
          WaitUntil: goTime,
          NextEval: t.string,
          PreviousEval: t.string,
          BlockedEval: t.string,
          CreateIndex: t.uint,
          ModifyIndex: t.uint,
          CreateTime: t.int,
          ModifyTime: t.int,
        }),
      ),
    ),
    FailedTGAllocs: t.map(t.pointer(allocMetric)),
    PlanAnnotations: t.pointer(
      t.record("PlanAnnotations", {
        DesiredTGUpdates: t.map(
          t.pointer(
            t.record("DesiredUpdates", {
              Ignore: t.uint,
              Place: t.uint,
              Migrate: t.uint,
              Stop: t.uint,
              InPlaceUpdate: t.uint,
              DestructiveUpdate: t.uint,
              Canary: t.uint,
              Preemptions: t.uint,
              Disconnect: t.uint,
              Reconnect: t.uint,
              RescheduleNow: t.uint,
              RescheduleLater: t.uint,
            }),
          ),
        ),
        PreemptedAllocs: t.list(t.pointer(allocationSchema)),
      }),
    ),
    ClassEligibility: t.map(t.bool),
    QuotaLimitReached: t.string,
    MissingNonNodeResources: t.list(t.string),
    EscapedComputedClass: t.bool,
    AnnotatePlan: t.bool,
    QueuedAllocations: t.map(t.int),
    LeaderACL: t.string,
    SnapshotIndex: t.uint,
    CreateIndex: t.uint,
    ModifyIndex: t.uint,
    CreateTime: t.int,
    ModifyTime: t.int,
  });

  return Object.freeze({ job: jobSchema, deployment: deploymentSchema, allocation: allocationSchema, node: nodeSchema, evaluation: evaluationSchema });
})();


/** A readable name of a type, for messages ("list of string", "record JobSummary"). */
export function typeName(type: Type): string {
  switch (type.kind) {
    case "list":
      return `list of ${typeName(type.elem)}`;
    case "map":
      return `map of ${typeName(type.value)}`;
    case "record":
      return `record ${type.name}`;
    case "pointer":
      return typeName(type.target);
    case "int":
      return "signed integer";
    case "uint":
      return "unsigned integer";
    case "any":
      return "any JSON value";
    default:
      return type.kind;
  }
}
