/**
 * Inputs at the edges of what the engines can hold, each through an engine under the soundness rule:
 * every row the SQL drops is one on which the compiled filter is false without error, an exact
 * translation keeps only rows on which it is true, and no statement fails. The data holds what drivers
 * and JSON paths trip on (U+0000, a leading U+FEFF, escaped lone surrogates, keys with `\`, `"`,
 * control characters, integers beyond 2^53); the expressions are long and deep (chains of thousands,
 * nesting past what the SQL may nest).
 */
import { compile, filterPage, parseJson, schemas, stringifyJson, toSQL, type Schema } from "../../src/index.js";
import { storable, type Engine } from "./engines.js";

const X = String.raw;

/** Plain JSON documents (written with `stringifyJson`, the storage recipe). */
export const JSON_DOCS: readonly unknown[] = [
  { x: "\ufeffa" },
  { x: "a" },
  { x: "\ufeff" },
  { x: "ba" },
  { x: "a\u0000b" },
  { x: "xa\u0000bz" },
  { x: "\u0000" },
  { x: "\ud800z" },
  { x: "\ufffdz" },
  { x: "z\udc00" },
  { m: { "a\u0000b": 1, a: 2 } },
  { m: { a: 1 } },
  { m: { "\ufeffk": 1 } },
  { m: { "a\\b": 1, 'a"b': 2, "a\nb": 3, é: 4, "\ud800": 5 } },
  { m: { "a.b": 1, "a]": 2, $: 3 } },
  { x: 5 },
  { x: 7000 },
  { x: 6999.5 },
  { x: 1e300 },
  { x: 9007199254740993n },
  { x: true },
  { x: [1, "a"] },
  { x: "a", y: "b", xs: [1, 2] },
  { x: 5, y: 7, xs: [] },
];

/** Typed jobs (uint64 indexes beyond 2^53, keys of summaries with U+0000, U+FEFF and `\`). */
export const JOB_DOCS: readonly unknown[] = [
  { ID: "a", Name: "\ufeffweb-1", Status: "running", ModifyIndex: 18446744073709551615n, CreateIndex: 9007199254740993n, JobSummary: { Summary: { "a\u0000b": { Running: 1 }, "\ufeffk": { Running: 2 } } } },
  { ID: "b", Name: "web-1", Status: "dead", ModifyIndex: 18446744073709551614n, JobSummary: { Summary: { "a\\b": { Running: 1 } } } },
  { ID: "c", Name: "a\u0000b", ModifyIndex: 5, CreateIndex: 9007199254740992 },
  { ID: "d", ModifyIndex: 18446744073709551615n, Priority: -9223372036854775808n, SubmitTime: 9223372036854775807n },
  { ID: "e", Stop: true, Periodic: false, Datacenters: ["dc1", "dc2"], JobSummary: { Summary: { g1: { Running: 1 }, g3: { Running: 53 } } } },
  { ID: "f", ParameterizedJob: true, Datacenters: [], JobSummary: null },
];

const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

