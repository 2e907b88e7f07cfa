/**
 * The expressions to check: the arguments, or one a line from standard input (blank lines and lines
 * starting with `#` are skipped; the language has no `#`, so such a line is never an expression).
 */
import type { Readable } from "node:stream";
import { UsageError } from "./args.js";

/** An expression with a label that says where it came from (`expression 2`, `stdin:7`, `filters.txt:4`). */
export interface Expression {
  readonly text: string;
  readonly label: string;
  /** The file it was read from (`--file` or a file argument), `<stdin>`, or undefined for an argument. */
  readonly file: string | undefined;
  /** Its line in that input (1 for an argument): a position in the expression at line 1 is at this line. */
  readonly line: number;
}

/**
 * Where a column of a one-line expression read from a file or standard input is: `filters.txt:4:15`,
 * `stdin:2:15` (its label and the column); `1:15` for an argument.
 */
export function inputPosition(expression: Expression, column: number): string {
  return expression.file === undefined ? `${expression.line}:${column}` : `${expression.label}:${column}`;
}

/** The expressions from the arguments, or else from `stdin`. Throws `UsageError` when there are none. */
export async function readExpressions(args: readonly string[], stdin: Readable & { readonly isTTY?: boolean }, stdinTaken: boolean): Promise<Expression[]> {
  if (args.length > 0) return args.map((text, i) => ({ text, label: `expression ${i + 1}`, file: undefined, line: 1 }));
  if (stdinTaken) throw new UsageError("with --data -, give the expression as an argument (standard input holds the data)");
  if (stdin.isTTY) throw new UsageError("no expression: give one as an argument, or pipe them on standard input, one a line");
  return expressionLines(await readAll(stdin), "stdin", "<stdin>");
}

/**
 * The expressions of the files, in order. A file may hold none (only comments, say: a pattern may
 * match such a file); none in all of them is a usage error.
 */
export function fileExpressions(files: readonly { readonly name: string; readonly text: string }[]): Expression[] {
  const out = files.flatMap((f) => linesOf(f.text, f.name, f.name));
  if (out.length === 0) throw new UsageError(`no expression in ${files.map((f) => f.name).join(", ")} (one a line; blank lines and # comments are skipped)`);
  return out;
}

/** The expressions of a text, one a line (blank lines and `#` lines skipped), labelled `NAME:LINE`; none is a usage error. */
export function expressionLines(text: string, name: string, file = name): Expression[] {
  const out = linesOf(text, name, file);
  if (out.length === 0) throw new UsageError(`no expression ${name === "stdin" ? "on standard input" : `in ${name}`} (one a line; blank lines and # comments are skipped)`);
  return out;
}

/** The expressions of a text, one a line, labelled `NAME:LINE`. */
function linesOf(text: string, name: string, file: string): Expression[] {
  const out: Expression[] = [];
  text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .forEach((line, i) => {
      const expression = line.replace(/\r$/, "");
      const trimmed = expression.trim();
      if (trimmed === "" || trimmed.startsWith("#")) return;
      out.push({ text: expression, label: `${name}:${i + 1}`, file, line: i + 1 });
    });
  return out;
}

/** All of a stream's text. */
export async function readAll(stream: Readable): Promise<string> {
  stream.setEncoding("utf8");
  let text = "";
  for await (const chunk of stream as AsyncIterable<string>) text += chunk;
  return text;
}
