import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseJson } from "../../src/index.js";

/** One case of the reference library's conformance corpus (test/fixtures/*.jsonl). */
export interface ConformanceCase {
  readonly id: number | string;
  readonly kind: "json" | "job" | "deployment" | "allocation" | "node" | "evaluation";
  readonly expr: string;
  readonly datum: unknown;
  readonly expect: "parse-error" | "eval-error" | "true" | "false";
  readonly goError?: string;
}

/**
 * Loads the corpus (by default the reference's recorded cases; `fidelity-cases.jsonl` holds the cases
 * of the reference's parse budget, depth, byte strings, placeholders and numbers, with answers derived
 * from its source), keeping integers beyond 2^53 exact (as the reference's Go decoder does).
 */
export function loadCorpus(files: readonly string[] = ["bexpr-cases.jsonl", "edge-cases.jsonl"]): ConformanceCase[] {
  const cases: ConformanceCase[] = [];
  for (const file of files) {
    const text = readFileSync(fileURLToPath(new URL(`../fixtures/${file}`, import.meta.url)), "utf8");
    for (const line of text.split("\n")) if (line.trim()) cases.push(parseJson(line) as ConformanceCase);
  }
  return cases;
}

/** The outcome of a thunk as the corpus writes it. */
export function outcome(run: () => boolean): string {
  try {
    return String(run());
  } catch (e) {
    const name = (e as Error).name;
    if (name === "FilterSyntaxError") return "parse-error";
    if (name === "FilterEvaluationError") return "eval-error";
    if (name === "FilterTypeError") return "type-error";
    throw e;
  }
}
