/**
 * A filter's plan over a table: the expression's `and`/`or`/`not` tree, each largest part that reads
 * one selector path (outside collections) decided per distinct end of that path's walk (`keys.ts`), by
 * the library's own compiled evaluation of the part on the first row that has that end; everything
 * else (collections, rows without a key) evaluated row by row on the rows still in play. States are
 * the reference's short-circuit evaluation, left to right: an operand is only evaluated on the rows
 * whose answer still depends on it, and an error in an evaluated operand is the whole row's error.
 */
import { compileAst } from "../evaluate/compile.js";
import type { FilterSettings } from "../evaluate/settings.js";
import { FilterEvaluationError } from "../errors.js";
import { selectorKeys } from "../semantics/path.js";
import type { Expr, MatchOp } from "../syntax/ast.js";
import { NO_CODE, type Column } from "./column.js";

/** A row's state under a part of the expression. */
export const FALSE = 0;
export const TRUE = 1;
export const ERROR = 2;

type Run = (row: unknown) => boolean;

/** A part decided per distinct end of one path. */
interface PathNode {
  readonly kind: "path";
  readonly keys: readonly string[];
  /** Every test of the part reads nothing of a map but its keys (see `Column`). */
  readonly mapsByKeys: boolean;
  readonly run: Run;
  /** Per column generation: the state of each code (-1: not yet known). */
  answers: Int8Array;
  generation: number;
}

/** A part evaluated row by row: a collection, or a filter that has no plan. */
interface RowsNode {
  readonly kind: "rows";
  readonly run: Run;
}

export type PlanNode =
  | { readonly kind: "and" | "or"; readonly operands: readonly PlanNode[] }
  | { readonly kind: "not"; readonly operand: PlanNode }
  | PathNode
  | RowsNode;

/** Nesting past which the plan gives up (the whole filter then runs row by row). */
const MAX_NESTING = 400;

/** Operators that read nothing of a map but its own keys. */
const KEY_TESTS: ReadonlySet<MatchOp> = new Set(["in", "not in", "is empty", "is not empty", "is nil", "is not nil"]);

/**
 * The one path every match of `e` reads, outside collections, and whether those matches read only the
 * keys of a map there; undefined when it reads none, several or a collection.
 */
function onePath(e: Expr): { keys: string[]; mapsByKeys: boolean } | undefined {
  let found: string[] | undefined;
  let key: string | undefined;
  let mapsByKeys = true;
  const stack: Expr[] = [e];
  while (stack.length > 0) {
    const x = stack.pop()!;
    switch (x.kind) {
      case "collection":
        return undefined;
      case "not":
        stack.push(x.operand);
        break;
      case "and":
      case "or":
        stack.push(...x.operands);
        break;
      case "match": {
        if (!KEY_TESTS.has(x.op)) mapsByKeys = false;
        const keys = selectorKeys(x.selector);
        const k = JSON.stringify(keys);
        if (key === undefined) [found, key] = [keys, k];
        else if (k !== key) return undefined;
      }
    }
  }
  return found && { keys: found, mapsByKeys };
}

/** The plan of `ast` (from `source`), or undefined when it nests too deep to plan. */
export function planFilter(ast: Expr, source: string, settings: FilterSettings): PlanNode | undefined {
  const program = (e: Expr): Run => compileAst(e, source, settings.root, settings.options).run;
  const plan = (e: Expr, depth: number): PlanNode | undefined => {
    if (depth > MAX_NESTING) return undefined;
    const path = onePath(e);
    if (path !== undefined) return { kind: "path", ...path, run: program(e), answers: new Int8Array(0), generation: -1 };
    switch (e.kind) {
      case "collection":
      case "match":
        return { kind: "rows", run: program(e) };
      case "not": {
        const operand = plan(e.operand, depth + 1);
        return operand && { kind: "not", operand };
      }
      case "and":
      case "or": {
        const operands: PlanNode[] = [];
        for (const o of e.operands) {
          const p = plan(o, depth + 1);
          if (p === undefined) return undefined;
          operands.push(p);
        }
        return { kind: e.kind, operands };
      }
    }
  };
  return plan(ast, 0);
}

/** A row's state under `run`: its answer, or ERROR for an evaluation error. */
function stateOf(run: Run, row: unknown): number {
  try {
    return run(row) ? TRUE : FALSE;
  } catch (e) {
    if (e instanceof FilterEvaluationError) return ERROR;
    throw e;
  }
}

/** What a plan is evaluated over. */
export interface TableView {
  readonly rows: readonly unknown[];
  /** The path's column, or undefined when the table keeps none for it (its parts then run row by row). */
  column(keys: readonly string[], mapsByKeys: boolean): Column | undefined;
}

/**
 * A part's column codes and kept answers (sized for the column's codes, void after a rebuild), or
 * undefined when it runs row by row: collections, and paths the table keeps no column for.
 */
function decided(node: PathNode | RowsNode, table: TableView): { codes: Int32Array; answers: Int8Array } | undefined {
  if (node.kind === "rows") return undefined;
  const column = table.column(node.keys, node.mapsByKeys);
  if (column === undefined) return undefined;
  if (node.generation !== column.generation) {
    node.generation = column.generation;
    node.answers = new Int8Array(0);
  }
  if (node.answers.length < column.size) {
    const grown = new Int8Array(Math.max(16, column.size, 2 * node.answers.length)).fill(-1);
    grown.set(node.answers);
    node.answers = grown;
  }
  return { codes: column.codes, answers: node.answers };
}

