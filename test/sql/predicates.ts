/**
 * The law behind the translation, checked on an engine for single random rows: with `u`, `l`, `e`
 * evaluated in SQL and `r` the compiled answer on the row as the database gives it back,
 * - `u` false ⇒ `r` is false, without error;
 * - `l` true ⇒ `r` is true, without error;
 * - `e` false ⇒ no error.
 */
import fc from "fast-check";
import { interpret, parseJson, print, schemas, type Expr, type MatchExpr } from "../../src/index.js";
import { ANY } from "../../src/semantics/schema.js";
import { toSQLPredicates } from "../../src/sql/translate.js";
import { exprArb, JOB_NAMES, jobArb, jsonArb, literalArb, NAMES, selectorArb } from "../support/arbitraries.js";
import { stringify, type Engine } from "./engines.js";

/** One row, its three predicates in SQL, and the in-process answer: a violation message or undefined. */
export async function checkRow(engine: Engine, ast: Expr, datum: unknown, typed: boolean): Promise<string | undefined> {
  const schema = typed ? schemas.job : undefined;
  const p = toSQLPredicates({ ast, schema }, { dialect: engine.dialect });
  const params = [...p.params, stringify(datum)];
  const doc = engine.dialect === "postgres" ? `$${params.length}::jsonb` : "?";
  const text = engine.dialect === "postgres" ? "doc::text" : "doc";
  const sql = `SELECT (${p.u}) AS u, (${p.l}) AS l, (${p.e}) AS e, ${text} AS d FROM (SELECT ${doc} AS doc) AS t`;
  const [row] = await engine.query(sql, params);
  const truth = (v: unknown) => v === true || v === 1;
  const isBool = (v: unknown) => v === true || v === false || v === 0 || v === 1;
  if (!isBool(row!.u) || !isBool(row!.l) || !isBool(row!.e)) return `a predicate is NULL: ${JSON.stringify(row)}`;
  const source = print(ast);
  let r: boolean | "error";
  try {
    r = interpret(ast, source, parseJson(String(row!.d)), typed ? schemas.job : ANY);
  } catch (e) {
    if ((e as Error).name !== "FilterEvaluationError") throw e;
    r = "error";
  }
  const [u, l, e] = [truth(row!.u), truth(row!.l), truth(row!.e)];
  if (!u && r !== false) return `u false but the filter gives ${r}`;
  if (l && r !== true) return `l true but the filter gives ${r}`;
  if (!e && r === "error") return "e false but the filter fails";
  if (p.exact && u !== (r === true)) return `exact but u=${u} and the filter gives ${r}`;
  return undefined;
}

/** The property over JSON data and over typed jobs. */
export async function predicateProperty(engine: Engine, numRuns: number): Promise<void> {
  for (const typed of [false, true]) {
    const names = typed ? JOB_NAMES : NAMES;
    await fc.assert(
      fc.asyncProperty(exprArb(names, 3), typed ? jobArb : jsonArb(names), async (ast, datum) => {
        const why = await checkRow(engine, ast, datum, typed);
        if (why !== undefined) throw new Error(`${print(ast)} on ${stringify(datum)}: ${why}`);
      }),
      { numRuns, seed: 14 },
    );
  }
}

const SPAN = { start: 0, end: 0 };

/**
 * Long `and`/`or` chains: runs of `S == v` (`S != v`) on one selector, which translate as one
 * membership test, mixed with random expressions; up to hundreds of operands, so that the nested
 * predicates (an and-chain's `u`, an or-chain's `l` and `e`) are cut at the bounds. Under `not` and
 * inside `any` half the time, so that `l` and `e` are read too.
 */
function chainArb(names: readonly string[]): fc.Arbitrary<Expr> {
  const run = fc
    .tuple(selectorArb(names), fc.constantFrom<"==" | "!=">("==", "!="), fc.array(literalArb(names), { minLength: 2, maxLength: 12 }))
    .map(([selector, op, values]) => values.map((value): MatchExpr => ({ kind: "match", op, selector, value, opSpan: SPAN, span: SPAN })));
  const piece = fc.oneof({ weight: 2, arbitrary: run }, { weight: 3, arbitrary: exprArb(names, 2).map((e) => [e]) });
  const chain = fc
    .tuple(fc.constantFrom<"and" | "or">("and", "or"), fc.array(piece, { minLength: 1, maxLength: 60 }))
    .map(([kind, pieces]): Expr => {
      const operands = pieces.flat();
      return operands.length === 1 ? operands[0]! : { kind, operands, span: SPAN };
    });
  return fc.tuple(chain, fc.constantFrom("plain", "not", "any")).map(([e, wrap]): Expr => {
    if (wrap === "not") return { kind: "not", operand: e, span: SPAN };
    if (wrap === "any") {
      const selector = { kind: "selector" as const, form: "path" as const, segments: [{ kind: "name" as const, name: names[0]!, span: SPAN }], raw: "", span: SPAN };
      return { kind: "collection", quantifier: "any", selector, binding: { mode: "default", name: "v" }, body: e, span: SPAN };
    }
    return e;
  });
}

/** The laws on long chains, over JSON data and over typed jobs. */
export async function chainProperty(engine: Engine, numRuns: number): Promise<void> {
  for (const typed of [false, true]) {
    const names = typed ? JOB_NAMES : NAMES;
    await fc.assert(
      fc.asyncProperty(chainArb(names), typed ? jobArb : jsonArb(names), async (ast, datum) => {
        const why = await checkRow(engine, ast, datum, typed);
        if (why !== undefined) throw new Error(`${print(ast).slice(0, 2000)} on ${stringify(datum)}: ${why}`);
      }),
      { numRuns, seed: 14 },
    );
  }
}
