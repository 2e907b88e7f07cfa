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
  /**
   * The count a user would write for this one query: a loop of its own with the test inline (V8 can
   * then inline and specialise it, which a loop shared by every query's predicate never gets).
   */
  readonly inline: (jobs: readonly Job[]) => number;
  /** The same test in the Common Expression Language. */
  readonly cel: string;
}

export const QUERIES: readonly Query[] = [
  {
    id: "Q1",
    expression: 'Status == "running"',
    handWritten: (j) => j.Status === "running",
    inline: (jobs) => {
      let n = 0;
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i]!;
        if (j.Status === "running") n++;
      }
      return n;
    },
    cel: 'Status == "running"',
  },
  {
    id: "Q2",
    expression: '"dc1" in Datacenters and Type == "service"',
    handWritten: (j) => j.Datacenters.includes("dc1") && j.Type === "service",
    inline: (jobs) => {
      let n = 0;
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i]!;
        if (j.Datacenters.includes("dc1") && j.Type === "service") n++;
      }
      return n;
    },
    cel: '"dc1" in Datacenters && Type == "service"',
  },
  {
    id: "Q3",
    expression: 'Name matches "^web-[0-9]+$"',
    handWritten: (j) => /^web-[0-9]+$/.test(j.Name),
    inline: (jobs) => {
      let n = 0;
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i]!;
        if (/^web-[0-9]+$/.test(j.Name)) n++;
      }
      return n;
    },
    cel: 'Name.matches("^web-[0-9]+$")',
  },
  {
    id: "Q4",
    expression: '"web" in JobSummary.Summary and JobSummary.Summary["web"].Running == 3',
    handWritten: (j) => "web" in j.JobSummary.Summary && j.JobSummary.Summary.web.Running === 3,
    inline: (jobs) => {
      let n = 0;
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i]!;
        if ("web" in j.JobSummary.Summary && j.JobSummary.Summary.web.Running === 3) n++;
      }
      return n;
    },
    cel: '"web" in JobSummary.Summary && JobSummary.Summary["web"].Running == 3',
  },
  {
    id: "Q5",
    expression: 'not (Status == "dead") and ParentID is empty',
    handWritten: (j) => j.Status !== "dead" && j.ParentID === "",
    inline: (jobs) => {
      let n = 0;
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i]!;
        if (j.Status !== "dead" && j.ParentID === "") n++;
      }
      return n;
    },
    cel: '!(Status == "dead") && ParentID == ""',
  },
  {
    id: "Q6",
    expression: '(Namespace == "prod" or Namespace == "dev") and Stop == false and Priority == 50',
    handWritten: (j) => (j.Namespace === "prod" || j.Namespace === "dev") && j.Stop === false && j.Priority === 50,
    inline: (jobs) => {
      let n = 0;
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i]!;
        if ((j.Namespace === "prod" || j.Namespace === "dev") && j.Stop === false && j.Priority === 50) n++;
      }
      return n;
    },
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
    inline: (jobs) => {
      let n = 0;
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i]!;
        if (j.Status !== "dead" && j.Datacenters.includes("dc2")) n++;
      }
      return n;
    },
  },
  {
    id: "M2",
    expression: 'Name contains "web" or Type == "batch"',
    handWritten: (j) => j.Name.includes("web") || j.Type === "batch",
    inline: (jobs) => {
      let n = 0;
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i]!;
        if (j.Name.includes("web") || j.Type === "batch") n++;
      }
      return n;
    },
  },
  {
    id: "M3",
    expression: '(Type == "service" or Type == "system") and Periodic == false and Namespace != "staging"',
    handWritten: (j) => (j.Type === "service" || j.Type === "system") && !j.Periodic && j.Namespace !== "staging",
    inline: (jobs) => {
      let n = 0;
      for (let i = 0; i < jobs.length; i++) {
        const j = jobs[i]!;
        if ((j.Type === "service" || j.Type === "system") && !j.Periodic && j.Namespace !== "staging") n++;
      }
      return n;
    },
  },
];
