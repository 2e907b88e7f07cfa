// Answers filter cases with one go-bexpr release (whichever build.sh compiled it against): reads JSONL
// {id, kind, expr, datum[, maxExpressions]} on stdin (maxExpressions, when set, is passed as
// WithMaxExpressions), writes JSONL {id, expect, goError} on stdout, one line per case, in order.
// expect is "true", "false", "parse-error", "eval-error" (a recovered panic is an eval-error
// whose goError starts with "panic: "), or "bad-datum" (the datum does not decode into the kind's
// typed record: a bug of whoever wrote the case).
//
// Flags (both off by default, which gives the harness kept outside the repository's behaviour):
//
//	-timeout 20s  a case that takes longer is answered {"id": …, "expect": "timeout"} and the harness
//	              exits with status 3 (releases before 0.1.15 have no parse budget, and their parser's
//	              work grows about fourfold per level of parentheses); the driver starts a new one
//	              for the cases after it
//	-repeat 256   evaluate an expression that mentions "any" or "all" 256 times, each on a freshly
//	              decoded datum, and answer "unstable" when the answers differ (go-bexpr visits a
//	              map's keys in Go's random order, so `any`/`all` over a map can depend on it);
//	              where they agree but the messages name different keys, the least message (byte
//	              order) is kept. Many runs are needed: Go starts a small map's iteration at a
//	              random one of its bucket's 8 slots, so with 2 keys the second comes first only
//	              once in 8 runs ((7/8)^256 < 1e-14). Other expressions are evaluated once.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	bexpr "github.com/hashicorp/go-bexpr"
)

type JobChildrenSummary struct{ Pending, Running, Dead int64 }
type TaskGroupSummary struct{ Queued, Complete, Failed, Running, Starting, Lost int64 }
type JobSummary struct {
	JobID, Namespace         string
	Children                 *JobChildrenSummary
	Summary                  map[string]TaskGroupSummary
	CreateIndex, ModifyIndex uint64
}
type Multiregion struct {
	Strategy map[string]interface{}
	Regions  []map[string]interface{}
}
type JobListStub struct {
	ID, ParentID, Name, Namespace            string
	Datacenters                              []string
	Multiregion                              *Multiregion
	Type                                     string
	Priority                                 int64
	Periodic, ParameterizedJob, Stop         bool
	Status, StatusDescription                string
	JobSummary                               *JobSummary
	CreateIndex, ModifyIndex, JobModifyIndex uint64
	SubmitTime                               int64
}
type DeploymentState struct {
	AutoRevert, AutoPromote                                                     bool
	ProgressDeadline                                                            int64
	Promoted                                                                    bool
	PlacedCanaries                                                              []string
	DesiredCanaries, DesiredTotal, PlacedAllocs, HealthyAllocs, UnhealthyAllocs int64
	RequireProgressBy                                                           *string
}
type Deployment struct {
	ID, Namespace, JobID                                           string
	JobVersion, JobModifyIndex, JobSpecModifyIndex, JobCreateIndex uint64
	IsMultiregion                                                  bool
	TaskGroups                                                     map[string]*DeploymentState
	Status, StatusDescription                                      string
	EvalPriority                                                   int64
	CreateIndex, ModifyIndex                                       uint64
}

