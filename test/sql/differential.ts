/**
 * The differential test shared by both engines: every case of every conformance file
 * (test/fixtures/*.jsonl, found on disk) through SQL pushdown + in-process re-check, against the
 * compiled filter over the full list read back from the same table.
 *
 * All data of a kind is one table (one row per distinct datum, keyed in corpus order). Consecutive
 * cases form a batch: one statement evaluates each of their translations on every row of a window
 * around their data, so each expression meets dozens of rows. For each case:
 * - soundness, row by row: a row the SQL drops is one on which the compiled filter is false without
 *   error (and a row an exact translation keeps is one on which it is true);
 * - the page (random size, random start token) from the candidate rows equals the page of a full
 *   scan: the same items in the same order, the same next token, the same first error;
 * - an SQL error fails the case (the batch is re-run case by case to name it);
 * and a sample of cases runs through `filterPage` itself, following next tokens with small keyset
 * chunks (half of them also in key ranges of a few rows), in both orders.
 */
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile, filterPage, parseJson, schemas, toSQL, type Filter, type Schema } from "../../src/index.js";
import { loadCorpus, type ConformanceCase } from "../support/corpus.js";
import { storable, stringify, type Engine } from "./engines.js";
import { prng } from "../../bench/jobs.js";

/** Every conformance file, as found on disk (new files join without a change here). */
export function corpusFiles(): string[] {
  return readdirSync(fileURLToPath(new URL("../fixtures/", import.meta.url)))
    .filter((f) => f.endsWith(".jsonl"))
    .sort();
}

/** Every case of every conformance file. */
export function loadAllCases(): ConformanceCase[] {
  return loadCorpus(corpusFiles());
}

const BATCH = 20;
const MARGIN = 5;

interface Outcome {
  keys: string[];
  next: string;
  error?: string;
}

type Row = readonly [string, unknown];

/** The compiled filter's answer on one row: true, false, or the error it raises (its code and words). */
type Answer = boolean | { readonly error: string };

/** The server's paginator over an in-memory list, as the reference for one page. */
function fullScan(rows: readonly Row[], answer: (row: Row) => Answer, token: string, perPage: number, reverse = false): Outcome {
  const keys: string[] = [];
  for (const row of reverse ? [...rows].reverse() : rows) {
    const k = row[0];
    if (token !== "" && (reverse ? k > token : k < token)) continue;
    const a = answer(row);
    if (typeof a !== "boolean") return { keys: [], next: "", error: a.error };
    if (!a) continue;
    if (perPage !== 0 && keys.length >= perPage) return { keys, next: k };
    keys.push(k);
  }
  return { keys, next: "" };
}

/** The filter's answers, each worked out once. */
function answers(filter: Filter): (row: Row) => Answer {
  const seen = new Map<Row, Answer>();
  return (row) => {
    let a = seen.get(row);
    if (a === undefined) {
      try {
        a = filter.evaluate(row[1]);
      } catch (e) {
        a = { error: describe(e) };
      }
      seen.set(row, a);
    }
    return a;
  };
}

function describe(e: unknown): string {
  const err = e as { name?: string; code?: string; message?: string };
  if (err.name !== "FilterEvaluationError") throw e;
  return `${err.code}: ${err.message}`;
}

