/**
 * Asks the oracles (go-bexpr 0.1.11 … 0.1.16 compiled by build.sh with harness/main.go) for their
 * answers. A case is one JSONL line holding at least {id, kind, expr, datum} (other fields are
 * ignored by the harness, so a corpus line can be sent as it is, its datum's numbers untouched).
 *
 * Each oracle runs with a time limit per case: past it the harness answers "timeout" and exits, and
 * the driver starts a new one for the cases after it. A harness that dies without answering (a Go
 * stack overflow is fatal, not a panic) gives "crash" for the case it was on.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, openSync, closeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const VERSIONS = ["0.1.11", "0.1.12", "0.1.13", "0.1.14", "0.1.15", "0.1.16"] as const;
export type Version = (typeof VERSIONS)[number];

/** "true", "false", "parse-error", "eval-error"; or what no fixture keeps: "bad-datum", "unstable", "timeout", "crash". */
export interface Answer {
  readonly expect: string;
  readonly goError?: string;
}

export interface OracleOptions {
  /** Where build.sh put the binaries (`oracle-<version>`). */
  readonly bin: string;
  /** Seconds a case may take. */
  readonly timeoutSeconds: number;
  /** Evaluations per case (differing answers: "unstable"). */
  readonly repeat: number;
  /** Harness processes at a time. */
  readonly jobs: number;
  /** Called after each finished chunk. */
  readonly progress?: (what: string) => void;
}

export const defaultBin = (): string => process.env.ORACLE_BIN ?? join(process.env.ORACLE_WORK ?? "/tmp/bexpr-oracles", "bin");

/**
 * The command line of the scripts that ask the oracles: `--bin DIR`, `--jobs 2`, `--timeout`
 * (`defaults.timeout` seconds), `--repeat 256`, and for a script that generates cases (`defaults.seed`)
 * `--seed` and `--dry-run`; read as `askOracles`' options, progress written to stderr.
 */
export function oracleCommandLine(defaults: { timeout: string; seed?: string }): { oracle: OracleOptions; seed: number; dryRun: boolean } {
  const options: NonNullable<ParseArgsConfig["options"]> = {
    bin: { type: "string", default: defaultBin() },
    jobs: { type: "string", default: "2" },
    timeout: { type: "string", default: defaults.timeout },
    repeat: { type: "string", default: "256" },
  };
  if (defaults.seed !== undefined) {
    options["seed"] = { type: "string", default: defaults.seed };
    options["dry-run"] = { type: "boolean", default: false };
  }
  const { values } = parseArgs({ options });
  const text = (name: string): string => values[name] as string;
  const oracle: OracleOptions = {
    bin: text("bin"),
    jobs: Number(text("jobs")),
    timeoutSeconds: Number(text("timeout")),
    repeat: Number(text("repeat")),
    progress: (s) => process.stderr.write(`\r${s}   `),
  };
  return { oracle, seed: Number(values["seed"]), dryRun: values["dry-run"] === true };
}

/** Runs one harness over `lines` (from `start`), to its end, a timeout or a crash. */
function runOnce(binary: string, lines: readonly string[], opts: OracleOptions, dir: string): Promise<{ answers: Answer[]; code: number | null; stderr: string }> {
  const file = join(dir, `in-${process.pid}-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, lines.join("\n") + "\n");
  const fd = openSync(file, "r");
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [`-timeout=${opts.timeoutSeconds}s`, `-repeat=${opts.repeat}`], { stdio: [fd, "pipe", "pipe"] });
    closeSync(fd);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on("data", (b: Buffer) => out.push(b));
    child.stderr!.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) => {
      rmSync(file, { force: true });
      const text = Buffer.concat(out).toString("utf8");
      const answers = text
        .split("\n")
        .filter((l) => l.length > 0)
        .map((l) => {
          const o = JSON.parse(l) as { expect: string; goError?: string };
          return o.goError === undefined ? { expect: o.expect } : { expect: o.expect, goError: o.goError };
        });
      resolve({ answers, code, stderr: Buffer.concat(err).toString("utf8") });
    });
  });
}

/** One oracle's answers to `lines`, in order, restarting it after a timeout or crash. */
async function answerChunk(binary: string, lines: readonly string[], opts: OracleOptions, dir: string): Promise<Answer[]> {
  const answers: Answer[] = [];
  while (answers.length < lines.length) {
    const { answers: got, code, stderr } = await runOnce(binary, lines.slice(answers.length), opts, dir);
    answers.push(...got);
    if (code === 2) throw new Error(`${binary}: ${stderr.trim()}`);
    const last = got[got.length - 1];
    if (code === 0 || last?.expect === "timeout") continue;
    // Died on the case after its last answer.
    if (answers.length < lines.length) answers.push({ expect: "crash", goError: stderr.split("\n").slice(0, 2).join(" ").slice(0, 200) });
  }
  return answers;
}

/** Every version's answers to `lines` (chunks of them run `opts.jobs` at a time). */
export async function askOracles(lines: readonly string[], opts: OracleOptions, versions: readonly Version[] = VERSIONS): Promise<Record<Version, Answer[]>> {
  const dir = mkdtempSync(join(tmpdir(), "oracle-"));
  const chunkSize = Math.max(50, Math.ceil(lines.length / (opts.jobs * 4)));
  const tasks: { v: Version; from: number }[] = [];
  for (const v of versions) for (let from = 0; from < lines.length; from += chunkSize) tasks.push({ v, from });
  const result = Object.fromEntries(versions.map((v) => [v, new Array<Answer>(lines.length)])) as Record<Version, Answer[]>;
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const { v, from } = tasks[next++]!;
      const chunk = lines.slice(from, from + chunkSize);
      const got = await answerChunk(join(opts.bin, `oracle-${v}`), chunk, opts, dir);
      got.forEach((a, i) => (result[v][from + i] = a));
      opts.progress?.(`${++done}/${tasks.length} chunks (${v} from ${from})`);
    }
  };
  try {
    await Promise.all(Array.from({ length: opts.jobs }, worker));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

/** A goError as fixtures keep it. */
export const cutError = (s: string): string => (s.length > 200 ? s.slice(0, 200) : s);