// The list entries of /v1/allocations and /v1/nodes and the evaluations of /v1/evaluations, as the
// scheduler's nomad/structs declares them (hashicorp/nomad 2.0.6: structs.AllocListStub,
// structs.NodeListStub, structs.Evaluation and the structs they hold), field for field and Go kind
// for Go kind, unexported fields included (go-bexpr cannot see them). Named types keep their kind:
// DrainStatus, NodeNetworkAF, TaskScheduleState and RescheduleTrackerAnnotation are strings;
// hw.SocketID, hw.NodeID, numalib.Cost are uint8, hw.CoreID uint16, hw.MHz uint64,
// numalib.CoreGrade bool.
type Port struct {
	_struct         bool
	Label           string
	Value           int
	To              int
	HostNetwork     string
	IgnoreCollision bool
}
type DNSConfig struct{ Servers, Searches, Options []string }
type CNIConfig struct{ Args map[string]string }
type NetworkResource struct {
	_struct       bool
	Mode          string
	Device        string
	CIDR          string
	IP            string
	Hostname      string
	MBits         int
	DNS           *DNSConfig
	ReservedPorts []Port
	DynamicPorts  []Port
	CNI           *CNIConfig
}
type Networks []*NetworkResource
type AllocatedCpuResources struct {
	CpuShares     int64
	ReservedCores []uint16
}
type AllocatedMemoryResources struct{ MemoryMB, MemoryMaxMB int64 }
type AllocatedDeviceResource struct {
	Vendor, Type, Name string
	DeviceIDs          []string
}
type AllocatedTaskResources struct {
	Cpu      AllocatedCpuResources
	Memory   AllocatedMemoryResources
	Networks Networks
	Devices  []*AllocatedDeviceResource
}
type TaskLifecycleConfig struct {
	Hook    string
	Sidecar bool
}
type AllocatedPortMapping struct {
	_struct         bool
	Label           string
	Value           int
	To              int
	HostIP          string
	IgnoreCollision bool
}
type AllocatedPorts []AllocatedPortMapping
type AllocatedSharedResources struct {
	Networks Networks
	DiskMB   int64
	Ports    AllocatedPorts
}
type AllocatedResources struct {
	Tasks          map[string]*AllocatedTaskResources
	TaskLifecycles map[string]*TaskLifecycleConfig
	Shared         AllocatedSharedResources
}
type DesiredTransition struct {
	Migrate, Reschedule, ForceReschedule, NoShutdownDelay, MigrateDisablePlacement *bool
}
type TaskEvent struct {
	Type             string
	Time             int64
	Message          string
	DisplayMessage   string
	Details          map[string]string
	FailsTask        bool
	RestartReason    string
	SetupError       string
	DriverError      string
	ExitCode         int
	Signal           int
	KillTimeout      time.Duration
	KillError        string
	KillReason       string
	StartDelay       int64
	DownloadError    string
	ValidationError  string
	DiskLimit        int64
	FailedSibling    string
	VaultError       string
	TaskSignalReason string
	TaskSignal       string
	DriverMessage    string
	GenericSource    string
}
type TaskScheduleState string
type TaskState struct {
	State       string
	Failed      bool
	Restarts    uint64
	LastRestart time.Time
	StartedAt   time.Time
	FinishedAt  time.Time
	Events      []*TaskEvent
	Paused      TaskScheduleState
}
type AllocDeploymentStatus struct {
	Healthy     *bool
	Timestamp   time.Time
	Canary      bool
	ModifyIndex uint64
}
type RescheduleEvent struct {
	RescheduleTime int64
	PrevAllocID    string
	PrevNodeID     string
	Delay          time.Duration
}
type RescheduleTrackerAnnotation string
type RescheduleTracker struct {
	Events         []*RescheduleEvent
	LastReschedule RescheduleTrackerAnnotation
}
type AllocListStub struct {
	ID                    string
	EvalID                string
	Name                  string
	Namespace             string
	NodeID                string
	NodeName              string
	JobID                 string
	JobType               string
	JobVersion            uint64
	TaskGroup             string
	AllocatedResources    *AllocatedResources
	DesiredStatus         string
	DesiredDescription    string
	ClientStatus          string
	ClientDescription     string
	DesiredTransition     DesiredTransition
	TaskStates            map[string]*TaskState
	DeploymentStatus      *AllocDeploymentStatus
	FollowupEvalID        string
	NextAllocation        string
	RescheduleTracker     *RescheduleTracker
	PreemptedAllocations  []string
	PreemptedByAllocation string
	CreateIndex           uint64
	ModifyIndex           uint64
	CreateTime            int64
	ModifyTime            int64
}

