/**
 * Command-line arguments: `node:util` `parseArgs` with strict checking, turned into typed options.
 * Every mistake is a `UsageError` (exit status 2).
 */
import { parseArgs } from "node:util";
import { didYouMean } from "../semantics/check.js";
import { resolveTarget, UnknownTargetError, type Target } from "../releases.js";

/** A mistake in how the command was called: exit status 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

/** Output formats of `--format`. */
export type Format = "text" | "json";

/** The parsed command line. */
export interface Options {
  readonly help: boolean;
  readonly version: boolean;
  /** `job`, `deployment` or a file path; undefined for plain JSON. */
  readonly schema: string | undefined;
  readonly format: Format;
  /** A data file, `-` for standard input, or undefined. */
  readonly data: string | undefined;
  readonly count: boolean;
  readonly explain: boolean;
  /** `--why` (with `--data`): print, for each item, whether it matched and which parts decided it. */
  readonly why: boolean;
  /** `--sql`: print the SQL pushdown translation for this engine. */
  readonly sql: "postgres" | "sqlite" | undefined;
  /** `--fix`: print (with `--file`, write back) each expression with every fix applied. */
  readonly fix: boolean;
  /** `--file` (repeatable): read the expressions from these files or file patterns, one a line, in order, instead of standard input. */
  readonly files: readonly string[];
  /** Leave warnings out of the report. */
  readonly noWarnings: boolean;
  /** Fail (exit 1) when there are warnings. */
  readonly strict: boolean;
  /** `--target`: check (and evaluate) as this release; undefined: the newest. */
  readonly target: Target | undefined;
  /** `--split` (with `--target`): print the part for that release's server and the residual. */
  readonly split: boolean;
  /** The positional arguments: expressions, files or file patterns (src/cli/inputs.ts tells which). */
  readonly expressions: readonly string[];
}

export const USAGE = `Usage: filter-check [options] [EXPRESSION... | FILE... | PATTERN...]

Checks filter expressions (the scheduler's filter= language) and optionally runs them on data.
An argument is an EXPRESSION when it parses as one; else a FILE of expressions, one a line (blank
lines and # lines skipped), when a file has that name; else a PATTERN of files when it has *, ?, [
or { and no spaces ('filters/**/*.txt'; ** does not enter node_modules or dot directories); else an
(invalid) expression. Give expressions or files, not both. With no argument, reads one expression
per line from standard input.

Options:
  --schema job|deployment|FILE  check against the job or deployment record, or a schema file
                                (see docs/cli.md); also allocation, node, evaluation; without
                                it, data is plain JSON
  --format text|json            report format (default text; json: one object per expression a line)
  --data FILE|-                 evaluate the expression on a JSON array or JSON lines
                                (- for standard input) and print the matching items as JSON lines
  --count                       with --data, print the number of matching items instead
  --why                         with --data, print for each item whether it matched and why: the
                                parts of the expression that decided it and the values they read
  --explain                     print the syntax tree and the optimized evaluation plan
  --sql postgres|sqlite         print the SQL condition that narrows a table of JSON documents
                                (column doc) to the rows the filter may accept (docs/sql.md)
  --fix                         print each expression with every fix applied (quoting, operators,
                                list literals, misspelt fields, guarded map keys; docs/cli.md);
                                expressions read from files are written back to them
  --file FILE|PATTERN           read the expressions from FILE or the files of PATTERN, one a line
                                (repeat it for more); with --fix, write the fixed expressions back
  --target RELEASE              check and evaluate as that release: nomad@1.10.5, go-bexpr@0.1.12
                                (flags what it lacks and what it answers differently; docs/cli.md)
  --split                       with --target, print the part of the filter to send to a server of
                                that release and the residual to run on its answer
  --strict                      treat warnings as errors (exit status 1)
  --no-warnings                 do not report warnings
  -h, --help                    print this help and exit
  -v, --version                 print the version and exit

Exit status: 0 all valid (and evaluated without error), 1 an expression is invalid or failed
to evaluate, 2 usage error (bad option, unreadable file, a pattern matching no file, invalid
schema file).

Examples:
  filter-check --schema job 'Status == "running" and "dc1" in Datacenters'
  printf '%s\\n' 'Priority == 50' 'Name matches "^web"' | filter-check --format json
  filter-check --schema job filters/*.txt 'more/**/*.txt'
  filter-check --schema job --data jobs.json 'Periodic == true'
  curl -s localhost:4646/v1/jobs | filter-check --schema job --data - --count 'Type == batch'
`;

