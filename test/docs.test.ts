import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { compile, diagnose, FilterError, nearMissFilters, parse, parseJson, schemas, t, toSQL, type CompileOptions } from "../src/index.js";
import { lint } from "../src/lint/index.js";

// Every example the pages show is run: the rows of each example table (`expression (…) | datum | result`)
// and each `compile('…', …)` call of a TypeScript block. A page that says something the code does not do
// fails here, naming the page and the line.
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs")).map((f) => `docs/${f}`),
  ...readdirSync(join(ROOT, "server", "docs")).map((f) => `server/docs/${f}`),
].filter((f) => f.endsWith(".md"));

/** The user schemas the pages define (docs/language.md, "Schemas of your own" and the literal table). */
const Node = t.record("Node", {
  Name: t.string, Cores: t.uint, Load: t.float,
  Labels: t.map(t.string), Drivers: t.list(t.string), Ports: t.list(t.int),
  Meta: t.any, Parent: t.pointer(t.record("Ref", { ID: t.string })),
});
const R = t.record("R", { I: t.int, U: t.uint, F: t.float, B: t.bool });

/** How a table compiles its expressions, by the parenthesis of its header: `expression (job)`. */
const MODES: Record<string, CompileOptions> = {
  JSON: {},
  "JSON, unchecked": { check: false },
  job: { schema: schemas.job },
  deployment: { schema: schemas.deployment },
  allocation: { schema: schemas.allocation },
  node: { schema: schemas.node },
  evaluation: { schema: schemas.evaluation },
  "job, unchecked": { schema: schemas.job, check: false },
  Node: { schema: Node },
  "R, unchecked": { schema: R, check: false },
};

interface Example {
  readonly where: string;
  readonly mode: string;
  readonly expression: string;
  readonly datum: string | undefined;
  readonly result: string;
}

/** The code spans of a Markdown cell, in order (any number of backticks, CommonMark's space stripping). */
function codeSpans(cell: string): string[] {
  const spans: string[] = [];
  const re = /(`+)([\s\S]*?[^`])\1(?!`)/g;
  for (let m = re.exec(cell); m !== null; m = re.exec(cell)) {
    const text = m[2] ?? "";
    spans.push(text.length > 1 && text.startsWith(" ") && text.endsWith(" ") ? text.slice(1, -1) : text);
  }
  return spans;
}

/** A table row's cells (pipes inside code spans are not separators). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = "";
  let ticks = 0;
  for (let i = 1; i < line.length; i++) {
    const c = line[i] ?? "";
    if (c === "`") {
      let run = 1;
      while (line[i + run] === "`") run++;
      ticks = ticks === 0 ? run : ticks === run ? 0 : ticks;
      cell += "`".repeat(run);
      i += run - 1;
    } else if (c === "\\" && line[i + 1] === "|") {
      cell += "|"; // GFM: an escaped pipe is a pipe, inside code spans too
      i++;
    } else if (c === "|" && ticks === 0) {
      out.push(cell.trim());
      cell = "";
    } else cell += c;
  }
  return out;
}

function examples(page: string): Example[] {
  const lines = readFileSync(join(ROOT, page), "utf8").split("\n");
  const found: Example[] = [];
  for (let i = 0; i < lines.length; i++) {
    const header = cells(lines[i] ?? "");
    const mode = /^`?expression \((.+)\)`?$/.exec(header[0] ?? "")?.[1];
    if (mode === undefined || !header.includes("result")) continue;
    const datumAt = header.indexOf("datum");
    const resultAt = header.indexOf("result");
    for (let j = i + 2; j < lines.length && lines[j]?.startsWith("|"); j++) {
      const row = cells(lines[j] ?? "");
      for (const expression of codeSpans(row[0] ?? "")) {
        found.push({ where: `${page}:${j + 1}`, mode, expression, datum: datumAt < 0 ? undefined : codeSpans(row[datumAt] ?? "")[0], result: row[resultAt] ?? "" });
      }
    }
  }
  return found;
}

/** What an example gives: `true`, `false`, or `syntax error CODE`, `type error CODE`, `evaluation error CODE`. */
function outcome(example: Example): string {
  const options = MODES[example.mode];
  if (options === undefined) return `unknown table mode "${example.mode}" (add it to MODES in test/docs.test.ts)`;
  const kind = (e: unknown): string => {
    if (!FilterError.is(e)) throw e;
    const name = e.name === "FilterSyntaxError" ? "syntax error" : e.name === "FilterTypeError" ? "type error" : "evaluation error";
    return `${name} ${e.code}`;
  };
  let filter;
  try {
    filter = compile(example.expression, options);
  } catch (e) {
    return kind(e);
  }
  if (example.datum === undefined) return "compiles";
  try {
    return String(filter.evaluate(parseJson(example.datum)));
  } catch (e) {
    return kind(e);
  }
}

