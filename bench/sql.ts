/**
 * SQL pushdown against a real PostgreSQL (run by hand, not in tests):
 *
 *   npx tsx bench/sql.ts                 (100,000 and 1,000,000 jobs)
 *   npx tsx bench/sql.ts --rows 100000   (one size)
 *   npx tsx bench/sql.ts --rows 100000 --explain   (also print the plan of each pushdown statement)
 *
 * Without a database server:
 *
 *   npx tsx bench/sql.ts --translate     (the time of toSQL alone on long chains, both dialects;
 *                                         --terms 400,7000 by default)
 *   npx tsx bench/sql.ts --budget        (what a translation near the size bound costs the engines
 *                                         (sql.js, PGlite) per row, against reading every row)
 *
 * It creates a throw-away cluster (initdb, pg_ctl) in a temporary directory on a free loopback port,
 * loads generated job list entries (bench/jobs.ts) into `jobs (id text COLLATE "C" PRIMARY KEY, doc
 * jsonb NOT NULL)`, creates expression indexes on the fields the queries use and a GIN index on the
 * documents, then times one page of per_page=100 for the six benchmark queries (bench/queries.ts)
 * and two selective filters, three ways, in one run:
 *   - pushdown: `filterPage` (the translation, keyset chunks, the re-check where needed);
 *   - keyset scan: every row in key order, in chunks of 1,000, filtered in-process until the page
 *     fills (a careful server without pushdown);
 *   - read everything: every row read and filtered, then the page cut (a naive server).
 * Each query is checked first: the three give the same page.
 *
 * The driver is `pg` (a devDependency); the cluster is test/support/postgres-cluster.ts's (PG_BIN, else
 * the directory of `initdb` on PATH, else the newest /usr/lib/postgresql/<version>/bin; as root, the
 * server runs as the `postgres` user).
 */
import pg from "pg";
import { startCluster } from "../test/support/postgres-cluster.js";
import { compile, filterPage, parse, parseJson, schemas, toSQL, type Filter, type Schema, type SqlDialect } from "../src/index.js";
import { ANY } from "../src/semantics/schema.js";
import { dialectFor, translateExpr } from "../src/sql/translate.js";
import { openPglite, openSqlite, stringify } from "../test/sql/engines.js";
import { generateJobs } from "./jobs.js";
import { QUERIES } from "./queries.js";

type PgClient = pg.Client;

const args = process.argv.slice(2);
const sizes = args.includes("--rows") ? [Number(args[args.indexOf("--rows") + 1])] : [100_000, 1_000_000];
const ONLY = args.includes("--only") ? args[args.indexOf("--only") + 1]!.split(",") : undefined;
const PER_PAGE = 100;
const EXPLAIN = args.includes("--explain");

const SELECTIVE = [
  { id: "S1", label: "1 % (ParentID, 5 values)", expression: 'ParentID == "parent-3" or ParentID == "parent-4" or ParentID == "parent-5" or ParentID == "parent-6" or ParentID == "parent-7"' },
  { id: "S2", label: "1.6 % (3 fields)", expression: 'Status == "dead" and Type == "batch" and Namespace == "prod"' },
];

