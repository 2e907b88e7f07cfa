import type { Snapshot } from "../lists/records.js";
import { DEPLOYMENT_DESCRIPTIONS, DEPLOYMENT_STATUSES, JOB_TYPES, snapshotOf } from "../lists/records.js";
import type { Deployment, DeploymentState, JobListEntry, JobRecord, TaskGroupSummary } from "../lists/records.js";
import { Random } from "./random.js";
import { demoAllocations, demoEvaluations, demoNodes } from "./scheduler-records.js";

export interface DemoOptions {
  /** Number of jobs (periodic and dispatched children included). Default 400. */
  jobs?: number;
  /** PRNG seed; the same seed gives the same data. Default 4646. */
  seed?: number;
}

const NAMESPACES: readonly (readonly [string, number])[] = [
  ["default", 5],
  ["platform", 2],
  ["data-eng", 2],
  ["web", 2],
  ["ops-tools", 1],
];
const DATACENTERS = ["dc1", "dc2", "dc3", "eu-west-1", "us-east-1"] as const;
const WORDS = ["api", "web", "cache", "billing", "search", "auth", "ingest", "report", "etl", "metrics", "proxy", "mailer", "thumbnail", "ledger", "gateway", "indexer", "scheduler", "backup", "audit", "notifier"] as const;
const ROLES = ["service", "worker", "frontend", "backend", "sync", "cleanup", "export", "agent"] as const;
const GROUPS = ["web", "api", "cache", "worker", "db", "proxy", "sidecar", "metrics"] as const;

/** 2023-11-14T22:13:20Z in milliseconds; submit times count from here, so the data never depends on the clock. */
const EPOCH_MS = 1_700_000_000_000;
const PROGRESS_DEADLINE_NS = 600_000_000_000;

type JobType = (typeof JOB_TYPES)[number];

function emptyTaskSummary(): TaskGroupSummary {
  return { Complete: 0, Failed: 0, Lost: 0, Queued: 0, Running: 0, Starting: 0 };
}

/** Allocation counts of one task group that fit the job's type and status. */
function taskSummary(random: Random, type: JobType, status: string, count: number): TaskGroupSummary {
  const s = emptyTaskSummary();
  if (status === "pending") {
    s.Queued = count;
    s.Starting = random.int(0, 1);
  } else if (status === "running") {
    s.Running = count;
    s.Starting = random.chance(0.1) ? 1 : 0;
    s.Failed = random.chance(0.2) ? random.int(1, 3) : 0;
    s.Lost = random.chance(0.05) ? 1 : 0;
    s.Complete = type === "batch" || type === "sysbatch" ? random.int(0, count) : random.int(0, 2);
  } else {
    s.Complete = type === "batch" || type === "sysbatch" ? count : random.int(0, count);
    s.Failed = random.chance(0.3) ? random.int(1, 2) : 0;
    s.Lost = random.chance(0.05) ? 1 : 0;
  }
  return s;
}

function deploymentState(random: Random, status: string, count: number, isLatest: boolean, submitMs: number): DeploymentState {
  const canaries = random.chance(0.25) ? random.int(1, 2) : 0;
  const done = status === "successful" || status === "blocked";
  const placed = done ? count : status === "initializing" || status === "pending" ? 0 : random.int(0, count);
  const healthy = done ? count : Math.min(placed, random.int(0, placed));
  const unhealthy = status === "failed" ? Math.max(1, placed - healthy) : 0;
  const placedCanaries = canaries > 0 && placed > 0 ? Array.from({ length: canaries }, () => random.uuid()) : null;
  const inProgress = status === "running" || status === "paused" || status === "unblocking";
  return {
    AutoPromote: canaries > 0 && random.chance(0.5),
    AutoRevert: random.chance(0.4),
    DesiredCanaries: canaries,
    DesiredTotal: count,
    HealthyAllocs: healthy,
    PlacedAllocs: placed,
    PlacedCanaries: placedCanaries,
    ProgressDeadline: PROGRESS_DEADLINE_NS,
    Promoted: canaries > 0 && (done || (isLatest && random.chance(0.3))),
    RequireProgressBy: inProgress || done ? new Date(submitMs + 600_000).toISOString() : null,
    UnhealthyAllocs: unhealthy,
  };
}

