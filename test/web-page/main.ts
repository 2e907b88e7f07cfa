/**
 * The page of test/web-browser.test.ts: the web entry's build (dist/web.js), bundled as an application
 * bundles it, answers the cases the test serves (/cases.json) and leaves its answers in
 * `window.answers`; `body[data-done]` says it is done.
 */
// The build is what the page tests; its types are the sources' (a fresh checkout type-checks before it builds).
// @ts-ignore: dist/web.d.ts exists only once the package is built
import * as built from "../../dist/web.js";
import type { Filter } from "../../src/web.js";
import { describeError, outcomeAsync } from "../support/outcome.js";

const web = built as typeof import("../../src/web.js");

interface Case {
  readonly id: number | string;
  readonly kind: "json" | "job" | "deployment";
  readonly expr: string;
  readonly datum: unknown;
}

/** Integers beyond 2^53 travel as `{ "\u0000bigint": digits }` (JSON has no bigint). */
const revive = (_key: string, value: unknown): unknown =>
  value !== null && typeof value === "object" && "\u0000bigint" in value ? BigInt((value as Record<string, string>)["\u0000bigint"]!) : value;

async function answer(c: Case): Promise<string[]> {
  const schema = c.kind === "json" ? undefined : web.schemas[c.kind];
  // A tree is told by its canonical text and span (45,000 nested nots are too deep for JSON.stringify).
  const parsed = await outcomeAsync(async () => {
    const ast = await web.parse(c.expr);
    return { text: web.print(ast), span: ast.span };
  });
  const out = [parsed, await outcomeAsync(() => web.evaluate(c.expr, c.datum, { schema }))];
  for (const check of [true, false]) {
    let f: Filter;
    try {
      f = await web.compile(c.expr, { schema, check });
    } catch (e) {
      out.push(`compile ${describeError(e)}`);
      continue;
    }
    out.push(await outcomeAsync(async () => f.evaluate(c.datum)));
  }
  return out;
}

const cases = JSON.parse(await (await fetch("/cases.json")).text(), revive) as Case[];
const answers: string[][] = [];
for (const c of cases) answers.push(await answer(c));
// The repository's TypeScript has no DOM types: the page's globals are typed where they are used.
const page = globalThis as unknown as { answers: string[][]; document: { body: { dataset: Record<string, string> } } };
page.answers = answers;
page.document.body.dataset["done"] = "true";