/** What the page says: the same shape as `outcome`. */
function claimed(example: Example): string {
  const [first] = codeSpans(example.result);
  const error = /^\*(syntax|type|evaluation) error\*/.exec(example.result);
  if (error) return `${error[1]} error ${first ?? "(no code)"}`;
  return example.datum === undefined && first === undefined ? "compiles" : (first ?? example.result);
}

/** The `compile('…', options)` calls of the TypeScript blocks, and whether the block expects a throw. */
function codeCalls(page: string): { where: string; expression: string; options: CompileOptions; throws: boolean }[] {
  const text = readFileSync(join(ROOT, page), "utf8");
  const calls = [];
  const block = /```ts\n([\s\S]*?)```/g;
  for (let b = block.exec(text); b !== null; b = block.exec(text)) {
    const code = b[1] ?? "";
    const call = /compile(?:<[^>]*>)?\('((?:[^'\\]|\\.)*)'(?:,\s*(\{[^}]*\}))?\)/g;
    for (let c = call.exec(code); c !== null; c = call.exec(code)) {
      const expression = (c[1] ?? "").replace(/\\(.)/g, (_, x: string) => (x === "n" ? "\n" : x === "t" ? "\t" : x));
      const given = c[2] ?? "";
      const named = /schemas\.(job|deployment|allocation|node|evaluation)\b/.exec(given)?.[1] as keyof typeof schemas | undefined;
      const schema = named ? schemas[named] : /schema: [Nn]ode/.test(given) ? Node : undefined;
      const line = text.slice(0, b.index + 6 + c.index).split("\n").length;
      const target = /target: "([^"]+)"/.exec(given)?.[1];
      calls.push({ where: `${page}:${line}`, expression, options: { schema, check: !/check: false/.test(given), ...(target && { target }) }, throws: /\bcatch\b/.test(code) });
    }
  }
  return calls;
}

describe("the examples of README.md, docs/ and server/docs/ are true", () => {
  const all = PAGES.flatMap(examples);

  it("finds the example tables (the extraction itself works)", () => {
    expect(all.length).toBeGreaterThan(300);
    expect(new Set(all.map((e) => e.mode))).toEqual(new Set(Object.keys(MODES)));
    expect(all.some((e) => e.where.startsWith("README.md"))).toBe(true);
  });

  for (const page of PAGES) {
    const mine = all.filter((e) => e.where.startsWith(`${page}:`));
    if (mine.length === 0) continue;
    it(`${page}: every row of every example table (${mine.length} examples)`, () => {
      const wrong = mine
        .map((e) => ({ e, got: outcome(e), want: claimed(e) }))
        .filter(({ got, want }) => got !== want)
        .map(({ e, got, want }) => `${relative(ROOT, join(ROOT, e.where))} (${e.mode}) ${e.expression}: the page says ${want}, the code gives ${got}`);
      expect(wrong).toEqual([]);
    });
  }

  it("every compile('…') of a TypeScript block compiles, except in a block that catches its error", () => {
    const calls = PAGES.flatMap(codeCalls);
    expect(calls.length).toBeGreaterThan(3);
    const wrong = calls.filter((c) => {
      try {
        compile(c.expression, c.options);
        return c.throws;
      } catch (e) {
        if (!FilterError.is(e)) throw e;
        return !c.throws;
      }
    });
    expect(wrong.map((c) => `${c.where}: ${c.expression}`)).toEqual([]);
  });
});

/** The rows of the Markdown table that follows `heading` on `page` (header and rule left out). */
function tableAfter(page: string, heading: string): string[][] {
  const lines = readFileSync(join(ROOT, page), "utf8").split("\n");
  let i = lines.findIndex((l) => l.trim() === heading);
  expect(i, `${page}: ${heading}`).toBeGreaterThanOrEqual(0);
  while (!lines[i]!.startsWith("|")) i++;
  const rows: string[][] = [];
  for (let j = i + 2; j < lines.length && lines[j]!.startsWith("|"); j++) rows.push(cells(lines[j]!));
  return rows;
}