/** The options `parseArgs` takes. */
const OPTIONS = {
  schema: { type: "string" },
  format: { type: "string" },
  data: { type: "string" },
  count: { type: "boolean" },
  why: { type: "boolean" },
  explain: { type: "boolean" },
  sql: { type: "string" },
  fix: { type: "boolean" },
  file: { type: "string", multiple: true },
  strict: { type: "boolean" },
  "no-warnings": { type: "boolean" },
  target: { type: "string" },
  split: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

/** Parses `argv` (without the node and script paths). Throws `UsageError`. */
export function parseCommandLine(argv: readonly string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      options: OPTIONS,
    });
  } catch (e) {
    throw new UsageError(withSuggestion(cleanParseArgsMessage(e instanceof Error ? e.message : String(e))));
  }
  const v = parsed.values;
  const format = v.format ?? "text";
  if (format !== "text" && format !== "json") {
    throw new UsageError(`--format must be "text" or "json", not ${JSON.stringify(format)}`);
  }
  if (v.schema !== undefined && v.schema === "") throw new UsageError("--schema needs a value: job, deployment, allocation, node, evaluation or a file");
  if (v.data !== undefined && v.data === "") throw new UsageError("--data needs a file name, or - for standard input");
  if (v.count && v.data === undefined) throw new UsageError("--count needs --data");
  if (v.why && v.data === undefined) throw new UsageError("--why needs --data: the items to explain");
  if (v.why && v.count) throw new UsageError("--why and --count do not go together");
  const files = v.file ?? [];
  if (files.includes("")) throw new UsageError("--file needs a file name");
  if (v.fix && v.data !== undefined) throw new UsageError("--fix and --data do not go together: fix the expression first");
  if (v.sql !== undefined && v.sql !== "postgres" && v.sql !== "sqlite") {
    throw new UsageError(`--sql must be "postgres" or "sqlite", not ${JSON.stringify(v.sql)}`);
  }
  let target: Target | undefined;
  if (v.target !== undefined) {
    try {
      target = resolveTarget(v.target);
    } catch (e) {
      if (!(e instanceof UnknownTargetError)) throw e;
      throw new UsageError(`--target: ${e.message}`);
    }
  }
  if (v.split && target === undefined) throw new UsageError("--split needs --target: the release of the server");
  if (v.split && (v.data !== undefined || v.fix)) throw new UsageError(`--split and ${v.fix ? "--fix" : "--data"} do not go together`);
  return {
    help: v.help ?? false,
    version: v.version ?? false,
    schema: v.schema,
    format,
    data: v.data,
    count: v.count ?? false,
    why: v.why ?? false,
    explain: v.explain ?? false,
    sql: v.sql as "postgres" | "sqlite" | undefined,
    fix: v.fix ?? false,
    files,
    noWarnings: v["no-warnings"] ?? false,
    strict: v.strict ?? false,
    target,
    split: v.split ?? false,
    expressions: parsed.positionals,
  };
}

/** The options, as typed on the command line. */
const OPTION_NAMES = Object.keys(OPTIONS).map((name) => `--${name}`);

/** An unknown option's message with the closest known option, as eslint words it. */
function withSuggestion(message: string): string {
  const unknown = /^Unknown option '(--[^'=]+)/.exec(message)?.[1];
  const near = unknown === undefined ? undefined : didYouMean(unknown, OPTION_NAMES);
  return near === undefined ? message : `${message}; perhaps you meant '${near}'?`;
}

/** `parseArgs` messages mention internals ("To specify an option argument starting with..."): keep the first sentence. */
function cleanParseArgsMessage(message: string): string {
  const first = message.split(/\.?\s+(?=To specify|Did you)/)[0] ?? message;
  return first.replace(/\.$/, "");
}
