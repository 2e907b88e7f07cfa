/** Runs the real `filter-check` as a child process (through tsx) and collects what it prints. */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const CLI = fileURLToPath(new URL("../../src/cli/filter-check.ts", import.meta.url));

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
}

/** The environment of a child: the parent's, without colour settings. */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  return { ...env, ...extra };
}

/** Starts the CLI; the caller drives its streams. */
export function start(args: readonly string[], env: Record<string, string> = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ["--import", "tsx", CLI, ...args], { cwd: ROOT, env: childEnv(env) });
}

/** Runs the CLI to completion. */
export function run(args: readonly string[], options: RunOptions = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = start(args, options.env);
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