async function load(client: PgClient, n: number): Promise<number> {
  const t0 = performance.now();
  await client.query('DROP TABLE IF EXISTS jobs; CREATE TABLE jobs (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)');
  const CHUNK = 50_000;
  for (let start = 0; start < n; start += CHUNK) {
    // The generator is deterministic per seed: chunks use their own seeds and ID ranges.
    const jobs = generateJobs(Math.min(CHUNK, n - start), 1000 + start / CHUNK);
    const ids: string[] = [];
    const docs: string[] = [];
    jobs.forEach((j, i) => {
      const id = `job-${String(start + i).padStart(7, "0")}`;
      j.ID = id;
      ids.push(id);
      docs.push(JSON.stringify(j));
    });
    await client.query("INSERT INTO jobs SELECT * FROM unnest($1::text[], $2::jsonb[])", [ids, docs]);
  }
  const loaded = performance.now() - t0;
  const t1 = performance.now();
  for (const field of ["Status", "Type", "Namespace", "ParentID", "Name"]) {
    await client.query(`CREATE INDEX ON jobs ((doc #>> '{${field}}'))`);
  }
  await client.query("CREATE INDEX ON jobs USING gin (doc jsonb_path_ops)");
  await client.query("VACUUM ANALYZE jobs");
  console.log(`  loaded ${n.toLocaleString("en")} rows in ${(loaded / 1000).toFixed(1)} s, indexed in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  return loaded;
}

interface Page {
  keys: string[];
  next: string;
  /** Read everything: how many rows match in all. */
  total?: number;
}

/** Keyset scan without pushdown: chunks of 1,000 rows in key order until the page fills. */
async function keysetScan(client: PgClient, filter: Filter, token: string): Promise<Page> {
  const keys: string[] = [];
  let after = token;
  let inclusive = true;
  for (;;) {
    const { rows } = await client.query(`SELECT id, doc::text AS d FROM jobs WHERE id ${inclusive ? ">=" : ">"} $1 ORDER BY id LIMIT 1000`, [after]);
    for (const r of rows) {
      if (!filter.evaluate(parseJson(String(r.d)))) continue;
      if (keys.length === PER_PAGE) return { keys, next: String(r.id) };
      keys.push(String(r.id));
    }
    if (rows.length < 1000) return { keys, next: "" };
    after = String(rows[rows.length - 1]!.id);
    inclusive = false;
  }
}

/** Read everything, filter, cut the page. */
async function readEverything(client: PgClient, filter: Filter, token: string): Promise<Page> {
  const { rows } = await client.query("SELECT id, doc::text AS d FROM jobs ORDER BY id");
  const matching = rows.filter((r) => String(r.id) >= token && filter.evaluate(parseJson(String(r.d))));
  return { keys: matching.slice(0, PER_PAGE).map((r) => String(r.id)), next: matching.length > PER_PAGE ? String(matching[PER_PAGE]!.id) : "", total: matching.length };
}

async function pushdown(client: PgClient, filter: Filter, token: string, explain = false): Promise<Page & { candidates: number; exact: boolean }> {
  const p = await filterPage({
    query: async (sql, params) => {
      if (explain) {
        const plan = await client.query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${sql}`, params);
        console.log(plan.rows.map((r) => `    ${String(r["QUERY PLAN"])}`).join("\n"));
      }
      return (await client.query(sql, params)).rows;
    },
    filter,
    dialect: "postgres",
    table: "jobs",
    nextToken: token,
    perPage: PER_PAGE,
  });
  return { keys: p.keys, next: p.nextToken, candidates: p.candidates, exact: p.exact };
}

/** Median of `reps` timings of `f`, in ms. */
async function time(reps: number, f: () => Promise<unknown>): Promise<number> {
  const ts: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    await f();
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  return ts[Math.floor(ts.length / 2)]!;
}

