/**
 * The page of test/web-browser.test.ts: the web entry's build (dist/web.js), bundled as an application
 * bundles it, answers the cases the test serves (/cases.json) and leaves its answers in
 * `window.answers`; `body[data-done]` says it is done.
 */
import * as web from "../../dist/web.js";

interface Case {
  readonly id: number | string;
  readonly kind: "json" | "job" | "deployment";
  readonly expr: string;
  readonly datum: unknown;
}

/** Integers beyond 2^53 travel as `{ "\u0000bigint": digits }` (JSON has no bigint). */
const revive = (_key: string, value: unknown): unknown =>
  value !== null && typeof value === "object" && "\u0000bigint" in value ? BigInt((value as Record<string, string>)["\u0000bigint"]!) : value;

function describeError(e: unknown): string {
  if (!(e instanceof Error)) throw e;
  const f = e as Error & { code?: string; span?: unknown };
  return `${f.name} ${f.code ?? ""} ${JSON.stringify(f.span ?? null)} ${f.message}`;
}

async function outcome(run: () => Promise<unknown>): Promise<string> {
  try {
    const value = await run();
    return `ok ${typeof value === "boolean" ? value : typeof value === "object" ? JSON.stringify(value) : "?"}`;
  } catch (e) {
    return describeError(e);
  }
}

async function answer(c: Case): Promise<string[]> {
  const schema = c.kind === "json" ? undefined : web.schemas[c.kind];
  // A tree is told by its canonical text and span (45,000 nested nots are too deep for JSON.stringify).
  const parsed = await outcome(async () => {
    const ast = await web.parse(c.expr);
    return { text: web.print(ast), span: ast.span };
  });
  const out = [parsed, await outcome(() => web.evaluate(c.expr, c.datum, { schema }))];
  for (const check of [true, false]) {
    let f: web.Filter;
    try {
      f = await web.compile(c.expr, { schema, check });
    } catch (e) {
      out.push(`compile ${describeError(e)}`);
      continue;
    }
    out.push(await outcome(async () => f.evaluate(c.datum)));
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
