/**
 * What the playground pays per keystroke: `diagnose` (parse, static checks, lints, and trying each
 * candidate fix) on the six benchmark queries as written, and with a typical mistake in each. Results
 * go to bench/results/<version>/diagnose.json; a summary is printed.
 *
 *   npx tsx bench/diagnose.ts            (about half a minute)
 *   npx tsx bench/diagnose.ts --quick
 */
import b from "benny";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { diagnose, schemas } from "../src/index.js";
import { QUERIES } from "./queries.js";

const quick = process.argv.includes("--quick");
const options = { minSamples: quick ? 5 : 20, maxTime: quick ? 0.3 : 1 };
const version = (JSON.parse(readFileSync(fileURLToPath(new URL("../package.json", import.meta.url)), "utf8")) as { version: string }).version;

/** A mistake people make, in each query: `&&`, a misspelt field, `=`, a bare value, `!`, a list literal. */
const MISTAKES: Readonly<Record<string, (q: string) => string>> = {
  Q1: (q) => q.replace("Status", "Stauts"),
  Q2: (q) => q.replace(" and ", " && "),
  Q3: (q) => q.replace(' matches "^web-[0-9]+$"', " == web-1"),
  Q4: (q) => q.replace('"web" in JobSummary.Summary and ', ""),
  Q5: (q) => q.replace("not (", "!("),
  Q6: (q) => q.replace('(Namespace == "prod" or Namespace == "dev")', 'Namespace in ["prod", "dev"]'),
};

const cases = QUERIES.flatMap((q) => {
  const broken = (MISTAKES[q.id] ?? ((x: string) => x))(q.expression);
  return [
    { name: `${q.id} as written`, text: q.expression },
    { name: `${q.id} with a mistake`, text: broken },
  ];
});

type Summary = { results: { name: string; ops: number }[] };
const summary = (await b.suite(
  "diagnose",
  ...cases.map((c) => b.add(c.name, () => diagnose(c.text, { schema: schemas.job }), options)),
  b.cycle(),
  b.save({ file: "diagnose", folder: fileURLToPath(new URL(`./results/${version}`, import.meta.url)), version, format: "json", details: false }),
)) as unknown as Summary;

console.log("\ndiagnose (job schema), time per call:");
for (const c of cases) {
  const found = diagnose(c.text, { schema: schemas.job });
  const r = summary.results.find((x) => x.name === c.name)!;
  const what = found.map((d) => `${d.code}${d.fixes.length ? ` (${d.fixes.length} fix)` : ""}`).join(", ") || "clean";
  console.log(`  ${c.name.padEnd(18)} ${(1e6 / r.ops).toFixed(1).padStart(7)} µs  ${what}   ${c.text}`);
}
