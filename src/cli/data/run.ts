/**
 * `--data`: streams the items through the compiled filter, writing the matching ones (their own
 * text, compacted to one line) or counting them. Stops at the first evaluation error, as the server
 * does: the reference fails the whole request.
 */
import { FilterEvaluationError, parseJson, type Explanation, type Filter } from "../../index.js";
import type { BufferedWriter } from "../io.js";
import { compactJson } from "./json-text.js";
import type { DataSource } from "./source.js";
import { DataError, JsonItemSplitter, type RawItem } from "./split.js";

/** How a run over the data ended. */
export type DataOutcome =
  | { readonly kind: "done"; readonly items: number; readonly matched: number }
  | { readonly kind: "evaluation-error"; readonly error: FilterEvaluationError; readonly item: RawItem }
  /** The data is not JSON: `item` is the item that does not parse, if the structure was fine. */
  | { readonly kind: "data-error"; readonly message: string; readonly line: number; readonly column: number; readonly item: RawItem | undefined };

/**
 * Runs `filter` over the items of `source`; matching items go to `out` unless `count`. With `why`, each
 * item's explanation goes to `why` instead (`--why`).
 */
export async function runData(filter: Filter, source: DataSource, out: BufferedWriter, count: boolean, why?: (x: Explanation, item: RawItem) => Promise<void>): Promise<DataOutcome> {
  const splitter = new JsonItemSplitter();
  let batch: RawItem[] = [];
  const collect = (item: RawItem) => batch.push(item);
  let matched = 0;

  /** Evaluates the collected items; returns an outcome when the run must stop. */
  const drain = async (): Promise<DataOutcome | undefined> => {
    const items = batch;
    batch = [];
    for (const item of items) {
      let value: unknown;
      try {
        value = parseJson(item.text);
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        return { kind: "data-error", message: `item ${item.index} is not valid JSON: ${reason}`, line: item.line, column: item.column, item };
      }
      let hit: boolean;
      if (why !== undefined) {
        const x = filter.explain(value);
        await why(x, item);
        if (x.result instanceof FilterEvaluationError) return { kind: "evaluation-error", error: x.result, item };
        if (x.result) matched++;
        continue;
      }
      try {
        hit = filter.evaluate(value);
      } catch (e) {
        if (e instanceof FilterEvaluationError) return { kind: "evaluation-error", error: e, item };
        throw e;
      }
      if (!hit) continue;
      matched++;
      if (!count) await out.write(`${compactJson(item.text)}\n`);
    }
    return undefined;
  };

  try {
    for await (const chunk of source.chunks) {
      splitter.push(chunk, collect);
      const stop = await drain();
      if (stop) return stop;
      // Matches go out as the input comes in (`tail -f log | filter-check --data - ...`).
      await out.flush();
    }
    splitter.end(collect);
  } catch (e) {
    if (!(e instanceof DataError)) throw e;
    const stop = await drain();
    if (stop) return stop;
    return { kind: "data-error", message: e.summary, line: e.line, column: e.column, item: undefined };
  }
  const stop = await drain();
  if (stop) return stop;
  return { kind: "done", items: splitter.items, matched };
}
