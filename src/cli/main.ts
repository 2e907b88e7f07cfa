/**
 * `filter-check`: checks filter expressions and tries them on data. `run` takes the arguments and
 * the standard streams and resolves to the exit status: 0 all valid (and evaluated without error),
 * 1 an expression is invalid or failed to evaluate, 2 a usage error.
 */
import { readFile, stat } from "node:fs/promises";
import { split, type Explanation, type Schema } from "../index.js";
import { analyse, type Report } from "./analyse.js";
import { parseCommandLine, USAGE, UsageError, type Options } from "./args.js";
import { openData } from "./data/source.js";
import { runData, type DataOutcome } from "./data/run.js";
import type { RawItem } from "./data/split.js";
import { whyJson, whyText } from "./data/why.js";
import { fromError } from "./diagnostics.js";
import { explainText } from "./explain.js";
import { fileExpressions, readExpressions } from "./expressions.js";
import { fixMode, type InputFile } from "./fix.js";
import { jsonError, reportJson } from "./format/json.js";
import { resolveInputs } from "./inputs.js";
import { diagnosticText, reportText, summaryText } from "./format/text.js";
import { BufferedWriter, writeAll, type Io, type OutStream } from "./io.js";
import { loadSchema } from "./schema-file.js";
import { sqlJson, sqlOf, sqlText } from "./sql.js";
import { splitJson, splitText } from "./split.js";
import { colourEnabled, makeStyle, type Style } from "./style.js";
import { packageInfo } from "./version.js";

export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** Runs the command; resolves to the exit status. */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  try {
    const options = parseCommandLine(argv);
    if (options.help) {
      await writeAll(io.stdout, USAGE);
      return EXIT_OK;
    }
    if (options.version) {
      const { name, version } = packageInfo();
      await writeAll(io.stdout, `filter-check (${name}) ${version}\n`);
      return EXIT_OK;
    }
    const schema = await loadSchema(options.schema);
    const stdinTaken = options.data === "-";
    const inputs = await resolveInputs(options.expressions, options.files);
    const files: InputFile[] = [];
    for (const name of inputs.files) files.push({ name, text: await readExpressionFile(name) });
    const expressions = files.length > 0 ? fileExpressions(files) : await readExpressions(inputs.expressions, io.stdin, stdinTaken);
    if (options.fix) return await fixMode(expressions, { schema, options, files }, io);
    if (options.data !== undefined && expressions.length !== 1) {
      throw new UsageError(`--data evaluates one expression, but ${expressions.length} were given`);
    }
    // With --split the filter is the newest release's, split for the target; else it is the target's.
    const target = options.split ? undefined : options.target;
    const reports = expressions.map((e) => analyse(e, { schema, warnings: !options.noWarnings, strict: options.strict, target }));
    if (options.data !== undefined) return await dataMode(reports[0]!, options, options.data, io);
    const status = await checkMode(reports, options, io);
    await fileNameHints(reports, io);
    return status;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    await writeAll(io.stderr, `filter-check: ${e.message}\nTry 'filter-check --help' for more information.\n`);
    return EXIT_USAGE;
  }
}

/**
 * A note on standard error for each expression argument that also names a file (an argument that
 * parses is an expression, src/cli/inputs.ts, so the file of that name is read only by `--file`) or
 * a directory (directories are not searched: a pattern names the files in one).
 */
async function fileNameHints(reports: readonly Report[], io: Io): Promise<void> {
  for (const r of reports) {
    const { text, file } = r.expression;
    if (file !== undefined) continue;
    const kind = await pathKind(text);
    if (kind === "file") {
      await writeAll(io.stderr, `filter-check: note: ${JSON.stringify(text)} is read as an expression (it parses as one); to check the expressions in the file of that name: filter-check --file ${quoteArg(text)}\n`);
    } else if (kind === "directory") {
      const pattern = `${text.replace(/\/+$/, "")}/**/*.txt`;
      await writeAll(io.stderr, `filter-check: note: ${JSON.stringify(text)} is a directory, read as an expression; to check the files in it, give a pattern such as ${quoteArg(pattern, true)}\n`);
    }
  }
}

async function pathKind(name: string): Promise<"file" | "directory" | undefined> {
  try {
    const s = await stat(name);
    return s.isDirectory() ? "directory" : s.isFile() ? "file" : undefined;
  } catch {
    return undefined;
  }
}

/** `name` as a shell word (`always`: quoted, as a pattern must be to reach the command). */
function quoteArg(name: string, always = false): string {
  return !always && /^[\w./-]+$/.test(name) ? name : `'${name.replace(/'/g, "'\\''")}'`;
}

