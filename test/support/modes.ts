/**
 * What the property tests of evaluation share: the two modes (plain JSON, typed job records) with
 * their names and data, and a compile that tells a rejected text from a compiled one.
 */
import type fc from "fast-check";
import { compile, FilterError, schemas, type CompileOptions, type Filter, type Schema } from "../../src/index.js";
import { JOB_NAMES, NAMES, jobArb, jsonArb } from "./arbitraries.js";

export const MODES: readonly { readonly name: string; readonly names: readonly string[]; readonly data: fc.Arbitrary<unknown>; readonly schema: Schema | undefined }[] = [
  { name: "plain JSON", names: NAMES, data: jsonArb(NAMES), schema: undefined },
  { name: "typed job records", names: JOB_NAMES, data: jobArb, schema: schemas.job },
];

/**
 * The compiled filter, or undefined when compiling rejects the text: a syntax error (both would reject
 * it) or, with checks on, a type error for a part that fails on every record (the static-check laws
 * cover that).
 */
export function compiledOrRejected(text: string, options: CompileOptions): Filter | undefined {
  try {
    return compile(text, options);
  } catch (e) {
    if (!FilterError.is(e) || e.name === "FilterEvaluationError") throw e;
    return undefined;
  }
}

/** What a run answers: its answer, or everything its error says (class, code, message, span). */
export function outcome(run: () => boolean): unknown {
  try {
    return run();
  } catch (e) {
    if (!FilterError.is(e)) throw e;
    return { name: e.name, code: e.code, message: e.message, span: e.span };
  }
}