interface Plan {
  namespace: string;
  id: string;
  type: JobType;
  status: string;
  periodic: boolean;
  parameterized: boolean;
  parentId: string;
}

/**
 * The embedded demo data: jobs of every type and status in several namespaces and datacenters, with
 * summaries (periodic and parameterized parents with their children), and deployments in every status
 * with the scheduler's status descriptions. Deterministic for a given seed.
 */
export function generateDemo(options: DemoOptions = {}): Snapshot {
  const total = Math.max(0, options.jobs ?? 400);
  const random = new Random(options.seed ?? 4646);
  const plans: Plan[] = [];
  const used = new Set<string>();
  const statuses = ["pending", "running", "dead"] as const;

  // Every type in every status first, then random jobs; periodic and parameterized parents get children.
  let serial = 0;
  const uniqueId = (namespace: string, base: string): string => {
    let id = base;
    while (used.has(`${namespace}/${id}`)) id = `${base}-${++serial}`;
    used.add(`${namespace}/${id}`);
    return id;
  };
  let forced = 0;
  while (plans.length < total) {
    const namespace = random.weighted(NAMESPACES);
    const combo = forced < JOB_TYPES.length * statuses.length ? forced++ : -1;
    const type: JobType =
      combo >= 0 ? (JOB_TYPES[combo % JOB_TYPES.length] as JobType) : random.weighted([["service", 6], ["batch", 3], ["system", 1], ["sysbatch", 1]] as const);
    const status = combo >= 0 ? (statuses[Math.floor(combo / JOB_TYPES.length)] as string) : random.weighted([["running", 7], ["pending", 1], ["dead", 2]] as const);
    const id = uniqueId(namespace, `${random.pick(WORDS)}-${random.pick(ROLES)}`);
    const periodic = type === "batch" && combo < 0 && random.chance(0.15);
    const parameterized = type === "batch" && combo < 0 && !periodic && random.chance(0.1);
    plans.push({ namespace, id, type, status: periodic || parameterized ? "running" : status, periodic, parameterized, parentId: "" });
    if (periodic || parameterized) {
      const children = random.int(1, 4);
      for (let c = 0; c < children && plans.length < total; c++) {
        const launch = Math.floor(EPOCH_MS / 1000) + random.int(0, 30 * 86400);
        const childId = periodic ? `${id}/periodic-${launch}` : `${id}/dispatch-${launch}-${random.hex(8)}`;
        used.add(`${namespace}/${childId}`);
        const childStatus = c === children - 1 ? random.pick(statuses) : "dead";
        plans.push({ namespace, id: childId, type: "batch", status: childStatus, periodic: false, parameterized: false, parentId: id });
      }
    }
  }

  let index = 10;
  const records: JobRecord[] = [];
  const deployments: Deployment[] = [];
  const byId = new Map<string, JobListEntry>();
  let forcedDeployment = 0;
  for (const plan of plans) {
    const createIndex = (index += random.int(1, 3));
    const submitMs = EPOCH_MS + (createIndex - 10) * 37_000;
    const groups = plan.type === "system" || plan.type === "sysbatch" ? random.subset(GROUPS, 1, 1) : random.subset(GROUPS, 1, 3);
    const counts = new Map(groups.map((g) => [g, plan.type === "system" || plan.type === "sysbatch" ? random.int(3, 12) : random.int(1, 5)]));
    const versions = plan.type === "service" && plan.parentId === "" ? random.int(1, 4) : 1;
    let modifyIndex = createIndex;
    const own: Deployment[] = [];
    for (let v = 0; v < versions; v++) {
      if (v > 0) modifyIndex = index += random.int(1, 5);
      if (plan.type !== "service") continue;
      const latest = v === versions - 1;
      let status: string;
      if (!latest) status = random.chance(0.8) ? "cancelled" : "successful";
      else if (forcedDeployment < DEPLOYMENT_STATUSES.length) status = DEPLOYMENT_STATUSES[forcedDeployment++] as string;
      else status = random.weighted([["successful", 8], ["running", 3], ["failed", 1], ["paused", 1], ["cancelled", 1]] as const);
      const description =
        !latest && status === "cancelled" ? "Cancelled due to newer version of job" : random.pick(DEPLOYMENT_DESCRIPTIONS[status] ?? [""]);
      const depCreate = modifyIndex + 1;
      const depModify = latest && status !== "running" && status !== "initializing" ? depCreate + random.int(1, 6) : depCreate + (latest ? 0 : 2);
      index = Math.max(index, depModify);
      const taskGroups: Record<string, DeploymentState> = {};
      for (const [group, count] of counts) taskGroups[group] = deploymentState(random, status, count, latest, submitMs + v * 60_000);
      own.push({
        CreateIndex: depCreate,
        EvalPriority: 50,
        ID: random.uuid(),
        IsMultiregion: status === "pending" || status === "blocked" || status === "unblocking",
        JobCreateIndex: createIndex,
        JobID: plan.id,
        JobModifyIndex: modifyIndex,
        JobSpecModifyIndex: modifyIndex,
        JobVersion: v,
        ModifyIndex: depModify,
        Namespace: plan.namespace,
        Status: status,
        StatusDescription: description,
        TaskGroups: taskGroups,
      });
    }
    const summary: Record<string, TaskGroupSummary> = {};
    for (const [group, count] of counts) summary[group] = taskSummary(random, plan.type, plan.status, count);
    const summaryIndex = (index += 1);
    const priority = random.weighted([[50, 8], [70, 2], [30, 1], [100, 1]] as const);
    const entry: JobListEntry = {
      CreateIndex: createIndex,
      Datacenters: plan.type === "system" ? [...DATACENTERS] : random.subset(DATACENTERS, 1, 3),
      ID: plan.id,
      JobModifyIndex: modifyIndex,
      JobSummary: {
        Children: { Dead: 0, Pending: 0, Running: 0 },
        CreateIndex: createIndex,
        JobID: plan.id,
        ModifyIndex: summaryIndex,
        Namespace: plan.namespace,
        Summary: summary,
      },
      ModifyIndex: summaryIndex,
      Multiregion: null,
      Name: plan.id,
      Namespace: plan.namespace,
      ParameterizedJob: plan.parameterized,
      ParentID: plan.parentId,
      Periodic: plan.periodic,
      Priority: priority,
      Status: plan.status,
      StatusDescription: "",
      Stop: plan.status === "dead" && plan.parentId === "" && random.chance(0.5),
      SubmitTime: (submitMs + (versions - 1) * 60_000) * 1_000_000,
      Type: plan.type,
    };
    for (const d of own) {
      d.EvalPriority = priority;
      deployments.push(d);
    }
    if (plan.parentId !== "") {
      const parent = byId.get(`${plan.namespace}/${plan.parentId}`);
      const children = parent?.JobSummary?.Children;
      if (children) {
        if (plan.status === "dead") children.Dead++;
        else if (plan.status === "running") children.Running++;
        else children.Pending++;
      }
    }
    byId.set(`${plan.namespace}/${plan.id}`, entry);
    records.push({ entry, version: versions - 1 });
  }
  const jobsAndDeployments = snapshotOf({ index, jobs: records, deployments });
  const nodes = demoNodes();
  return { ...jobsAndDeployments, nodes, allocations: demoAllocations(jobsAndDeployments, nodes), evaluations: demoEvaluations(jobsAndDeployments) };
}
