/**
 * `filter-check --fix`: every expression with the fixes of `fixAll` applied. Prints the fixed
 * expressions, one a line (`--format json`: one object a line with the fixes applied and what is
 * left); with `--file`, writes them back to the files in place of the originals and prints what
 * changed. What no fix removes is reported on standard error, as eslint does (`FILE:LINE:COLUMN`).
 */
import { writeFile } from "node:fs/promises";
import { fixAll, lineColumn, type FixAllResult, type Schema } from "../index.js";
import type { Options } from "./args.js";
import { inputPosition, type Expression } from "./expressions.js";
import { plural } from "./format/text.js";
import { BufferedWriter, writeAll, type Io } from "./io.js";
import { colourEnabled, makeStyle } from "./style.js";

/** A file of expressions (`--file`): its name and text. */
export interface InputFile {
  readonly name: string;
  readonly text: string;
}

export interface FixOptions {
  readonly schema: Schema | undefined;
  readonly options: Options;
  /** With `--file`: the files, to write back. */
  readonly files: readonly InputFile[];
}

/** Fixes the expressions; resolves to the exit status (0 when every fixed expression is valid). */
export async function fixMode(expressions: readonly Expression[], { schema, options, files }: FixOptions, io: Io): Promise<number> {
  const results = expressions.map((e) => ({ expression: e, result: fixAll(e.text, { schema, warnings: !options.noWarnings }) }));
  const out = new BufferedWriter(io.stdout);
  for (const { expression, result } of results) {
    if (options.format === "json") {
      await out.write(`${JSON.stringify(fixJson(expression, result))}\n`);
    } else if (files.length === 0) {
      await out.write(`${result.text}\n`);
    } else if (result.applied.length > 0) {
      await out.write(`${expression.label}: ${result.applied.map((a) => a.title).join("; ")}\n`);
    }
  }
  await out.flush();
  for (const file of files) {
    const lines = file.text.split("\n");
    for (const { expression, result } of results) {
      if (expression.file !== file.name) continue;
      const line = expression.line - 1;
      if (result.text !== expression.text && lines[line] !== undefined) lines[line] = lines[line]!.endsWith("\r") ? `${result.text}\r` : result.text;
    }
    await writeFile(file.name, lines.join("\n"));
  }
  if (options.format === "text") await writeAll(io.stderr, remainingText(results, options, colourEnabled(io.stderr.isTTY, io.env)));
  const failed = results.some(({ result }) => result.remaining.some((d) => d.severity === "error" || options.strict));
  return failed ? 1 : 0;
}

/**
 * What the fixes left, one line a problem (`filters.txt:4:15: error[unknown-field]: …`, positions in
 * the fixed expression), then a count; empty when nothing is left.
 */
function remainingText(results: readonly { expression: Expression; result: FixAllResult }[], options: Options, colour: boolean): string {
  const style = makeStyle(colour);
  const lines: string[] = [];
  for (const { expression, result } of results) {
    for (const d of result.remaining) {
      if (d.severity === "warning" && options.noWarnings) continue;
      const { column } = lineColumn(result.text, d.span.start);
      const paint = d.severity === "error" ? style.error : style.warning;
      lines.push(`${inputPosition(expression, column)}: ${paint(`${d.severity}[${d.code}]`)}: ${d.message}`);
    }
  }
  if (lines.length === 0) return "";
  return `${lines.join("\n")}\n${plural(lines.length, "problem")} left that no fix removes\n`;
}

function fixJson(expression: Expression, result: FixAllResult): Record<string, unknown> {
  return {
    expression: expression.text,
    fixed: result.text,
    applied: result.applied,
    remaining: result.remaining.map((d) => ({ code: d.code, severity: d.severity, message: d.message, offset: d.span.start, length: d.span.end - d.span.start })),
  };
}
