/**
 * What PostgreSQL does with `filterPage`'s statements, shape by shape (run by hand, not in tests):
 *
 *   npx tsx bench/sql-plans.ts --database postgres://…/db [--table jobs --key token --read body]
 *                              [--text-indexed Status,Type,Name,Namespace] [--library /path/to/another/checkout]
 *
 * For each filter below, one page of per_page=100 from the start through `filterPage` (the reference
 * server's statement shape: `ORDER BY key LIMIT …`, canonical numbers, the fields its jobs have btree
 * indexes on compared as text), every statement it runs also
 * run under `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)`: the scans (index names), the rows they read and
 * the rows their filters removed, the shared buffers and the execution time, summed over the page's
 * statements, and the page checked against the compiled filter over every row of the table (the run
 * fails on a difference). With `--library` the pages go through the library of another checkout (its
 * `src/index.ts`, e.g. a `git worktree` of an older commit, over the schema that commit's server
 * made), for a before/after comparison. The table is one the reference server's PostgreSQL store made
 * (`filter-server --database … --data …`), `ANALYZE`d.
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";
import pg from "pg";
import * as current from "../src/index.js";

const { values } = parseArgs({
  options: {
    database: { type: "string" },
    table: { type: "string", default: "jobs" },
    key: { type: "string", default: "token" },
    read: { type: "string", default: "body" },
    library: { type: "string" },
    "text-indexed": { type: "string", default: "Status,Type,Name,Namespace" },
  },
});
if (values.database === undefined) throw new Error("--database postgres://… is required");

const SHAPES: readonly string[] = [
  'Status == "running" and Type == "service" and Priority == 1000',
  'Status == "pending" and Priority == 100',
  '"dc1" in Datacenters and Type == "service"',
  'Status == "running"',
  'Name matches "^web-[0-9]+$"',
  'Name matches "frontend-1[0-9]{3}$"',
  '(Namespace == "prod" or Namespace == "dev") and Stop == false and Priority == 50',
];

type Library = Pick<typeof current, "compile" | "filterPage" | "schemas" | "parseJson">;

interface Plan {
  statements: number;
  scans: Set<string>;
  read: number;
  removed: number;
  buffers: number;
  ms: number;
  keys: string[];
  next: string;
}

interface PlanNode {
  "Node Type": string;
  "Index Name"?: string;
  "Relation Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, plan: Plan): void {
  if (node["Node Type"].includes("Scan")) {
    plan.scans.add(node["Index Name"] !== undefined ? `${node["Node Type"]} on ${node["Index Name"]}` : `${node["Node Type"]}${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""}`);
    if (!node["Node Type"].startsWith("Bitmap Index")) {
      const loops = node["Actual Loops"] ?? 1;
      const removed = (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0);
      plan.read += ((node["Actual Rows"] ?? 0) + removed) * loops;
      plan.removed += removed * loops;
    }
  }
  for (const p of node.Plans ?? []) walk(p, plan);
}

async function page(lib: Library, client: pg.Client, expression: string): Promise<Plan> {
  const plan: Plan = { statements: 0, scans: new Set(), read: 0, removed: 0, buffers: 0, ms: 0, keys: [], next: "" };
  const filter = lib.compile(expression, { schema: lib.schemas.job });
  const result = await lib.filterPage({
    query: async (sql, params) => {
      const explained = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode & { "Shared Hit Blocks": number; "Shared Read Blocks": number }; "Execution Time": number }] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
      const top = explained.rows[0]!["QUERY PLAN"][0];
      plan.statements++;
      plan.buffers += top.Plan["Shared Hit Blocks"] + top.Plan["Shared Read Blocks"];
      plan.ms += top["Execution Time"];
      walk(top.Plan, plan);
      return (await client.query(sql, params)).rows;
    },
    filter,
    dialect: "postgres",
    table: values.table!,
    key: values.key!,
    read: values.read!,
    perPage: 100,
    sql: { canonicalNumbers: true, textIndexed: values["text-indexed"]!.split(",").filter(Boolean).map((f) => [f]) },
  });
  plan.keys = result.keys;
  plan.next = result.nextToken;
  return plan;
}

const describe = (p: Plan) => `${[...p.scans].join(", ")}: ${p.read.toLocaleString("en")} rows read, ${p.removed.toLocaleString("en")} removed, ${p.buffers.toLocaleString("en")} buffers, ${p.ms.toFixed(1)} ms (${p.statements} statement${p.statements === 1 ? "" : "s"})`;

/** The first page of the filter over every row of the table, in key order (the check). */
async function fullScan(lib: Library, client: pg.Client, expression: string): Promise<{ keys: string[]; next: string }> {
  const filter = lib.compile(expression, { schema: lib.schemas.job });
  const keys: string[] = [];
  const table = `"${values.table!.replace(/"/g, '""')}"`;
  const key = `"${values.key!.replace(/"/g, '""')}"`;
  let after = "";
  for (;;) {
    const { rows } = await client.query<{ k: string; d: string }>(`SELECT ${key} AS k, "${values.read!.replace(/"/g, '""')}"::text AS d FROM ${table} WHERE ${key} COLLATE "C" > $1 ORDER BY ${key} COLLATE "C" LIMIT 20000`, [after]);
    for (const row of rows) {
      if (!filter.evaluate(lib.parseJson(row.d))) continue;
      if (keys.length === 100) return { keys, next: row.k };
      keys.push(row.k);
    }
    if (rows.length < 20000) return { keys, next: "" };
    after = rows[rows.length - 1]!.k;
  }
}

const client = new pg.Client({ connectionString: values.database });
await client.connect();
try {
  const lib: Library = values.library === undefined ? current : ((await import(resolve(values.library, "src/index.ts"))) as Library);
  const { rows } = await client.query<{ n: string }>(`SELECT count(*)::text AS n FROM "${values.table!.replace(/"/g, '""')}"`);
  console.log(`\n${Number(rows[0]!.n).toLocaleString("en")} rows in ${values.table}, library ${values.library ?? "of this checkout"}; one page of per_page=100 through filterPage, EXPLAIN (ANALYZE, BUFFERS) of each statement\n`);
  console.log("| filter | plan |\n|---|---|");
  for (const expression of SHAPES) {
    const plan = await page(lib, client, expression);
    const expected = await fullScan(lib, client, expression);
    if (JSON.stringify([plan.keys, plan.next]) !== JSON.stringify([expected.keys, expected.next])) throw new Error(`${expression}: filterPage's page differs from the full scan's`);
    console.log(`| \`${expression}\` | ${describe(plan)} |`);
  }
} finally {
  await client.end();
}
