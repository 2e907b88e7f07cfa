/**
 * `filter-check --fix`: every expression with the fixes of `fixAll` applied. Prints the fixed
 * expressions, one a line (`--format json`: one object a line with the fixes applied and what is
 * left); with `--file`, writes them back to the file in place of the originals and prints what changed.
 */
import { writeFile } from "node:fs/promises";
import { fixAll, type FixAllResult, type Schema } from "../index.js";
import type { Options } from "./args.js";
import type { Expression } from "./expressions.js";
import { BufferedWriter, type Io } from "./io.js";

export interface FixOptions {
  readonly schema: Schema | undefined;
  readonly options: Options;
  /** With `--file`: the file's name and text, to write back. */
  readonly file?: { readonly name: string; readonly text: string } | undefined;
}

/** Fixes the expressions; resolves to the exit status (0 when every fixed expression is valid). */
export async function fixMode(expressions: readonly Expression[], { schema, options, file }: FixOptions, io: Io): Promise<number> {
  const results = expressions.map((e) => ({ expression: e, result: fixAll(e.text, { schema, warnings: !options.noWarnings }) }));
  const out = new BufferedWriter(io.stdout);
  for (const { expression, result } of results) {
    if (options.format === "json") {
      await out.write(`${JSON.stringify(fixJson(expression, result))}\n`);
    } else if (file === undefined) {
      await out.write(`${result.text}\n`);
    } else if (result.applied.length > 0) {
      await out.write(`${expression.label}: ${result.applied.map((a) => a.title).join("; ")}\n`);
    }
  }
  await out.flush();
  if (file !== undefined) {
    const lines = file.text.split("\n");
    for (const { expression, result } of results) {
      const line = Number(/:(\d+)$/.exec(expression.label)?.[1]) - 1;
      if (result.text !== expression.text && lines[line] !== undefined) lines[line] = lines[line]!.endsWith("\r") ? `${result.text}\r` : result.text;
    }
    await writeFile(file.name, lines.join("\n"));
  }
  const failed = results.some(({ result }) => result.remaining.some((d) => d.severity === "error" || options.strict));
  return failed ? 1 : 0;
}

function fixJson(expression: Expression, result: FixAllResult): Record<string, unknown> {
  return {
    expression: expression.text,
    fixed: result.text,
    applied: result.applied,
    remaining: result.remaining.map((d) => ({ code: d.code, severity: d.severity, message: d.message, offset: d.span.start, length: d.span.end - d.span.start })),
  };
}
