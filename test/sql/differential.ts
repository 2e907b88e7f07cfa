/**
 * The differential test shared by both engines: every case of the conformance corpus (both modes),
 * through `filterPage` (SQL pushdown + re-check), against the compiled filter over the full list
 * read back from the same table: the same items in the same order, the same next token, the same
 * first error. Each case's list is a window of the table's rows around its own datum (all data of a
 * kind in one table, one statement per page), paged with random page sizes and start tokens.
 */
import { compile, filterPage, parseJson, schemas, toSQL, type Filter, type Schema } from "../../src/index.js";
import { loadCorpus, type ConformanceCase } from "../support/corpus.js";
import { stringify, type Engine } from "./engines.js";

const WINDOW = 48;

interface Outcome {
  keys: string[];
  next: string;
  error?: string;
}

/** The server's paginator over an in-memory list, as the reference for one page. */
function fullScan(rows: readonly (readonly [string, unknown])[], filter: Filter, token: string, perPage: number): Outcome {
  const keys: string[] = [];
  try {
    for (const [k, doc] of rows) {
      if (token !== "" && k < token) continue;
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

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface DifferentialResult {
  cases: number;
  parseErrors: number;
  pages: number;
  candidates: number;
  rowsInWindows: number;
  exact: number;
  disagreements: string[];
}

/** Runs the whole corpus on `engine`. */
export async function runDifferential(engine: Engine, seed = 14): Promise<DifferentialResult> {
  const corpus = loadCorpus();
  const result: DifferentialResult = { cases: 0, parseErrors: 0, pages: 0, candidates: 0, rowsInWindows: 0, exact: 0, disagreements: [] };
  const random = prng(seed);
  for (const kind of ["json", "job", "deployment"] as const) {
    const cases = corpus.filter((c) => c.kind === kind);
    const schema: Schema | undefined = kind === "json" ? undefined : schemas[kind];
    // One row per distinct datum, keyed in corpus order.
    const keyOf = new Map<string, string>();
    for (const c of cases) {
      const text = stringify(c.datum);
      if (!keyOf.has(text)) keyOf.set(text, `k${String(keyOf.size).padStart(5, "0")}`);
    }
    const table = `corpus_${kind}`;
    await engine.load(table, [...keyOf].map(([text, key]) => [key, text] as const));
    // The full list as the database gives it back.
    const back = await engine.query(
      engine.dialect === "postgres" ? `SELECT id, doc::text AS d FROM ${table} ORDER BY id COLLATE "C"` : `SELECT id, doc AS d FROM ${table} ORDER BY id`,
      [],
    );
    const rows = back.map((r) => [String(r.id), parseJson(String(r.d))] as const);
    const position = new Map(rows.map(([k], i) => [k, i]));
    for (const c of cases) {
      if (c.expect === "parse-error") {
        result.parseErrors++;
        let threw = false;
        try {
          toSQL(c.expr, { dialect: engine.dialect, schema });
        } catch (e) {
          threw = (e as Error).name === "FilterSyntaxError";
        }
        if (!threw) result.disagreements.push(`${c.id}: a parse error translated`);
        continue;
      }
      result.cases++;
      await runCase(c, schema, engine, table, rows, position.get(keyOf.get(stringify(c.datum))!)!, random, result);
    }
  }
  return result;
}

async function runCase(
  c: ConformanceCase,
  schema: Schema | undefined,
  engine: Engine,
  table: string,
  rows: readonly (readonly [string, unknown])[],
  at: number,
  random: () => number,
  result: DifferentialResult,
): Promise<void> {
  const filter = compile(c.expr, { schema, check: false });
  const lo = Math.max(0, at - Math.floor(random() * WINDOW));
  const window = rows.slice(lo, lo + WINDOW);
  result.rowsInWindows += window.length;
  const [first, last] = [window[0]![0], window[window.length - 1]![0]];
  const perPage = [0, 1, 2, 3, 5, 10][Math.floor(random() * 6)]!;
  const r = random();
  // From the start, from a key in the window, or from a token between two keys.
  let token = r < 0.5 ? "" : window[Math.floor(random() * window.length)]![0];
  if (r > 0.8) token += "~";
  for (let page = 0; page < 4; page++) {
    const expected = fullScan(window, filter, token, perPage);
    let got: Outcome;
    try {
      const p = await filterPage({
        query: engine.query,
        filter,
        dialect: engine.dialect,
        table,
        nextToken: token,
        perPage,
        chunkSize: 1 + Math.floor(random() * 8),
        scope: (bind) => `id >= ${bind(first)} AND id <= ${bind(last)}`,
      });
      got = { keys: p.keys, next: p.nextToken };
      result.candidates += p.candidates;
      if (p.exact) result.exact++;
    } catch (e) {
      got = { keys: [], next: "", error: describe(e) };
    }
    result.pages++;
    if (JSON.stringify(got) !== JSON.stringify(expected)) {
      result.disagreements.push(`${c.id} ${c.kind} ${JSON.stringify(c.expr)} token=${JSON.stringify(token)} perPage=${perPage}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`);
      return;
    }
    if (expected.error !== undefined || expected.next === "") return;
    token = expected.next;
  }
}