async function main(): Promise<void> {
  const { Client } = pg;
  const cluster = await startCluster({ shared_buffers: "512MB", work_mem: "64MB", maintenance_work_mem: "512MB", max_wal_size: "4GB" });
  const client = new Client({ host: "127.0.0.1", port: cluster.port, user: "postgres", database: "postgres" });
  const lines: string[] = [];
  try {
    await client.connect();
    const { rows } = await client.query("SELECT version() AS v");
    console.log(String(rows[0]!.v));
    for (const n of sizes) {
      console.log(`${n.toLocaleString("en")} jobs:`);
      await load(client, n);
      const middle = `job-${String(Math.floor(n / 2)).padStart(7, "0")}`;
      lines.push(`| ${n.toLocaleString("en")} | query | matches | pushdown | keyset scan | read everything | vs keyset scan | vs read everything | exact | candidates |`);
      lines.push("|---:|---|---:|---:|---:|---:|---:|---:|---|---:|");
      for (const q of [...QUERIES.map((x) => ({ id: x.id, label: x.expression, expression: x.expression })), ...SELECTIVE]) {
        if (ONLY && !ONLY.includes(q.id)) continue;
        const filter = compile(q.expression, { schema: schemas.job });
        if (EXPLAIN) {
          console.log(`  ${q.id}:`);
          await pushdown(client, filter, middle, true);
        }
        // Same page three ways, from the start and from the middle.
        for (const token of ["", middle]) {
          const a = await pushdown(client, filter, token);
          const b = await keysetScan(client, filter, token);
          if (JSON.stringify([a.keys, a.next]) !== JSON.stringify([b.keys, b.next])) throw new Error(`${q.id}: pushdown and scan disagree`);
        }
        const reps = n >= 1_000_000 ? 5 : 9;
        const tp = ((await time(reps, () => pushdown(client, filter, ""))) + (await time(reps, () => pushdown(client, filter, middle)))) / 2;
        const ts = ((await time(reps, () => keysetScan(client, filter, ""))) + (await time(reps, () => keysetScan(client, filter, middle)))) / 2;
        const t0 = performance.now();
        const everything = await readEverything(client, filter, "");
        const once = performance.now() - t0;
        // At a million rows one read of everything takes long enough to time once.
        const tr = n >= 1_000_000 ? once : await time(3, () => readEverything(client, filter, ""));
        const first = await pushdown(client, filter, "");
        if (JSON.stringify(everything.keys) !== JSON.stringify(first.keys)) throw new Error(`${q.id}: pushdown and read-everything disagree`);
        const matches = everything.total!;
        const line = `| | ${q.id} \`${q.label}\` | ${((100 * matches) / n).toFixed(1)} % | ${tp.toFixed(2)} ms | ${ts.toFixed(1)} ms | ${tr.toFixed(0)} ms | ${(ts / tp).toFixed(1)}× | ${(tr / tp).toFixed(0)}× | ${first.exact ? "yes" : "no"} | ${first.candidates} |`;
        console.log(line);
        lines.push(line);
      }
    }
  } finally {
    await client.end().catch(() => undefined);
    await cluster.stop();
  }
  console.log(`\n${lines.join("\n")}`);
}

/** Median of `reps` timings of a synchronous `f`, in ms. */
function timeSync(reps: number, f: () => unknown): number {
  const ts: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    f();
    ts.push(performance.now() - t0);
  }
  ts.sort((a, b) => a - b);
  return ts[Math.floor(ts.length / 2)]!;
}

/**
 * `toSQL` alone (the expression parsed beforehand, without the reference's parse budget) on chains of
 * 400 and 7,000 terms: equalities on one selector (one membership test), on alternating selectors
 * (an or-chain past the size bound: TRUE; an and-chain: the prefix that fits), and nested `not`.
 */
function translateTimes(): void {
  const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
  const shapes: { label: string; schema?: Schema; make: (n: number) => string }[] = [
    { label: "x == 0 or x == 1 or …", make: (n) => range(n, (i) => `x == ${i}`).join(" or ") },
    { label: 'Name == "j0" or … (job)', schema: schemas.job, make: (n) => range(n, (i) => `Name == "j${i}"`).join(" or ") },
    { label: "x != 0 and x != 1 and …", make: (n) => range(n, (i) => `x != ${i}`).join(" and ") },
    { label: "x == 0 or y == 1 or x == 2 …", make: (n) => range(n, (i) => (i % 2 ? `x == ${i}` : `y == ${i}`)).join(" or ") },
    { label: "x != 0 and y != 1 and …", make: (n) => range(n, (i) => (i % 2 ? `x != ${i}` : `y != ${i}`)).join(" and ") },
    { label: 'Name == "j0" or Status == "s1" … (job)', schema: schemas.job, make: (n) => range(n, (i) => (i % 2 ? `Name == "j${i}"` : `Status == "s${i}"`)).join(" or ") },
    { label: "not (x == 0 or y == 1 or …)", make: (n) => `not (${range(n, (i) => (i % 2 ? `x == ${i}` : `y == ${i}`)).join(" or ")})` },
  ];
  console.log("| chain | terms | dialect | toSQL | WHERE | bound values | exact |");
  console.log("|---|---:|---|---:|---:|---:|---|");
  const terms = args.includes("--terms") ? args[args.indexOf("--terms") + 1]!.split(",").map(Number) : [400, 7000];
  for (const shape of shapes) {
    for (const n of terms) {
      const ast = parse(shape.make(n), { maxExpressions: Infinity });
      for (const dialect of ["postgres", "sqlite"] as SqlDialect[]) {
        const run = () => toSQL({ ast, schema: shape.schema }, { dialect });
        run(); // warm-up
        const ms = timeSync(7, run);
        const t = run();
        const where = t.where === "TRUE" ? "TRUE" : `${t.where.length.toLocaleString("en")} chars`;
        console.log(`| \`${shape.label}\` | ${n.toLocaleString("en")} | ${dialect} | ${ms.toFixed(1)} ms | ${where} | ${t.params.length} | ${t.exact ? "yes" : "no"} |`);
      }
    }
  }
}