type DriverInfo struct {
	Attributes        map[string]string
	Detected          bool
	Healthy           bool
	HealthDescription string
	UpdateTime        time.Time
}
type ClientHostVolumeConfig struct {
	Name     string
	Path     string
	ReadOnly bool
	ID       string
}
type LegacyNodeCpuResources struct {
	CpuShares          int64
	TotalCpuCores      uint16
	ReservableCpuCores []uint16
}
type CoreGrade bool
type Core struct {
	SocketID   uint8
	NodeID     uint8
	ID         uint16
	Grade      CoreGrade
	Disable    bool
	BaseSpeed  uint64
	MaxSpeed   uint64
	GuessSpeed uint64
}
type Cost uint8
type SLIT [][]Cost
type Topology struct {
	nodeIDs                *struct{}
	Nodes                  []uint8
	Distances              SLIT
	Cores                  []Core
	BusAssociativity       map[string]uint8
	OverrideTotalCompute   uint64
	OverrideWitholdCompute uint64
}
type NodeProcessorResources struct{ Topology *Topology }
type NodeMemoryResources struct{ MemoryMB int64 }
type NodeDiskResources struct{ DiskMB int64 }
type NodeDeviceLocality struct{ PciBusID string }
type NodeDevice struct {
	ID                string
	Healthy           bool
	HealthDescription string
	Locality          *NodeDeviceLocality
}
type Attribute struct {
	Float  *float64
	Int    *int64
	String *string
	Bool   *bool
	Unit   string
}
type NodeDeviceResource struct {
	Vendor     string
	Type       string
	Name       string
	Instances  []*NodeDevice
	Attributes map[string]*Attribute
}
type NodeNetworkAF string
type NodeNetworkAddress struct {
	Family        NodeNetworkAF
	Alias         string
	Address       string
	ReservedPorts string
	Gateway       string
}
type NodeNetworkResource struct {
	Mode       string
	Device     string
	MacAddress string
	Speed      int
	Addresses  []NodeNetworkAddress
}
type NodeResources struct {
	Cpu            LegacyNodeCpuResources
	Processors     NodeProcessorResources
	Memory         NodeMemoryResources
	Disk           NodeDiskResources
	Devices        []*NodeDeviceResource
	NodeNetworks   []*NodeNetworkResource
	Networks       Networks
	MinDynamicPort int
	MaxDynamicPort int
}
type NodeReservedCpuResources struct {
	CpuShares        int64
	ReservedCpuCores []uint16
}
type NodeReservedMemoryResources struct{ MemoryMB int64 }
type NodeReservedDiskResources struct{ DiskMB int64 }
type NodeReservedNetworkResources struct{ ReservedHostPorts string }
type NodeReservedResources struct {
	Cpu      NodeReservedCpuResources
	Memory   NodeReservedMemoryResources
	Disk     NodeReservedDiskResources
	Networks NodeReservedNetworkResources
}
type DrainStatus string
type DrainMetadata struct {
	StartedAt  time.Time
	UpdatedAt  time.Time
	Status     DrainStatus
	AccessorID string
	Meta       map[string]string
}
type NodeListStub struct {
	Address               string
	ID                    string
	Attributes            map[string]string
	Datacenter            string
	Name                  string
	NodePool              string
	NodeClass             string
	Version               string
	Drain                 bool
	SchedulingEligibility string
	Status                string
	StatusDescription     string
	Drivers               map[string]*DriverInfo
	HostVolumes           map[string]*ClientHostVolumeConfig
	NodeResources         *NodeResources
	ReservedResources     *NodeReservedResources
	LastDrain             *DrainMetadata
	CreateIndex           uint64
	ModifyIndex           uint64
}

type EvaluationStub struct {
	ID                string
	Namespace         string
	Priority          int
	Type              string
	TriggeredBy       string
	JobID             string
	NodeID            string
	DeploymentID      string
	Status            string
	StatusDescription string
	WaitUntil         time.Time
	NextEval          string
	PreviousEval      string
	BlockedEval       string
	CreateIndex       uint64
	ModifyIndex       uint64
	CreateTime        int64
	ModifyTime        int64
}
type Constraint struct{ LTarget, RTarget, Operand string }
type Affinity struct {
	LTarget, RTarget, Operand string
	Weight                    int8
}
type RequestedDevice struct {
	Name        string
	Count       uint64
	Constraints []*Constraint
	Affinities  []*Affinity
}
type NUMA struct {
	Affinity string
	Devices  []string
}
type Resources struct {
	CPU         int
	Cores       int
	MemoryMB    int
	MemoryMaxMB int
	DiskMB      int
	IOPS        int
	Networks    Networks
	Devices     []*RequestedDevice
	NUMA        *NUMA
	SecretsMB   int
}
type NodeScoreMeta struct {
	NodeID    string
	Scores    map[string]float64
	NormScore float64
}
type AllocMetric struct {
	NodesEvaluated     int
	NodesFiltered      int
	NodesInPool        int
	NodePool           string
	NodesAvailable     map[string]int
	ClassFiltered      map[string]int
	ConstraintFiltered map[string]int
	NodesExhausted     int
	ClassExhausted     map[string]int
	DimensionExhausted map[string]int
	QuotaExhausted     []string
	ResourcesExhausted map[string]*Resources
	Scores             map[string]float64
	ScoreMetaData      []*NodeScoreMeta
	nodeScoreMeta      *NodeScoreMeta
	topScores          *struct{}
	AllocationTime     time.Duration
	CoalescedFailures  int
}
type DesiredUpdates struct {
	Ignore, Place, Migrate, Stop, InPlaceUpdate, DestructiveUpdate, Canary, Preemptions uint64
	Disconnect, Reconnect, RescheduleNow, RescheduleLater                               uint64
}
type PlanAnnotations struct {
	DesiredTGUpdates map[string]*DesiredUpdates
	PreemptedAllocs  []*AllocListStub
}
type Evaluation struct {
	_struct                 bool
	ID                      string
	Namespace               string
	Priority                int
	Type                    string
	TriggeredBy             string
	JobID                   string
	JobModifyIndex          uint64
	NodeID                  string
	NodeModifyIndex         uint64
	DeploymentID            string
	Status                  string
	StatusDescription       string
	Wait                    time.Duration
	WaitUntil               time.Time
	NextEval                string
	PreviousEval            string
	BlockedEval             string
	RelatedEvals            []*EvaluationStub
	FailedTGAllocs          map[string]*AllocMetric
	PlanAnnotations         *PlanAnnotations
	ClassEligibility        map[string]bool
	QuotaLimitReached       string
	MissingNonNodeResources []string
	EscapedComputedClass    bool
	AnnotatePlan            bool
	QueuedAllocations       map[string]int
	LeaderACL               string
	SnapshotIndex           uint64
	CreateIndex             uint64
	ModifyIndex             uint64
	CreateTime              int64
	ModifyTime              int64
}

