/**
 * The differential test shared by both engines: every case of the conformance corpus (both modes)
 * through SQL pushdown + in-process re-check, against the compiled filter over the full list read
 * back from the same table: the same items in the same order, the same next token, the same first
 * error.
 *
 * All data of a kind is one table (one row per distinct datum, keyed in corpus order). Consecutive
 * cases form a batch: one statement evaluates each of their translations on every row of a window
 * around their data, so each expression meets dozens of rows. For each case the page (random size,
 * random start token) from the candidate rows must equal the page of a full scan; and a sample of
 * cases runs through `filterPage` itself, following next tokens with small keyset chunks, in both
 * orders.
 */
import { compile, filterPage, parseJson, schemas, toSQL, type Filter, type Schema } from "../../src/index.js";
import { loadCorpus, type ConformanceCase } from "../support/corpus.js";
import { stringify, type Engine } from "./engines.js";
import { prng } from "../../bench/jobs.js";

const BATCH = 20;
const MARGIN = 5;

interface Outcome {
  keys: string[];
  next: string;
  error?: string;
}

type Row = readonly [string, unknown];

/** The server's paginator over an in-memory list, as the reference for one page. */
function fullScan(rows: readonly Row[], filter: Filter, token: string, perPage: number, reverse = false): Outcome {
  const keys: string[] = [];
  try {
    for (const [k, doc] of reverse ? [...rows].reverse() : rows) {
      if (token !== "" && (reverse ? k > token : k < token)) continue;
      if (!filter.evaluate(doc)) continue;
      if (perPage !== 0 && keys.length >= perPage) return { keys, next: k };
      keys.push(k);
    }
  } catch (e) {
    return { keys: [], next: "", error: describe(e) };
  }
  return { keys, next: "" };
}

function describe(e: unknown): string {
  const err = e as { name?: string; code?: string; message?: string };
  if (err.name !== "FilterEvaluationError") throw e;
  return `${err.code}: ${err.message}`;
}

export interface DifferentialResult {
  /** Cases that parse, each checked against its window. */
  cases: number;
  /** Cases that do not parse (toSQL must refuse them). */
  parseErrors: number;
  /** Row evaluations compared (cases × rows of their windows). */
  rowsCompared: number;
  /** Rows the SQL kept, over all cases. */
  candidates: number;
  /** Cases whose translation was exact. */
  exact: number;
  /** Cases also run through filterPage, and the pages they fetched. */
  paged: number;
  pages: number;
  disagreements: string[];
}

