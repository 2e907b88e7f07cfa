/**
 * Tightness on a fixed query set over generated jobs: the rows the SQL selects (candidates) against
 * the rows the filter accepts (matches). Soundness needs candidates ⊇ matches; tightness needs
 * candidates ≤ 1.5 × matches, which a translation that silently became TRUE cannot meet.
 */
import { compile, schemas, toSQL } from "../../src/index.js";
import { generateJobs } from "../../bench/jobs.js";
import { stringify, type Engine } from "./engines.js";

/** The six benchmark queries (bench/queries.ts) and more, each selecting well under 2/3 of the jobs. */
export const TIGHT_QUERIES: readonly string[] = [
  'Status == "running"',
  '"dc1" in Datacenters and Type == "service"',
  'Name matches "^web-[0-9]+$"',
  '"web" in JobSummary.Summary and JobSummary.Summary["web"].Running == 3',
  'not (Status == "dead") and ParentID is empty',
  '(Namespace == "prod" or Namespace == "dev") and Stop == false and Priority == 50',
  'ParentID == "parent-7"',
  'Priority != 50',
  "Periodic == true",
  "Stop == true or ParameterizedJob == true",
  'Datacenters is empty',
  '"dc2" not in Datacenters',
  'Datacenters contains "dc3" and not (Type == "batch")',
  'Name contains "web"',
  'ID matches "^batch-1"',
  'ID matches "-7$"',
  'JobSummary.Summary is empty',
  '"api" in JobSummary.Summary and ("cache" in JobSummary.Summary or "db" in JobSummary.Summary)',
  '"/JobSummary/Summary" contains "db"',
  '"web" in JobSummary.Summary and JobSummary["Summary"].web.Queued == 2',
  'Multiregion is not nil or Priority == 100',
  'Type contains "sys" and Namespace != "default"',
  "CreateIndex == 77",
  'any Datacenters as d { d == "dc3" }',
  "all JobSummary.Summary as _, g { g.Queued == 0 }",
];

export interface TightnessRow {
  query: string;
  mode: "typed" | "json";
  candidates: number;
  matches: number;
  exact: boolean;
  where: string;
}

/** Loads `n` generated jobs into `jobs` and measures every query in both modes. */
export async function measureTightness(engine: Engine, n = 2000): Promise<TightnessRow[]> {
  const jobs = generateJobs(n, 7);
  await engine.load("jobs", jobs.map((j, i) => [`j${String(i).padStart(6, "0")}`, stringify(j)] as const));
  const out: TightnessRow[] = [];
  for (const mode of ["typed", "json"] as const) {
    const schema = mode === "typed" ? schemas.job : undefined;
    for (const query of TIGHT_QUERIES) {
      const filter = compile(query, { schema });
      const matches = filter.filter(jobs).length;
      const t = toSQL(filter, { dialect: engine.dialect });
      const [row] = await engine.query(`SELECT count(*) AS n FROM jobs WHERE ${t.where}`, t.params);
      out.push({ query, mode, candidates: Number(row!.n), matches, exact: t.exact, where: t.where });
    }
  }
  return out;
}