/** The state under `not`: an error stays one. */
const negate = (s: number): number => (s === ERROR ? ERROR : s === TRUE ? FALSE : TRUE);

/** `evaluateRange` of a part decided per code: each code's state evaluated on its first row, then kept. */
function decideRange(
  codes: Int32Array,
  answers: Int8Array,
  run: Run,
  rows: readonly unknown[],
  from: number,
  out: Uint8Array,
  open: Int32Array | null,
  count: number,
  keep: Int32Array | null,
  keepIf: number,
): number {
  let kept = 0;
  for (let t = 0; t < count; t++) {
    const j = open === null ? t : open[t]!;
    const code = codes[from + j]!;
    let s = code === NO_CODE ? -1 : answers[code]!;
    if (s < 0) {
      s = stateOf(run, rows[from + j]);
      if (code !== NO_CODE) answers[code] = s;
    }
    out[j] = s;
    if (keep !== null && s === keepIf) keep[kept++] = j;
  }
  return kept;
}

/**
 * The states of rows [from, from + out.length) under `node`, into `out`, part by part, each part in a
 * tight loop over the rows still open: `open` lists the rows asked about (their offsets from `from`,
 * the first `count` entries, ascending; every row when null), and only theirs are written. The same
 * states, evaluated in the same places, as `bindPlan`'s function row by row.
 *
 * With `keep`, the rows (of those asked) whose state is `keepIf` are also listed there, in order, and
 * their number returned: what an `and` or `or` asks its next operand about. `keep` may be `open`
 * itself (it is written behind where it is read).
 */
export function evaluateRange(
  node: PlanNode,
  table: TableView,
  from: number,
  out: Uint8Array,
  open: Int32Array | null = null,
  count = out.length,
  keep: Int32Array | null = null,
  keepIf = TRUE,
): number {
  const rows = table.rows;
  let kept = 0;
  switch (node.kind) {
    case "rows":
    case "path": {
      const columnar = decided(node, table);
      if (columnar !== undefined) return decideRange(columnar.codes, columnar.answers, node.run, rows, from, out, open, count, keep, keepIf);
      for (let t = 0; t < count; t++) {
        const j = open === null ? t : open[t]!;
        const s = (out[j] = stateOf(node.run, rows[from + j]));
        if (s === keepIf && keep !== null) keep[kept++] = j;
      }
      return kept;
    }
    case "not": {
      // The operand is asked without `keep`: `keep` may be `open` itself, which the loop below reads
      // again (an operand that listed its kept rows there overwrote the rows asked about).
      evaluateRange(node.operand, table, from, out, open, count);
      for (let t = 0; t < count; t++) {
        const j = open === null ? t : open[t]!;
        const s = (out[j] = negate(out[j]!));
        if (keep !== null && s === keepIf) keep[kept++] = j;
      }
      return kept;
    }
    case "and":
    case "or": {
      // A row's state is its first operand state that is not `going` (TRUE for `and`, FALSE for
      // `or`), else `going`: each operand is asked about the rows the ones before it left at `going`.
      const going = node.kind === "and" ? TRUE : FALSE;
      const operands = node.operands;
      const last = operands.length - 1;
      if (last === 0) return evaluateRange(operands[0]!, table, from, out, open, count, keep, keepIf);
      const still = new Int32Array(count);
      let m = evaluateRange(operands[0]!, table, from, out, open, count, still, going);
      for (let k = 1; k < last && m > 0; k++) m = evaluateRange(operands[k]!, table, from, out, still, m, still, going);
      if (m > 0) evaluateRange(operands[last]!, table, from, out, still, m);
      if (keep !== null) {
        for (let t = 0; t < count; t++) {
          const j = open === null ? t : open[t]!;
          if (out[j] === keepIf) keep[kept++] = j;
        }
      }
      return kept;
    }
  }
}

/** A row's state under a part of the plan, by row number. */
export type RowState = (row: number) => number;

/**
 * The plan bound to the table as it is now (its columns' codes and each part's kept answers): a
 * function of a row number giving the row's state, evaluating operands left to right and stopping
 * where the reference stops. Bind again after the table changes.
 */
export function bindPlan(node: PlanNode, table: TableView): RowState {
  const rows = table.rows;
  switch (node.kind) {
    case "rows":
    case "path": {
      const { run } = node;
      const columnar = decided(node, table);
      if (columnar === undefined) return (r) => stateOf(run, rows[r]);
      const { codes, answers } = columnar;
      return (r) => {
        const code = codes[r]!;
        if (code === NO_CODE) return stateOf(run, rows[r]);
        const known = answers[code]!;
        return known >= 0 ? known : (answers[code] = stateOf(run, rows[r]));
      };
    }
    case "not": {
      const inner = bindPlan(node.operand, table);
      return (r) => negate(inner(r));
    }
    case "and":
    case "or": {
      // `and` goes on while operands are TRUE, `or` while they are FALSE; anything else decides.
      const going = node.kind === "and" ? TRUE : FALSE;
      const ops = node.operands.map((o) => bindPlan(o, table));
      if (ops.length === 2) {
        const [a, b] = ops as [RowState, RowState];
        return (r) => {
          const s = a(r);
          return s === going ? b(r) : s;
        };
      }
      return (r) => {
        for (let i = 0; i < ops.length; i++) {
          const s = ops[i]!(r);
          if (s !== going) return s;
        }
        return going;
      };
    }
  }
}