/** Runs the whole corpus on `engine`; every `pageEvery`-th case also through `filterPage`. */
export async function runDifferential(engine: Engine, pageEvery: number, seed = 14): Promise<DifferentialResult> {
  const corpus = loadCorpus();
  const r: DifferentialResult = { cases: 0, parseErrors: 0, rowsCompared: 0, candidates: 0, exact: 0, paged: 0, pages: 0, disagreements: [] };
  const random = prng(seed);
  const pg = engine.dialect === "postgres";
  for (const kind of ["json", "job", "deployment"] as const) {
    const cases = corpus.filter((c) => c.kind === kind);
    const schema: Schema | undefined = kind === "json" ? undefined : schemas[kind];
    const keyOf = new Map<string, string>();
    const caseKey = cases.map((c) => {
      const text = stringify(c.datum);
      let key = keyOf.get(text);
      if (key === undefined) keyOf.set(text, (key = `k${String(keyOf.size).padStart(5, "0")}`));
      return key;
    });
    const table = `corpus_${kind}`;
    await engine.load(table, [...keyOf].map(([text, key]) => [key, text] as const));
    // The full list as the database gives it back.
    const back = await engine.query(pg ? `SELECT id, doc::text AS d FROM ${table} ORDER BY id COLLATE "C"` : `SELECT id, doc AS d FROM ${table} ORDER BY id`, []);
    const rows: Row[] = back.map((x) => [String(x.id), parseJson(String(x.d))]);
    const position = new Map(rows.map(([k], i) => [k, i]));

    const live: { c: ConformanceCase; at: number; filter: Filter; where: string }[] = [];
    const params: unknown[] = [];
    let cursor = 0; // the newest row of the cases so far (rows are keyed in corpus order)
    let start = 0;
    const flush = async () => {
      if (live.length === 0) return;
      // A window of rows around the batch's new data, plus the rows of cases whose datum came earlier.
      const lo = Math.max(0, start - MARGIN);
      const hi = Math.min(rows.length - 1, cursor + MARGIN);
      const extra = [...new Set(live.map((x) => x.at).filter((at) => at < lo || at > hi))].sort((a, b) => a - b);
      const window = [...extra.filter((at) => at < lo), ...Array.from({ length: hi - lo + 1 }, (_, i) => lo + i), ...extra.filter((at) => at > hi)].map((at) => rows[at]!);
      const bounds = [rows[lo]![0], rows[hi]![0], ...extra.map((at) => rows[at]![0])];
      const place = (j: number) => (pg ? `$${params.length + j + 1}` : "?");
      const inList = extra.length === 0 ? "" : ` OR id IN (${extra.map((_, j) => place(2 + j)).join(", ")})`;
      const range = `(id >= ${place(0)} AND id <= ${place(1)}${inList})`;
      params.push(...bounds);
      const columns = live.map((x, i) => `(${x.where}) AS c${i}`).join(", ");
      // SQLite's positional placeholders follow the text: the columns' values first, then the bounds.
      const got = await engine.query(`SELECT id, ${columns} FROM ${table} WHERE ${range} ORDER BY id${pg ? ' COLLATE "C"' : ""}`, params);
      if (got.length !== window.length) throw new Error("window mismatch");
      live.forEach((x, i) => {
        const kept = new Set(got.filter((g) => g[`c${i}`] === true || g[`c${i}`] === 1).map((g) => String(g.id)));
        r.candidates += kept.size;
        r.rowsCompared += window.length;
        const perPage = [0, 1, 2, 3, 5, 10][Math.floor(random() * 6)]!;
        const roll = random();
        let token = roll < 0.5 ? "" : window[Math.floor(random() * window.length)]![0];
        if (roll > 0.8) token += "~";
        const expected = fullScan(window, x.filter, token, perPage);
        const pushed = fullScan(window.filter(([k]) => kept.has(k)), x.filter, token, perPage);
        if (JSON.stringify(pushed) !== JSON.stringify(expected)) {
          r.disagreements.push(`${x.c.id} ${kind} ${JSON.stringify(x.c.expr)} token=${JSON.stringify(token)} perPage=${perPage}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(pushed)}`);
        }
      });
      live.length = 0;
      params.length = 0;
      start = cursor + 1;
    };

    for (let i = 0; i < cases.length; i++) {
      const c = cases[i]!;
      if (c.expect === "parse-error") {
        r.parseErrors++;
        let threw = false;
        try {
          toSQL(c.expr, { dialect: engine.dialect, schema });
        } catch (e) {
          threw = (e as Error).name === "FilterSyntaxError";
        }
        if (!threw) r.disagreements.push(`${c.id}: a parse error translated`);
        continue;
      }
      r.cases++;
      const filter = compile(c.expr, { schema, check: false });
      const t = toSQL(filter, { dialect: engine.dialect, paramOffset: params.length });
      if (t.exact) r.exact++;
      params.push(...t.params);
      const at = position.get(caseKey[i]!)!;
      cursor = Math.max(cursor, at);
      live.push({ c, at, filter, where: t.where });
      if (r.cases % pageEvery === 0) await paged(c, filter, engine, table, rows, at, random, r);
      if (live.length === BATCH) await flush();
    }
    await flush();
  }
  return r;
}

/** One case through `filterPage`, following next tokens with small keyset chunks. */
async function paged(c: ConformanceCase, filter: Filter, engine: Engine, table: string, rows: readonly Row[], at: number, random: () => number, r: DifferentialResult): Promise<void> {
  r.paged++;
  const lo = Math.max(0, at - Math.floor(random() * 2 * MARGIN));
  const window = rows.slice(lo, lo + 2 * MARGIN);
  const [first, last] = [window[0]![0], window[window.length - 1]![0]];
  const perPage = [0, 1, 2, 3][Math.floor(random() * 4)]!;
  const reverse = random() < 0.3;
  let token = random() < 0.5 ? "" : window[Math.floor(random() * window.length)]![0];
  for (let page = 0; page < 4; page++) {
    const expected = fullScan(window, filter, token, perPage, reverse);
    let got: Outcome;
    try {
      const p = await filterPage({
        query: engine.query,
        filter,
        dialect: engine.dialect,
        table,
        nextToken: token,
        perPage,
        reverse,
        chunkSize: 1 + Math.floor(random() * 4),
        scope: (bind) => `id >= ${bind(first)} AND id <= ${bind(last)}`,
      });
      got = { keys: p.keys, next: p.nextToken };
    } catch (e) {
      got = { keys: [], next: "", error: describe(e) };
    }
    r.pages++;
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      r.disagreements.push(`filterPage ${c.id} ${c.kind} ${JSON.stringify(c.expr)} token=${JSON.stringify(token)} perPage=${perPage} reverse=${reverse}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
      return;
    }
    if (expected.error !== undefined || expected.next === "") return;
    token = expected.next;
  }
}
