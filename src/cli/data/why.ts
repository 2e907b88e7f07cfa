/**
 * `--why` with `--data`: for each item, whether it matched and why (the library's `explain`): the
 * expression's code frame with a caret under each witness leaf and what the leaf read; with
 * `--format json`, one object an item with the witness.
 */
import { leafReading, renderCodeFrame, stringifyJson, type Explanation, type WitnessLeaf } from "../../index.js";
import type { Style } from "../style.js";
import type { RawItem } from "./split.js";

/** One leaf: its code frame, the caret line saying its outcome and what it read. */
function leafText(leaf: WitnessLeaf, expression: string, style: Style): string {
  const read = leafReading(leaf);
  const outcome = leaf.outcome === "error" ? style.error("error") : leaf.outcome ? style.ok("true") : style.warning("false");
  const note = `${outcome}${read === "" ? "" : leaf.read === undefined ? ` ${read}` : `: ${read}`}`;
  return renderCodeFrame(expression, leaf.span, note)
    .split("\n")
    .map((line) => `  ${line}`)
    .join("\n");
}

/** The text of one item's explanation. */
export function whyText(x: Explanation, item: RawItem, dataName: string, expression: string, style: Style): string {
  const verdict = x.result === true ? style.ok("match") : x.result === false ? "no match" : style.error(`error[${x.result.code}]: ${x.result.summary}`);
  const head = `${style.bold(`item ${item.index}`)} (${dataName}, line ${item.line}): ${verdict}`;
  return [head, ...x.witness.map((leaf) => leafText(leaf, expression, style))].join("\n");
}

/** The JSON line of one item's explanation (values exact: big integers as their digits). */
export function whyJson(x: Explanation, item: RawItem): string {
  const result = typeof x.result === "boolean" ? x.result : { error: { code: x.result.code, message: x.result.message } };
  return stringifyJson({ item: item.index, dataLine: item.line, result, witness: x.witness });
}