/** The text of `--file`; an unreadable file is a usage error. */
async function readExpressionFile(name: string): Promise<string> {
  try {
    return (await readFile(name, "utf8")).replace(/^\uFEFF/, "");
  } catch (e) {
    throw new UsageError(`cannot read ${name}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function styleFor(stream: OutStream, io: Io): Style {
  return makeStyle(colourEnabled(stream.isTTY, io.env));
}

/** One report in the chosen format, with `--explain` if asked. */
function formatReport(report: Report, options: Options, style: Style): string {
  const plan = report.filter?.plan;
  if (options.format === "json") {
    const explain = options.explain ? { ast: report.ast, plan } : {};
    const json = reportJson(report, explain);
    if (options.sql) json.sql = report.filter ? sqlJson(sqlOf(report.filter, options.sql)) : null;
    if (options.split && options.target) json.split = report.filter ? splitJson(split(report.filter, options.target)) : null;
    return `${JSON.stringify(json)}\n`;
  }
  let text = reportText(report, style);
  if (options.explain && report.ast) text += `\n${explainText(report.ast, report.expression.text, plan, style)}`;
  if (options.sql && report.filter) text += `\n${sqlText(sqlOf(report.filter, options.sql), style)}`;
  if (options.split && options.target && report.filter) text += `\n${splitText(split(report.filter, options.target), style)}`;
  return `${text}\n`;
}

/** Without `--data`: the reports go to standard output. */
async function checkMode(reports: readonly Report[], options: Options, io: Io): Promise<number> {
  const style = styleFor(io.stdout, io);
  const out = new BufferedWriter(io.stdout);
  for (let i = 0; i < reports.length; i++) {
    const r = reports[i]!;
    await out.write(formatReport(r, options, style));
    // A blank line after an expression with details, when another follows.
    const detailed = r.errors.length + r.warnings.length > 0 || options.explain;
    if (options.format === "text" && detailed && i < reports.length - 1) await out.write("\n");
  }
  if (options.format === "text" && reports.length > 1) await out.write(`${summaryText(reports, style)}\n`);
  await out.flush();
  return reports.every((r) => r.valid) ? EXIT_OK : EXIT_INVALID;
}

/**
 * With `--data`: matching items (or their count) go to standard output; the report, when there is
 * something to report, and any failure go to standard error.
 */
async function dataMode(report: Report, options: Options, spec: string, io: Io): Promise<number> {
  const style = styleFor(io.stderr, io);
  if (report.errors.length > 0 || report.warnings.length > 0 || options.explain) {
    await writeAll(io.stderr, formatReport(report, options, style));
  }
  if (!report.valid || report.filter === undefined) return EXIT_INVALID;
  const source = await openData(spec, io.stdin);
  const out = new BufferedWriter(io.stdout);
  const expression = report.expression.text;
  const outStyle = styleFor(io.stdout, io);
  const why = options.why
    ? (x: Explanation, item: RawItem) => out.write(`${options.format === "json" ? whyJson(x, item) : `${whyText(x, item, source.name, expression, outStyle)}\n`}\n`)
    : undefined;
  const outcome = await runData(report.filter, source, out, options.count, why);
  if (outcome.kind === "done" && options.count) await out.write(`${outcome.matched}\n`);
  await out.flush();
  if (outcome.kind === "done") return EXIT_OK;
  await writeAll(io.stderr, failureText(outcome, report, source.name, options, style, schemaOf(report)));
  return EXIT_INVALID;
}

function schemaOf(report: Report): Schema | undefined {
  return report.filter?.schema;
}

/** The message for a run over the data that stopped. */
function failureText(
  outcome: Exclude<DataOutcome, { kind: "done" }>,
  report: Report,
  dataName: string,
  options: Options,
  style: Style,
  schema: Schema | undefined,
): string {
  if (outcome.kind === "evaluation-error") {
    const { error, item } = outcome;
    if (options.format === "json") {
      return `${JSON.stringify({ expression: report.expression.text, item: item.index, dataLine: item.line, error: jsonError(fromError(error, schema), report.expression) })}\n`;
    }
    const where = `item ${item.index} (${dataName}, line ${item.line}): `;
    return `${diagnosticText(fromError(error, schema), report.expression.text, style, "", where, report.expression)}\n`;
  }
  const message = `${outcome.message} (${dataName}, line ${outcome.line}, column ${outcome.column})`;
  if (options.format === "json") {
    return `${JSON.stringify({ item: outcome.item?.index ?? null, dataLine: outcome.line, dataColumn: outcome.column, error: { code: "invalid-data", message } })}\n`;
  }
  return `${style.error("error[invalid-data]")}: ${message}\n`;
}