export interface DifferentialResult {
  /** Cases that parse, each checked against its window. */
  cases: number;
  /** Of them, cases whose own datum the engine cannot store (checked against the rows around). */
  unstorable: number;
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
export async function runDifferential(engine: Engine, pageEvery: number, corpus: readonly ConformanceCase[] = loadAllCases(), seed = 14): Promise<DifferentialResult> {
  // Every row of every window is evaluated, and most corpus expressions fail on most data: the
  // errors' stack traces are not read here, and capturing them dominated the run.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return await differential(engine, pageEvery, corpus, seed);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

async function differential(engine: Engine, pageEvery: number, corpus: readonly ConformanceCase[], seed: number): Promise<DifferentialResult> {
  const r: DifferentialResult = { cases: 0, unstorable: 0, parseErrors: 0, rowsCompared: 0, candidates: 0, exact: 0, paged: 0, pages: 0, disagreements: [] };
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
    await engine.load(table, [...keyOf].filter(([text]) => storable(engine.dialect, text)).map(([text, key]) => [key, text] as const));
    // The full list as the database gives it back.
    const back = await engine.query(pg ? `SELECT id, doc::text AS d FROM ${table} ORDER BY id COLLATE "C"` : `SELECT id, doc AS d FROM ${table} ORDER BY id`, []);
    const rows: Row[] = back.map((x) => [String(x.id), parseJson(String(x.d))]);
    const position = new Map(rows.map(([k], i) => [k, i]));

    const live: { c: ConformanceCase; at: number; filter: Filter; where: string; params: unknown[]; exact: boolean }[] = [];
    let cursor = 0; // the newest row of the cases so far (rows are keyed in corpus order)
    let start = 0;
    /** One statement: the translations of `batch` as columns, over the rows `ids` (a range and a list). */
    const evaluate = async (batch: typeof live, bounds: readonly string[], extra: number) => {
      const params: unknown[] = [];
      const columns = batch
        .map((x, i) => {
          // Each translation numbered after the values before it (PostgreSQL: translated so when the
          // case joined the batch; alone, again); SQLite's `?` follow the text.
          const t = pg && batch.length === 1 ? toSQL(x.filter, { dialect: "postgres" }) : x;
          params.push(...t.params);
          return `(${t.where}) AS c${i}`;
        })
        .join(", ");
      const place = (j: number) => (pg ? `$${params.length + j + 1}` : "?");
      const inList = extra === 0 ? "" : ` OR id IN (${Array.from({ length: extra }, (_, j) => place(2 + j)).join(", ")})`;
      const range = `(id >= ${place(0)} AND id <= ${place(1)}${inList})`;
      return engine.query(`SELECT id, ${columns} FROM ${table} WHERE ${range} ORDER BY id${pg ? ' COLLATE "C"' : ""}`, [...params, ...bounds]);
    };
    const flush = async () => {
      if (live.length === 0) return;
      // A window of rows around the batch's new data, plus the rows of cases whose datum came earlier.
      const lo = Math.max(0, start - MARGIN);
      const hi = Math.min(rows.length - 1, cursor + MARGIN);
      const extra = [...new Set(live.map((x) => x.at).filter((at) => at < lo || at > hi))].sort((a, b) => a - b);
      const window = [...extra.filter((at) => at < lo), ...Array.from({ length: hi - lo + 1 }, (_, i) => lo + i), ...extra.filter((at) => at > hi)].map((at) => rows[at]!);
      const bounds = [rows[lo]![0], rows[hi]![0], ...extra.map((at) => rows[at]![0])];
      let results: (readonly Record<string, unknown>[] | string)[];
      try {
        const got = await evaluate(live, bounds, extra.length);
        results = live.map((_, i) => got.map((g) => ({ id: g.id, c0: g[`c${i}`] })));
      } catch {
        // Which case: each alone.
        results = [];
        for (const x of live) {
          try {
            results.push(await evaluate([x], bounds, extra.length));
          } catch (e) {
            results.push((e as Error).message);
          }
        }
      }
      live.forEach((x, i) => {
        const got = results[i]!;
        const name = `${x.c.id} ${kind} ${JSON.stringify(x.c.expr.length > 200 ? `${x.c.expr.slice(0, 200)}…` : x.c.expr)}`;
        if (typeof got === "string") {
          r.disagreements.push(`${name}: SQL error: ${got}`);
          return;
        }
        if (got.length !== window.length) throw new Error("window mismatch");
        const kept = new Set(got.filter((g) => g.c0 === true || g.c0 === 1).map((g) => String(g.id)));
        r.candidates += kept.size;
        r.rowsCompared += window.length;
        // Soundness, row by row.
        const answer = answers(x.filter);
        for (const row of window) {
          const [k, doc] = row;
          const a = answer(row);
          if (!kept.has(k) && a !== false) r.disagreements.push(`${name}: row ${k} dropped, the filter gives ${JSON.stringify(a)} on ${stringify(doc)}`);
          if (kept.has(k) && x.exact && a !== true) r.disagreements.push(`${name}: exact, but row ${k} kept where the filter gives ${JSON.stringify(a)}`);
        }
        const perPage = [0, 1, 2, 3, 5, 10][Math.floor(random() * 6)]!;
        const roll = random();
        let token = roll < 0.5 ? "" : window[Math.floor(random() * window.length)]![0];
        if (roll > 0.8) token += "~";
        const expected = fullScan(window, answer, token, perPage);
        const pushed = fullScan(window.filter(([k]) => kept.has(k)), answer, token, perPage);
        if (JSON.stringify(pushed) !== JSON.stringify(expected)) {
          r.disagreements.push(`${name} token=${JSON.stringify(token)} perPage=${perPage}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(pushed)}`);
        }
      });
      live.length = 0;
      start = cursor + 1;
    };

    for (let i = 0; i < cases.length; i++) {
      const c = cases[i]!;
      let filter: Filter;
      try {
        filter = compile(c.expr, { schema, check: false });
      } catch (e) {
        if ((e as Error).name !== "FilterSyntaxError") throw e;
        r.parseErrors++;
        let threw = false;
        try {
          toSQL(c.expr, { dialect: engine.dialect, schema });
        } catch (err) {
          threw = (err as Error).name === "FilterSyntaxError";
        }
        if (!threw) r.disagreements.push(`${c.id}: a parse error translated`);
        continue;
      }
      r.cases++;
      const t = toSQL(filter, { dialect: engine.dialect, paramOffset: live.reduce((n, x) => n + x.params.length, 0) });
      if (t.exact) r.exact++;
      const at = position.get(caseKey[i]!);
      if (at === undefined) r.unstorable++;
      else cursor = Math.max(cursor, at);
      live.push({ c, at: at ?? cursor, filter, where: t.where, params: t.params, exact: t.exact });
      if (r.cases % pageEvery === 0) await paged(c, filter, engine, table, rows, at ?? cursor, random, r);
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
  const answer = answers(filter);
  for (let page = 0; page < 4; page++) {
    const expected = fullScan(window, answer, token, perPage, reverse);
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
        // Half the pages in key ranges of a few rows (each statement passes over that many at most).
        ...(random() < 0.5 ? { rangeRows: 1 + Math.floor(random() * 4) } : {}),
      });
      got = { keys: p.keys, next: p.nextToken };
    } catch (e) {
      if ((e as Error).name !== "FilterEvaluationError") {
        r.disagreements.push(`filterPage ${c.id} ${c.kind}: ${(e as Error).message}`);
        return;
      }
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
