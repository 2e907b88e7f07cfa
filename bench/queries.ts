/**
 * The six benchmark queries (Q1–Q6 of the issues), each with the hand-written JavaScript predicate a
 * careful programmer would write for the same answer on well-formed job list entries, and the same
 * test in CEL (for the compile-time comparison with cel-js).
 */
type Job = Record<string, any>;

export interface Query {
  readonly id: string;
  readonly expression: string;
  readonly handWritten: (job: Job) => boolean;
  /** The same test in the Common Expression Language. */
  readonly cel: string;
}

export const QUERIES: readonly Query[] = [
  { id: "Q1", expression: 'Status == "running"', handWritten: (j) => j.Status === "running", cel: 'Status == "running"' },
  {
    id: "Q2",
    expression: '"dc1" in Datacenters and Type == "service"',
    handWritten: (j) => j.Datacenters.includes("dc1") && j.Type === "service",
    cel: '"dc1" in Datacenters && Type == "service"',
  },
  { id: "Q3", expression: 'Name matches "^web-[0-9]+$"', handWritten: (j) => /^web-[0-9]+$/.test(j.Name), cel: 'Name.matches("^web-[0-9]+$")' },
  {
    id: "Q4",
    expression: '"web" in JobSummary.Summary and JobSummary.Summary["web"].Running == 3',
    handWritten: (j) => "web" in j.JobSummary.Summary && j.JobSummary.Summary.web.Running === 3,
    cel: '"web" in JobSummary.Summary && JobSummary.Summary["web"].Running == 3',
  },
  {
    id: "Q5",
    expression: 'not (Status == "dead") and ParentID is empty',
    handWritten: (j) => j.Status !== "dead" && j.ParentID === "",
    cel: '!(Status == "dead") && ParentID == ""',
  },
  {
    id: "Q6",
    expression: '(Namespace == "prod" or Namespace == "dev") and Stop == false and Priority == 50',
    handWritten: (j) => (j.Namespace === "prod" || j.Namespace === "dev") && j.Stop === false && j.Priority === 50,
    cel: '(Namespace == "prod" || Namespace == "dev") && Stop == false && Priority == 50',
  },
];

/**
 * A few more filters of the shapes users write, for the throughput figures beside Q1–Q6 (no CEL
 * twin: they are not in the compile comparison).
 */
export const MIXED: readonly Omit<Query, "cel">[] = [
  {
    id: "M1",
    expression: 'Status != "dead" and "dc2" in Datacenters',
    handWritten: (j) => j.Status !== "dead" && j.Datacenters.includes("dc2"),
  },
  {
    id: "M2",
    expression: 'Name contains "web" or Type == "batch"',
    handWritten: (j) => j.Name.includes("web") || j.Type === "batch",
  },
  {
    id: "M3",
    expression: '(Type == "service" or Type == "system") and Periodic == false and Namespace != "staging"',
    handWritten: (j) => (j.Type === "service" || j.Type === "system") && !j.Periodic && j.Namespace !== "staging",
  },
];