/**
 * What a large translation costs: or-chains of k comparisons on distinct paths (no membership test
 * applies) over 2,000 generated jobs, the statement and the re-check of the rows it selects, against
 * reading every row and re-checking it in-process (what `TRUE` costs).
 */
async function budgetCosts(): Promise<void> {
  const jobs = generateJobs(2000, 7);
  const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));
  console.log("| engine | mode | terms | nodes | WHERE | toSQL | candidates | statement + re-check | read every row + re-check | ratio |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const open of [openSqlite, openPglite]) {
    const e = await open();
    await e.load("jobs", jobs.map((j, i) => [`j${String(i).padStart(6, "0")}`, stringify(j)] as const));
    const pg = e.dialect === "postgres";
    const FIELDS = ["ID", "Name", "Namespace", "Type", "Status"];
    for (const [mode, schema, shape, ks] of [
      // No row matches (fields every job has).
      ["JSON", undefined, "none", [5, 15, 30, 60, 125, 250]],
      ["job", schemas.job, "none", [15, 35, 70, 135, 270, 700]],
      // Every row is kept (a nil JobSummary fails).
      ["JSON", undefined, "all", [5, 10, 20, 40]],
      ["job", schemas.job, "all", [20, 50, 100, 200]],
    ] as const) {
      for (const k of ks) {
        const expression =
          shape === "none"
            ? range(k, (i) => `${FIELDS[i % FIELDS.length]} == "none-${i}"`).join(" or ")
            : range(k, (i) => `JobSummary.Summary["g${i}"].Running == ${(i % 5) + 10}`).join(" or ");
        const filter = compile(expression, { schema, check: false });
        const t = toSQL(filter, { dialect: e.dialect });
        // The size the bound is counted in: nodes of U before the bound applies.
        const nodes = translateExpr(parse(expression), schema ?? ANY, dialectFor({ dialect: e.dialect })).u.size;
        const tt = timeSync(5, () => toSQL(filter, { dialect: e.dialect }));
        // The rows a condition selects, each re-checked in-process.
        let candidates = 0;
        const select = async (where: string, params: unknown[]) => {
          const rows = await e.query(`SELECT id, ${pg ? "doc::text" : "doc"} AS d FROM jobs WHERE ${where}`, params);
          candidates = rows.length;
          for (const r of rows) {
            try {
              filter.evaluate(parseJson(String(r.d)));
            } catch {
              // an error ends a real scan; here every row is timed
            }
          }
        };
        const ts = await time(5, () => select(t.where, t.params));
        const kept = candidates;
        const tr = await time(5, () => select("TRUE", []));
        const where = t.where === "TRUE" ? "TRUE" : `${t.where.length.toLocaleString("en")} chars`;
        console.log(`| ${e.dialect} | ${mode} | ${k} | ${nodes.toLocaleString("en")} | ${where} | ${tt.toFixed(1)} ms | ${kept} | ${ts.toFixed(1)} ms | ${tr.toFixed(1)} ms | ${(ts / tr).toFixed(1)}× |`);
      }
    }
    await e.close();
  }
}

if (args.includes("--translate")) translateTimes();
else if (args.includes("--budget")) await budgetCosts();
else await main();