/** Expressions over plain JSON. */
export const JSON_EXPRESSIONS: readonly string[] = [
  'x matches "^a"',
  'x matches "a"',
  'x not matches "^a"',
  'x == "a"',
  'x contains "a"',
  X`x matches "^\ufeffa$"`,
  X`x == "\ufeffa"`,
  'x matches "^.a$"',
  X`x == "a\x00b"`,
  X`x contains "\x00"`,
  X`x matches "^xa\x00b"`,
  X`x matches "\x00bz$"`,
  X`x matches "^\x00$"`,
  X`x == "xa\x00bz"`,
  X`x not matches "b\x00"`,
  X`x == "\ufffdz"`,
  X`x matches "^\ufffdz$"`,
  X`x contains "\ufffd"`,
  X`x matches "^\ufffd"`,
  X`x matches "\ufffd$"`,
  X`x not contains "\ufffd"`,
  X`m["a\x00b"] == 1`,
  X`m["a\x00b"] != 1`,
  X`"a\x00b" in m`,
  X`"a\x00b" not in m`,
  X`m["\ufeffk"] == 1`,
  X`m["a\\b"] == 1`,
  // A double-quoted string ends at the next quote: `"` is written in backticks.
  'm[`a"b`] == 2',
  X`m["a\nb"] == 3`,
  X`m["é"] == 4`,
  X`m["\ufffd"] == 5`,
  X`"\ufffd" in m`,
  'm["a.b"] == 1',
  'm["a]"] == 2',
  'm["$"] == 3',
  'x == 5 or x == 7000 or x == 6999.5 or x == "1e300" or x == "a" or x == true',
  'x != 5 and x != "a" and x != 7000',
  "x == 9007199254740992 or x == 9007199254740993 or x == 1",
  // Long and deep.
  `${"not ".repeat(45_001)}x == "a"`,
  `${"any xs as v { ".repeat(20)}x == "a"${" }".repeat(20)}`,
  range(7000, (i) => `x == ${i}`).join(" or "),
  range(7000, (i) => `x != ${i}`).join(" and "),
  range(7000, (i) => (i % 2 ? `x == ${i}` : `y == ${i}`)).join(" or "),
  range(7000, (i) => (i % 2 ? `x != ${i}` : `y != ${i}`)).join(" and "),
  `not (${range(7000, (i) => (i % 2 ? `x == ${i}` : `m.a == ${i}`)).join(" or ")})`,
  `${range(300, (i) => `(x == "v${i}" ${i % 2 ? "and" : "or"} `).join("")}x == "a"${")".repeat(300)}`,
  `${range(300, (i) => `not (x == ${i} or `).join("")}x == "a"${")".repeat(300)}`,
];

/** Expressions over typed jobs. */
export const JOB_EXPRESSIONS: readonly string[] = [
  'Name matches "^web"',
  'Name matches "web"',
  'Name not matches "^web"',
  X`Name == "a\x00b"`,
  X`JobSummary.Summary["a\x00b"].Running == 1`,
  X`"a\x00b" in JobSummary.Summary`,
  X`JobSummary.Summary["\ufeffk"].Running == 2`,
  X`JobSummary.Summary["a\\b"].Running == 1`,
  "ModifyIndex == 18446744073709551615",
  "ModifyIndex == 18446744073709551614",
  "ModifyIndex != 18446744073709551615",
  "ModifyIndex == 18446744073709551615 or ModifyIndex == 5",
  "CreateIndex == 9007199254740993",
  "CreateIndex == 9007199254740992",
  "Priority == -9223372036854775808",
  "SubmitTime == 9223372036854775807",
  range(7000, (i) => `Name == "j${i}"`).join(" or "),
  range(7000, (i) => (i % 2 ? `Name == "j${i}"` : `Status == "s${i}"`)).join(" or "),
  range(7000, (i) => (i % 2 ? `Name != "j${i}"` : `Status != "s${i}"`)).join(" and "),
  // Deep but small: each level adds little to the size and much to the nesting.
  `${range(400, (i) => `not (${i % 2 ? "Stop" : "Periodic"} == true or `).join("")}ParameterizedJob == true${")".repeat(400)}`,
  `${range(400, (i) => `(${i % 2 ? "Stop" : "Periodic"} == true ${i % 3 ? "and" : "or"} `).join("")}ParameterizedJob == true${")".repeat(400)}`,
  `${"any Datacenters as d { ".repeat(30)}d == "dc1"${" }".repeat(30)}`,
  range(2000, (i) => `JobSummary.Summary["g${i % 50}"].Running == ${i}`).join(" and "),
  range(2000, (i) => `JobSummary.Summary["g${i % 50}"].Running == ${i}`).join(" or "),
  `not (${range(2000, (i) => `JobSummary.Summary["g${i % 50}"].Running == ${i}`).join(" or ")})`,
];

export interface EdgeResult {
  /** Expression × table × function setting translations run. */
  statements: number;
  /** Row answers compared. */
  rows: number;
  failures: string[];
}

/** Runs every expression over its table on `engine` (on SQLite also without the RE2 function). */
export async function runEdges(engine: Engine): Promise<EdgeResult> {
  const r: EdgeResult = { statements: 0, rows: 0, failures: [] };
  const pg = engine.dialect === "postgres";
  for (const [table, docs, expressions, schema] of [
    ["edge_json", JSON_DOCS, JSON_EXPRESSIONS, undefined],
    ["edge_job", JOB_DOCS, JOB_EXPRESSIONS, schemas.job],
  ] as const) {
    const texts = docs.map((d) => stringifyJson(d)).filter((t) => storable(engine.dialect, t));
    await engine.load(table, texts.map((t, i) => [`r${String(i).padStart(3, "0")}`, t] as const));
    const back = await engine.query(pg ? `SELECT id, doc::text AS d FROM ${table}` : `SELECT id, doc AS d FROM ${table}`, []);
    const rows = new Map(back.map((x) => [String(x.id), parseJson(String(x.d))]));
    for (const expr of expressions) {
      const filter = compile(expr, { schema: schema as Schema | undefined, check: false, maxExpressions: Infinity });
      for (const sqliteFunction of pg ? [undefined] : [undefined, false as const]) {
        const name = `${table} ${JSON.stringify(expr.length > 120 ? `${expr.slice(0, 120)}…` : expr)}${sqliteFunction === false ? " (no RE2 function)" : ""}`;
        const t = toSQL(filter, { dialect: engine.dialect, ...(sqliteFunction === false ? { sqliteFunction } : {}) });
        let got: readonly Record<string, unknown>[];
        try {
          got = await engine.query(`SELECT id, (${t.where}) AS k FROM ${table}`, t.params);
        } catch (e) {
          r.failures.push(`${name}: SQL error: ${(e as Error).message}`);
          continue;
        }
        r.statements++;
        for (const g of got) {
          const id = String(g.id);
          let answer: string;
          try {
            answer = String(filter.evaluate(rows.get(id)));
          } catch (e) {
            if ((e as Error).name !== "FilterEvaluationError") throw e;
            answer = "error";
          }
          const kept = g.k === true || g.k === 1;
          r.rows++;
          if (!kept && answer !== "false") r.failures.push(`${name}: row ${id} ${stringifyJson(rows.get(id))} dropped, the filter gives ${answer}`);
          if (kept && t.exact && answer !== "true") r.failures.push(`${name}: exact, but row ${id} kept where the filter gives ${answer}`);
        }
      }
    }
  }
  return r;
}

/**
 * The storage recipe for integers beyond 2^53 (docs/sql.md): a job written with `stringifyJson`,
 * read back through `filterPage` (decoded with `parseJson`), equals the job written, and the filter
 * answers on it as on the job itself.
 */
export async function bigIntegerRoundTrip(engine: Engine): Promise<{ written: unknown[]; read: unknown[]; expected: boolean[]; got: string[] }> {
  const jobs = [
    { ID: "max", ModifyIndex: 18446744073709551615n, JobModifyIndex: 18446744073709551614n, Priority: 50 },
    { ID: "near", ModifyIndex: 18446744073709551614n, JobModifyIndex: 18446744073709551615n, Priority: 50 },
    { ID: "small", ModifyIndex: 7, Priority: 50 },
  ];
  await engine.load("big", jobs.map((j) => [j.ID, stringifyJson(j)] as const));
  const filter = compile("ModifyIndex == 18446744073709551615", { schema: schemas.job });
  const page = await filterPage({ query: engine.query, filter, dialect: engine.dialect, table: "big", perPage: 0 });
  const all = await filterPage({ query: engine.query, filter: compile("Priority == 50", { schema: schemas.job }), dialect: engine.dialect, table: "big", perPage: 0 });
  return { written: jobs, read: all.items, expected: jobs.map((j) => filter.evaluate(j)), got: page.keys };
}

/**
 * `filterPage` over keys that start with U+FEFF (a byte-order mark is text like any other): every
 * page's keys and next token keep it, and following the next tokens gives every row once, in key
 * order. sql.js and PGlite drop a leading U+FEFF from a text result: the key must not travel as one.
 */
export async function bomKeyedPages(engine: Engine): Promise<{ keys: string[]; expected: string[] }> {
  const ids = ["\ufeffa", "\ufeffb", "\ufeffc", "a", "b"];
  await engine.load("bom_keys", ids.map((id) => [id, stringifyJson({ Name: id })] as const));
  const expected = [...ids].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const filter = compile("Name is not empty");
  const keys: string[] = [];
  let token = "";
  for (let page = 0; page < ids.length + 1; page++) {
    const p = await filterPage({ query: engine.query, filter, dialect: engine.dialect, table: "bom_keys", perPage: 2, nextToken: token, chunkSize: 1 });
    keys.push(...p.keys);
    token = p.nextToken;
    if (token === "") break;
  }
  return { keys, expected };
}
