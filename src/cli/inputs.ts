/**
 * What the positional arguments (and `--file`) name: expressions, or files of expressions, one a
 * line. A positional argument is, in this order:
 *
 * 1. an expression, when it parses as one (even if a file has that name: `--file NAME` reads the file);
 * 2. a file, when it names one that exists (anything but a directory);
 * 3. a file pattern (glob, src/cli/globs.ts), when it has `*`, `?`, `[` or `{` and no whitespace: it
 *    must match at least one file;
 * 4. an expression, otherwise (an invalid one, reported as such).
 *
 * Files and expressions are not mixed: arguments that name both are a usage error, so that a
 * misspelt file name is not checked as an expression among files. `--file` takes a file or a pattern.
 * The files, `--file` ones first, are read in the order given, each pattern's matches sorted, and
 * each file once (by its real path).
 */
import { realpath, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { parse } from "../index.js";
import { UsageError } from "./args.js";
import { glob, hasGlobSyntax } from "./globs.js";

/** The positional arguments sorted out: expressions, or files (with `--file`'s). */
export interface Inputs {
  readonly expressions: readonly string[];
  readonly files: readonly string[];
}

/** Sorts `args` into expressions and files, expands the patterns, and adds `--file`'s files. Throws `UsageError`. */
export async function resolveInputs(args: readonly string[], fileOptions: readonly string[], cwd: string = process.cwd()): Promise<Inputs> {
  const expressions: string[] = [];
  const files: string[] = [];
  let firstFile: string | undefined;
  for (const name of fileOptions) files.push(...(hasGlobSyntax(name) && !(await exists(resolve(cwd, name))) ? await matches(name, cwd) : [name]));
  for (const arg of args) {
    const kind = await argumentKind(arg, cwd);
    if (kind === "expression") expressions.push(arg);
    else {
      firstFile ??= arg;
      files.push(...(kind === "file" ? [arg] : await matches(arg, cwd, " (nor is it a valid expression)")));
    }
  }
  if (expressions.length > 0 && fileOptions.length > 0) {
    throw new UsageError(`--file reads the expressions from files: give no EXPRESSION arguments (${describe(expressions[0]!)})`);
  }
  if (expressions.length > 0 && firstFile !== undefined) {
    throw new UsageError(`give files or expressions, not both: ${JSON.stringify(firstFile)} is a file, but ${describe(expressions[0]!)}`);
  }
  return { expressions, files: await distinct(files, cwd) };
}

/** What a positional argument is (the rule of this module's comment). */
export async function argumentKind(arg: string, cwd: string = process.cwd()): Promise<"expression" | "file" | "pattern"> {
  if (parses(arg)) return "expression";
  if (await exists(resolve(cwd, arg))) return "file";
  return hasGlobSyntax(arg) && !/\s/.test(arg) ? "pattern" : "expression";
}

/** Why an argument is read as an expression, for a usage error. */
function describe(arg: string): string {
  return parses(arg) ? `${JSON.stringify(arg)} is an expression` : `${JSON.stringify(arg)} is neither a file nor a valid expression`;
}

function parses(text: string): boolean {
  try {
    parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Whether something other than a directory is at `path`. */
async function exists(path: string): Promise<boolean> {
  try {
    return !(await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** The files of a pattern; none is a usage error. */
async function matches(pattern: string, cwd: string, note = ""): Promise<string[]> {
  const found = await glob(pattern, cwd);
  if (found.length === 0) throw new UsageError(`no files matching the pattern ${JSON.stringify(pattern)} were found${note}`);
  return found;
}

/** `names` without a second name for a file already named (by real path), in order. */
async function distinct(names: readonly string[], cwd: string): Promise<string[]> {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of names) {
    const path = resolve(cwd, name);
    const key = await realpath(path).catch(() => path);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}