describe("what the pages say a call prints is what it prints", () => {
  it("docs/api.md: every example of the FilterSyntaxError code table raises that code", () => {
    const rows = tableAfter("docs/api.md", "### `FilterSyntaxError` codes");
    expect(rows.length).toBeGreaterThan(8);
    const wrong: string[] = [];
    for (const [codeCell, examplesCell] of rows) {
      const code = codeSpans(codeCell ?? "")[0];
      // A closing remark in parentheses shows fragments, not expressions: `(quote it: "1e3")`.
      for (const example of codeSpans((examplesCell ?? "").replace(/ \((?:[^()`]|`[^`]*`)*\)\s*$/, ""))) {
        try {
          parse(example);
          wrong.push(`${example}: parses, the page says ${code}`);
        } catch (e) {
          if (!FilterError.is(e)) throw e;
          if (e.code !== code) wrong.push(`${example}: ${e.code}, the page says ${code}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it("docs/cli.md: every example of the warnings table is valid text, warned with its code", () => {
    const rows = tableAfter("docs/cli.md", "## Warnings");
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const [codeCell, exampleCell] of rows) {
      const code = codeSpans(codeCell ?? "")[0]!;
      const example = codeSpans(exampleCell ?? "")[0]!;
      expect(() => compile(example, { schema: schemas.job }), `${example} compiles`).not.toThrow();
      expect(lint(parse(example), example, schemas.job).map((w) => w.code), example).toContain(code);
    }
  });

  it("docs/api.md: the diagnose example prints its message", () => {
    const page = readFileSync(join(ROOT, "docs/api.md"), "utf8");
    const [d] = diagnose("Name == web-1", { schema: schemas.job });
    expect(page).toContain(`//   message: '${d!.message}',`);
    expect(page).toContain(`// { code: "${d!.code}", severity: "${d!.severity}", span: { start: ${d!.span.start}, end: ${d!.span.end} },`);
  });

  it("docs/api.md: the explain example prints its result and witness", () => {
    const page = readFileSync(join(ROOT, "docs/api.md"), "utf8");
    const x = compile('Status == "running" and "dc1" in Datacenters', { schema: schemas.job }).explain({ Status: "running", Datacenters: ["dc2"] });
    const [leaf] = x.witness;
    expect(x.witness).toHaveLength(1);
    expect(page).toContain(`// { result: ${String(x.result)},`);
    expect(page).toContain(`//   witness: [{ kind: "${leaf!.kind}", span: { start: ${leaf!.span.start}, end: ${leaf!.span.end} }, selector: "${leaf!.selector}", op: "${leaf!.op}",`);
    expect(page).toContain(`//               read: { value: ${JSON.stringify((leaf!.read as { value: unknown }).value).replace(/,/g, ", ")} }, literal: "${leaf!.literal}", outcome: ${String(leaf!.outcome)}, elements: [] }] }`);
  });

  it("docs/api.md: the facts example prints its facts", () => {
    const page = readFileSync(join(ROOT, "docs/api.md"), "utf8");
    const text = 'Status == "running" and Name matches "^web-" and (any Datacenters as dc { dc == "dc1" })';
    expect(page).toContain(`compile('${text}', { schema: schemas.job })`);
    const x = compile(text, { schema: schemas.job }).facts;
    expect(page).toContain(`// { canFail: ${x.canFail}, metered: ${x.metered}, cost: ${x.cost}, levelCharge: ${x.levelCharge}, growsWithItems: ${x.growsWithItems},`);
    expect(page).toContain(`//   conjuncts: [${x.conjuncts.map((c) => `{ expr, canFail: ${c.canFail}, metered: ${c.metered} }`).join(", ")}],`);
    expect(page).toContain(`//   keyLeaf: { match, stringField: ${x.keyLeaf!.stringField}, afterMetered: ${x.keyLeaf!.afterMetered} } }`);
    expect(x.keyLeaf!.match).toBe(x.conjuncts[0]!.expr);
  });

  it("docs/api.md: the nearMissFilters example prints its parts and filters", () => {
    const page = readFileSync(join(ROOT, "docs/api.md"), "utf8");
    const misses = nearMissFilters('Status == "running" and "dc1" in Datacenters');
    expect(misses).toHaveLength(2);
    misses.forEach((m, i) => expect(page).toContain(`${i === 0 ? "// [ " : "//   "}{ part: { start: ${m.part.start}, end: ${m.part.end} }, filter: '${m.filter}' }`));
  });

  it("docs/sql.md: the toSQL example prints its where and params", () => {
    const lines = readFileSync(join(ROOT, "docs/sql.md"), "utf8").split("\n");
    const at = lines.findIndex((l) => l.startsWith("// where:"));
    // The where line, then its continuation lines (indented under it).
    const where: string[] = [];
    for (let k = at; k === at || /^\/\/ {8,}\S/.test(lines[k] ?? ""); k++) where.push(lines[k]!.replace(/^\/\/( where:)?\s*/, "").trim());
    const params = lines.find((l) => l.startsWith("// params:"))!.slice("// params:".length);
    const filter = compile('Status == "running" and "dc1" in Datacenters', { schema: schemas.job });
    const sql = toSQL(filter, { dialect: "postgres", column: "doc" });
    expect(where.join(" ")).toBe(sql.where);
    expect(JSON.parse(params)).toEqual(sql.params);
  });
});
