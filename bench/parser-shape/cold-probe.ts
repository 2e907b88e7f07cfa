/**
 * One depth probe of the rule-per-level parser in a fresh process, for bench/parser-shape.ts: does
 * `construct(n)` parse with `pre` plain frames already on the stack, the process either cold (nothing
 * parsed before) or warmed for 300 ms on the ordinary logical corpus first (a server that has been answering
 * ordinary requests)? Prints "ok" or "overflow". Loads nothing of the library but the lexer's tokens.
 *
 *   node --import tsx bench/parser-shape/cold-probe.ts <construct> <n> <pre> <cold|corpus>
 */
import { CONSTRUCTS, logicalCorpus, withFrames, type Construct } from "./inputs.js";
import { parseLevels } from "./level-parser.js";

const [construct, n, pre, state] = process.argv.slice(2) as [Construct, string, string, "cold" | "corpus"];
const text = CONSTRUCTS[construct](Number(n));
if (state === "corpus") {
  // 300 ms of ordinary expressions (about 7,000 parses): the optimising compiler has had its chance.
  const corpus = logicalCorpus(200);
  const until = performance.now() + 300;
  while (performance.now() < until) for (const e of corpus) parseLevels(e);
}
const result = withFrames(Number(pre), () => {
  try {
    parseLevels(text);
    return "ok";
  } catch (e) {
    if (e instanceof RangeError) return "overflow";
    throw e;
  }
});
process.stdout.write(result);
