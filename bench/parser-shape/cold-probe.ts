/**
 * One depth probe in a fresh process, for bench/parser-shape.ts: does `construct(n)` parse with the
 * rule-per-level parser ("levels") or the project's `parse` ("project", budget and length limit off),
 * with `pre` plain frames already on the stack, the process either cold (nothing parsed before) or
 * warmed for 300 ms on the ordinary logical corpus first (a server that has been answering ordinary
 * requests)? Prints "ok" or "overflow" (a RangeError, or the project's `nesting-too-deep`).
 *
 *   node --import tsx bench/parser-shape/cold-probe.ts <levels|project> <construct> <n> <pre> <cold|corpus>
 */
import { CONSTRUCTS, logicalCorpus, withFrames, type Construct } from "./inputs.js";
import { parseLevels } from "./level-parser.js";

const [parser, construct, n, pre, state] = process.argv.slice(2) as ["levels" | "project", Construct, string, string, "cold" | "corpus"];
const text = CONSTRUCTS[construct](Number(n));
let parseWith: (text: string) => unknown = parseLevels;
if (parser === "project") {
  const { parse } = await import("../../src/index.js");
  parseWith = (t) => parse(t, { maxExpressions: Infinity, maxLength: Infinity });
}
if (state === "corpus") {
  // 300 ms of ordinary expressions (about 7,000 parses): the optimising compiler has had its chance.
  const corpus = logicalCorpus(200);
  const until = performance.now() + 300;
  while (performance.now() < until) for (const e of corpus) parseWith(e);
}
const result = withFrames(Number(pre), () => {
  try {
    parseWith(text);
    return "ok";
  } catch (e) {
    if (e instanceof RangeError || (e as { code?: unknown }).code === "nesting-too-deep") return "overflow";
    throw e;
  }
});
process.stdout.write(result);
