/**
 * The law behind the translation, checked on an engine for single random rows: with `u`, `l`, `e`
 * evaluated in SQL and `r` the compiled answer on the row as the database gives it back,
 * - `u` false ⇒ `r` is false, without error;
 * - `l` true ⇒ `r` is true, without error;
 * - `e` false ⇒ no error.
 */
import fc from "fast-check";
import { interpret, parse, parseJson, print, schemas, type Expr, type MatchExpr } from "../../src/index.js";
import { ANY } from "../../src/semantics/schema.js";
import { toSQLPredicates, type ToSqlOptions } from "../../src/sql/translate.js";
import { exprArb, JOB_NAMES, jobArb, jsonArb, literalArb, NAMES, selectorArb } from "../support/arbitraries.js";
import { stringify, type Engine } from "./engines.js";

/** One row, its three predicates in SQL, and the in-process answer: a violation message or undefined. */
export async function checkRow(engine: Engine, ast: Expr, datum: unknown, typed: boolean, indexes: Pick<ToSqlOptions, "canonicalNumbers" | "textIndexed"> = {}): Promise<string | undefined> {
  const schema = typed ? schemas.job : undefined;
  // The rows are written with stringifyJson: their numbers are canonical.
  const p = toSQLPredicates({ ast, schema }, { dialect: engine.dialect, ...indexes });
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

/**
 * Typed job fields holding their own kind or another (a mistyped value reads as the zero value),
 * drawn from the same small pools as the filters' literals, so that equalities and memberships hold
 * often: the shapes jsonb containment decides (`doc @> …`, merged per conjunction).
 */
const CONTAINED_FIELDS: Record<string, readonly unknown[]> = {
  Status: ["running", "dead", "", "5", "true", 5, true, null, ["running"], { running: true }],
  Type: ["service", "batch", "", "Service"],
  Priority: [0, 50, 100, 1000, 50.5, -1, 1e21, "50", true, null],
  Stop: [true, false, "true", 1, null],
  Datacenters: [[], ["dc1"], ["dc2"], ["dc1", "dc2"], ["dc2", ""], [5, "dc1"], [["dc1"]], "dc1", null, { dc1: true }],
};

/** Each field present (one of its pool) or absent. */
const containedJobArb = fc
  .tuple(...Object.values(CONTAINED_FIELDS).map((vs) => fc.nat(vs.length)))
  .map((picks) => Object.fromEntries(Object.entries(CONTAINED_FIELDS).flatMap(([k, vs], i) => (picks[i]! < vs.length ? [[k, vs[picks[i]!]]] : []))));

const containedLeafArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom("Status", "Type"), fc.constantFrom("==", "!="), fc.constantFrom("running", "dead", "service", "", "Service", "5", "true")).map(([f, op, v]) => `${f} ${op} "${v}"`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("==", "!="), fc.constantFrom("0", "50", "100", "1000", "50.5", "-1", `"1e21"`, `"1e3"`, `"0x32"`, `"50.0000000000000001"`)).map(([op, v]) => `Priority ${op} ${v}`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom("==", "!="), fc.constantFrom("true", "false", "1", "T")).map(([op, v]) => `Stop ${op} ${v}`) },
  { weight: 3, arbitrary: fc.tuple(fc.constantFrom("dc1", "dc2", ""), fc.constantFrom("in", "in", "not in")).map(([v, op]) => `"${v}" ${op} Datacenters`) },
);

const { containedExpr } = fc.letrec<{ containedExpr: string }>((tie) => ({
  containedExpr: fc.oneof(
    { depthSize: "small", maxDepth: 2 },
    { weight: 4, arbitrary: containedLeafArb },
    { weight: 2, arbitrary: fc.array(tie("containedExpr"), { minLength: 2, maxLength: 3 }).map((xs) => `(${xs.join(" and ")})`) },
    { weight: 1, arbitrary: fc.array(tie("containedExpr"), { minLength: 2, maxLength: 3 }).map((xs) => `(${xs.join(" or ")})`) },
    { weight: 1, arbitrary: tie("containedExpr").map((x) => `not ${x}`) },
  ),
}));

/**
 * The laws (and exactness) for the shapes containment decides, with and without canonical numbers,
 * with and without text-indexed fields (their equalities compared as text), over typed jobs whose
 * fields often equal the literals, mistyped ones included.
 */
export async function containmentProperty(engine: Engine, numRuns: number): Promise<void> {
  await fc.assert(
    // Conjunctions at the top, where the tests merge: of any shape, or of a few plain tests.
    fc.asyncProperty(fc.oneof(fc.array(containedExpr, { minLength: 2, maxLength: 3 }), fc.array(containedLeafArb, { minLength: 2, maxLength: 3 })).map((xs) => xs.join(" and ")), containedJobArb, fc.boolean(), fc.constantFrom([], [["Status"]], [["Status"], ["Type"]]), async (source, datum, canonicalNumbers, textIndexed) => {
      const why = await checkRow(engine, parse(source), datum, true, { canonicalNumbers, textIndexed });
      if (why !== undefined) throw new Error(`${source} on ${stringify(datum)} (canonicalNumbers ${canonicalNumbers}, textIndexed ${JSON.stringify(textIndexed)}): ${why}`);
    }),
    { numRuns, seed: 40 },
  );
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
