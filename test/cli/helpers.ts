/**
 * Runs `filter-check` and collects what it prints: in this process through its `run(argv, io)` (the
 * command's whole behaviour, streams and environment included, without a process start per case), or
 * as the real binary in a child process where the process itself is under test: the build's
 * `dist/cli/filter-check.js`, which the run's global setup makes current (test/support/build-global.ts).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { run as runCommand } from "../../src/cli/main.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = fileURLToPath(new URL("../../dist/cli/filter-check.js", import.meta.url));

export interface Result {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  /** Text for standard input (closed right away when absent). */
  readonly input?: string;
  /** Environment variables to add (colour variables are removed unless given here). */
  readonly env?: Record<string, string>;
  /** The child's working directory (`runBinary`; default: the repository). */
  readonly cwd?: string;
}

/** The environment of a child: the parent's, without colour settings. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  return { ...env, ...extra };
}

/** Starts the CLI; the caller drives its streams. */
export function start(args: readonly string[], env: Record<string, string> = {}, cwd = ROOT): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [CLI, ...args], { cwd, env: childEnv(env) });
}

/** A stream that keeps what is written to it. */
function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

/** Runs the command to completion in this process, with piped (non-terminal) streams. */
export async function run(args: readonly string[], options: RunOptions = {}): Promise<Result> {
  const stdin = Readable.from(options.input === undefined || options.input === "" ? [] : [Buffer.from(options.input)]);
  const stdout = collector();
  const stderr = collector();
  const code = await runCommand(args, { stdin, stdout: stdout.stream, stderr: stderr.stream, env: childEnv(options.env) });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

/** Runs the real binary to completion in a child process. */
export function runBinary(args: readonly string[], options: RunOptions = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = start(args, options.env, options.cwd);
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}

/** The lines of JSON-lines output, parsed. */
export function jsonLines(text: string): unknown[] {
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as unknown);
}