type inCase struct {
	ID    json.RawMessage `json:"id"`
	Kind  string          `json:"kind"`
	Expr  string          `json:"expr"`
	Datum json.RawMessage `json:"datum"`
	// MaxExpressions, when set, is passed as WithMaxExpressions (else the release's default).
	MaxExpressions uint64 `json:"maxExpressions,omitempty"`
}
type outCase struct {
	ID      json.RawMessage `json:"id"`
	Expect  string          `json:"expect"`
	GoError string          `json:"goError,omitempty"`
}

// decode types the datum as its kind says.
func decode(c inCase) (interface{}, error) {
	switch c.Kind {
	case "job":
		var j JobListStub
		err := json.Unmarshal(c.Datum, &j)
		return j, err
	case "deployment":
		var d Deployment
		err := json.Unmarshal(c.Datum, &d)
		return d, err
	// The list entries of issue 44 (schemas.allocation, schemas.node, schemas.evaluation); the
	// server's own values are pointers, which go-bexpr dereferences first, so a value answers the same.
	case "allocation":
		var a AllocListStub
		err := json.Unmarshal(c.Datum, &a)
		return a, err
	case "node":
		var n NodeListStub
		err := json.Unmarshal(c.Datum, &n)
		return n, err
	case "evaluation":
		var e Evaluation
		err := json.Unmarshal(c.Datum, &e)
		return e, err
	default:
		var datum interface{}
		err := json.Unmarshal(c.Datum, &datum)
		return datum, err
	}
}

// evaluate runs one evaluation, a panic being an eval-error.
func evaluate(ev *bexpr.Evaluator, datum interface{}) (expect, goError string) {
	defer func() {
		if r := recover(); r != nil {
			expect, goError = "eval-error", "panic: "+fmt.Sprint(r)
		}
	}()
	ok, err := ev.Evaluate(datum)
	if err != nil {
		return "eval-error", err.Error()
	}
	return fmt.Sprint(ok), ""
}

func answer(c inCase, repeat int) (out outCase) {
	out.ID = c.ID
	defer func() {
		if r := recover(); r != nil {
			out.Expect = "eval-error"
			out.GoError = "panic: " + fmt.Sprint(r)
		}
	}()
	var opts []bexpr.Option
	if c.MaxExpressions != 0 {
		opts = append(opts, bexpr.WithMaxExpressions(c.MaxExpressions))
	}
	ev, err := bexpr.CreateEvaluator(c.Expr, opts...)
	if err != nil {
		out.Expect, out.GoError = "parse-error", err.Error()
		return
	}
	if !strings.Contains(c.Expr, "any") && !strings.Contains(c.Expr, "all") {
		repeat = 1
	}
	for i := 0; i < repeat; i++ {
		datum, err := decode(c)
		if err != nil {
			out.Expect, out.GoError = "bad-datum", err.Error()
			return
		}
		expect, goError := evaluate(ev, datum)
		if i == 0 {
			out.Expect, out.GoError = expect, goError
		} else if expect != out.Expect {
			out.Expect, out.GoError = "unstable", fmt.Sprintf("%s (%s) / %s (%s)", out.Expect, out.GoError, expect, goError)
			return
		} else if goError < out.GoError {
			// The same answer, its message naming another key: keep the least, so that reruns agree.
			out.GoError = goError
		}
	}
	return
}

func main() {
	timeout := flag.Duration("timeout", 0, "answer \"timeout\" and exit (status 3) when a case takes longer (0: no limit)")
	repeat := flag.Int("repeat", 1, "evaluations per case; differing answers give \"unstable\"")
	flag.Parse()
	if *repeat < 1 {
		*repeat = 1
	}

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<20), 64<<20)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for in.Scan() {
		var c inCase
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, "bad case:", err)
			w.Flush()
			os.Exit(2)
		}
		if *timeout <= 0 {
			enc.Encode(answer(c, *repeat))
			continue
		}
		done := make(chan outCase, 1)
		go func() { done <- answer(c, *repeat) }()
		select {
		case out := <-done:
			enc.Encode(out)
		case <-time.After(*timeout):
			enc.Encode(outCase{ID: c.ID, Expect: "timeout"})
			w.Flush()
			os.Exit(3)
		}
	}
}
